/**
 * The instance actions over real HTTP against the simulator: bids (and outbidding caused
 * through the control API), reboot, recycle, prepay and the balance, with the bodies the
 * vendor's client sends.
 */
import { SEED } from "pulumi-vastai/simulator";
import { VastApiError, VastValidationError } from "../../provider/client";
import { useSimulator } from "../support/simulator";

const h = useSimulator();
const offerId = () => SEED.offerIds[0];

async function machineOf(id: number): Promise<number> {
  const inst = await h.client.instances.get(id);
  return inst!.machineId!;
}

describe("interruptible instances", () => {
  it("a create with price rents a bid: is_bid, the bid as the price, min_bid of the machine", async () => {
    const { id } = await h.client.instances.create(offerId(), { image: "ubuntu", price: 0.5 });
    const inst = await h.client.instances.get(id);
    expect(inst).toMatchObject({ isBid: true, dphTotal: 0.5, actualStatus: "running" });
    expect(inst?.minBid).toEqual(expect.any(Number));
    const onDemand = await h.client.instances.create(SEED.offerIds[1], { image: "ubuntu" });
    expect((await h.client.instances.get(onDemand.id))?.isBid).toBe(false);
  });

  it("a market price above the bid stops the instance (outbid); a higher bid starts it again", async () => {
    const { id } = await h.client.instances.create(offerId(), { image: "ubuntu", price: 0.5 });
    const machine = await machineOf(id);
    const answer = (await h.control("POST", `/machines/${machine}/market`, { price: 0.8 })) as { outbid: number[] };
    expect(answer.outbid).toEqual([id]);
    const outbid = await h.client.instances.get(id);
    expect(outbid).toMatchObject({ actualStatus: "stopped", intendedStatus: "running", isBid: true, minBid: 0.8 });
    expect(outbid?.statusMsg).toMatch(/outbid/i);
    // A bid still too low changes the price but leaves it stopped.
    await h.client.instanceActions.changeBid(id, 0.7);
    expect(await h.client.instances.get(id)).toMatchObject({ actualStatus: "stopped", dphTotal: 0.7 });
    await h.client.instanceActions.changeBid(id, 0.9);
    expect(await h.client.instances.get(id)).toMatchObject({ actualStatus: "running", dphTotal: 0.9 });
    const sent = (await h.requests()).filter((r) => r.method === "PUT" && r.path === `/api/v0/instances/bid_price/${id}/`);
    expect(sent.map((r) => r.body)).toEqual([{ client_id: "me", price: 0.7 }, { client_id: "me", price: 0.9 }]);
  });

  it("a bid below the machine's going price is rented outbid", async () => {
    const probe = await h.client.instances.create(offerId(), { image: "ubuntu", price: 0.5 });
    await h.control("POST", `/machines/${await machineOf(probe.id)}/market`, { price: 2 });
    // The offer is free again once the probe is destroyed (a rented offer is taken).
    await h.client.instances.destroy(probe.id);
    const { id } = await h.client.instances.create(offerId(), { image: "ubuntu", price: 1 });
    expect(await h.client.instances.get(id)).toMatchObject({ actualStatus: "stopped", isBid: true });
  });

  it("POST /_sim/bids makes the next bid rent on-demand (is_bid false)", async () => {
    await h.control("POST", "/bids", { ignore: 1 });
    const first = await h.client.instances.create(offerId(), { image: "ubuntu", price: 0.5 });
    const second = await h.client.instances.create(SEED.offerIds[1], { image: "ubuntu", price: 0.5 });
    expect((await h.client.instances.get(first.id))?.isBid).toBe(false);
    expect((await h.client.instances.get(second.id))?.isBid).toBe(true);
  });

  it("the bid endpoint refuses an on-demand instance, a bid out of range and an unknown instance", async () => {
    const { id } = await h.client.instances.create(offerId(), { image: "ubuntu" });
    await expect(h.client.instanceActions.changeBid(id, 0.5)).rejects.toThrow(/on-demand/);
    await expect(h.client.instanceActions.changeBid(id, 40)).rejects.toBeInstanceOf(VastValidationError);
    const raw = await fetch(`${h.sim.url}/api/v0/instances/bid_price/${id}/`, {
      method: "PUT",
      headers: { authorization: `Bearer ${h.sim.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ client_id: "me", price: 0 }),
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toMatchObject({ success: false, error: "invalid_args" });
    const gone = await h.client.instanceActions.changeBid(999_999, 0.5).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(VastApiError);
    expect((gone as VastApiError).status).toBe(404);
  });
});

describe("reboot, recycle, prepay", () => {
  it("reboot and recycle restart the container on the same machine", async () => {
    const { id } = await h.client.instances.create(offerId(), { image: "ubuntu" });
    const machine = await machineOf(id);
    await h.client.instanceActions.reboot(id);
    await h.client.instanceActions.recycle(id);
    await h.client.instanceActions.recycle(id);
    const live = h.sim.state().instances.find((i) => i.id === id)!;
    expect(live).toMatchObject({ reboots: 1, recycles: 2, machine_id: machine });
    const bodies = (await h.requests()).filter((r) => /\/(reboot|recycle)\//.test(r.path)).map((r) => [r.method, r.body]);
    expect(bodies).toEqual([["PUT", {}], ["PUT", {}], ["PUT", {}]]);
  });

  it("a stopped instance cannot be rebooted", async () => {
    const { id } = await h.client.instances.create(offerId(), { image: "ubuntu", targetState: "stopped" });
    await expect(h.client.instanceActions.reboot(id)).rejects.toThrow(/stopped/);
  });

  it("prepay adds to the balance the balance endpoint reads back", async () => {
    const { id } = await h.client.instances.create(offerId(), { image: "ubuntu" });
    await expect(h.client.instanceActions.balance(id)).resolves.toMatchObject({ refundableDeposit: 0 });
    const paid = await h.client.instanceActions.prepay(id, 100);
    expect(paid).toEqual({ timescale: expect.any(Number), discountRate: expect.any(Number) });
    await h.client.instanceActions.prepay(id, 50);
    await expect(h.client.instanceActions.balance(id)).resolves.toMatchObject({ refundableDeposit: 150 });
    const log = await h.requests();
    expect(log.filter((r) => r.path === `/api/v0/instances/prepay/${id}/`).map((r) => r.body)).toEqual([{ amount: 100 }, { amount: 50 }]);
    expect(log.find((r) => r.path.startsWith(`/api/v0/instances/balance/${id}/`))?.query).toMatchObject({ owner: "me" });
    await expect(h.client.instanceActions.prepay(id, 0)).rejects.toBeInstanceOf(VastValidationError);
  });

  it("a key without instance_write cannot bid, reboot or prepay; instance_read reads the balance", async () => {
    const { id } = await h.client.instances.create(offerId(), { image: "ubuntu", price: 0.5 });
    const key = await h.client.apiKeys.create({ name: "reader", scopes: ["instance_read"] });
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${h.sim.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${key.key}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    expect((await call("PUT", `/api/v0/instances/bid_price/${id}/`, { client_id: "me", price: 1 })).status).toBe(403);
    expect((await call("PUT", `/api/v0/instances/reboot/${id}/`, {})).status).toBe(403);
    expect((await call("PUT", `/api/v0/instances/prepay/${id}/`, { amount: 5 })).status).toBe(403);
    expect((await call("GET", `/api/v0/instances/balance/${id}/?owner=me`)).status).toBe(200);
  });
});
