/**
 * Interruptible rentals, triggers, prepayment and the live outputs, through the Instance
 * provider against the simulator over real HTTP. Outbidding is caused with the control API
 * (`POST /_sim/machines/{id}/market`), a bid the service does not take with `POST /_sim/bids`.
 */
import { useKey } from "./account-resources-support";
import { CREATE_PATH, Props, checked, createChecked, instance, liveInstancesOf, rejection } from "./instance-support";
import { FAST_INSTANCE_SETTINGS, useSimulator } from "../support/simulator";

const h = useSimulator({ providers: true, settings: FAST_INSTANCE_SETTINGS });

/** Offer 700001 (RTX 4090, $0.32/hour on-demand, min_bid 0.19) runs on machine 30001. */
const MACHINE = 30001;
const args = { offerId: 700001, image: "pytorch/pytorch", label: "spot" };
const spot = { ...args, bidPricePerHour: 0.25 };
const bodiesTo = async (pattern: RegExp) => (await h.requests()).filter((r) => r.method !== "GET" && pattern.test(r.path)).map((r) => r.body);
/** A new plugin process: nothing cached. */
const fresh = () => useKey(h, h.sim.apiKey);

describe("bids", () => {
  it("rents a bid: price and cancel_unavail on create, isBid and the bid as pricePerHour", async () => {
    const { outs } = await createChecked({ ...spot, cancelUnavailable: true });
    expect(await bodiesTo(CREATE_PATH)).toEqual([expect.objectContaining({ price: 0.25, cancel_unavail: true })]);
    expect(outs).toMatchObject({ isBid: true, outbid: false, pricePerHour: 0.25, minBidPerHour: 0.19, actualStatus: "running" });
  });

  it("sets a changed bid in place through the bid endpoint", async () => {
    const { id, outs } = await createChecked(spot);
    const news = await checked({ ...spot, bidPricePerHour: 0.3 });
    expect(await instance.diff(id, outs, news)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    await h.clearRequests();
    const { outs: after } = await instance.update(id, outs, news);
    expect(await bodiesTo(/bid_price/)).toEqual([{ client_id: "me", price: 0.3 }]);
    expect(after).toMatchObject({ bidPricePerHour: 0.3, pricePerHour: 0.3, isBid: true });
    expect(liveInstancesOf(h)).toHaveLength(1);
  });

  it("replaces when a bid is added to an on-demand instance or removed", async () => {
    const onDemand = await createChecked(args);
    expect((await instance.diff(onDemand.id, onDemand.outs, await checked(spot))).replaces).toEqual(["bidPricePerHour"]);
    // Another offer: 700001 is rented once (a rented offer is taken).
    const bid = await createChecked({ ...spot, offerId: 700005, label: "b" });
    expect((await instance.diff(bid.id, bid.outs, await checked({ ...args, offerId: 700005, label: "b" }))).replaces).toEqual(["bidPricePerHour"]);
  });

  it("a bid the service rents on-demand fails the create clearly and destroys the instance", async () => {
    await h.control("POST", "/bids", { ignore: 1 });
    const error = await rejection(createChecked(spot));
    expect(error.message).toMatch(/^Instance \d+ on offer 700001 the service rented it on-demand \(is_bid false\) although bidPricePerHour 0.25 was sent/);
    expect(error.message).toMatch(/it was destroyed/);
    expect(error.id).toBeUndefined();
    expect(liveInstancesOf(h)).toHaveLength(0);
  });

  it("a bid outbid while booting counts as a failed boot: the next offer is rented", async () => {
    await h.control("POST", `/machines/${MACHINE}/market`, { price: 1 });
    // The search still showed the old going price (the market moved between search and rent).
    const stale = [
      { id: 700001, machine_id: 30001, gpu_name: "RTX 4090", dph_total: 0.32, min_bid: 0.19, rentable: true, rented: false },
      { id: 700002, machine_id: 30002, gpu_name: "RTX 4090", dph_total: 0.62, min_bid: 0.37, rentable: true, rented: false },
    ];
    await h.fault({ method: "POST", path: "/api/v0/bundles", status: 200, body: { offers: stale }, times: 1 });
    const { outs } = await createChecked({ offer: { gpuName: "RTX 4090" }, image: "x", bidPricePerHour: 0.5 });
    expect(outs).toMatchObject({ offerId: 700002, isBid: true, actualStatus: "running" });
    expect((await h.requests()).filter((r) => CREATE_PATH.test(r.path)).map((r) => r.path)).toEqual(["/api/v0/asks/700001/", "/api/v0/asks/700002/"]);
    // The outbid one on machine 30001 was destroyed: nothing bills in silence.
    expect(liveInstancesOf(h).map((i) => i.machine_id)).toEqual([30002]);
  });
});

describe("outbid", () => {
  async function outbidOne(extra: Props): Promise<{ id: string; outs: Props; news: Props }> {
    const news = await checked({ ...spot, ...extra });
    const { id, outs } = await createChecked(news);
    await h.control("POST", `/machines/${MACHINE}/market`, { price: 0.4 });
    fresh();
    return { id, outs, news };
  }

  it("refresh shows it outbid (stopped by the service, still wanted running)", async () => {
    const { id, outs } = await outbidOne({});
    const read = await instance.read(id, outs);
    expect(read.props).toMatchObject({ outbid: true, isBid: true, actualStatus: "stopped", intendedStatus: "running", targetState: "running" });
    expect(read.props?.statusMsg).toMatch(/outbid/i);
  });

  it("onOutbid replace (default): the next diff replaces it", async () => {
    const { id, outs, news } = await outbidOne({});
    // The replacement rents the same offer, which the old instance holds: it goes first.
    expect(await instance.diff(id, outs, news)).toEqual({ changes: true, replaces: ["outbid"], deleteBeforeReplace: true });
  });

  it("onOutbid rebid: the diff updates in place, the update bids the going price and waits for running", async () => {
    const { id, outs, news } = await outbidOne({ onOutbid: "rebid", maxBidPricePerHour: 0.5 });
    expect(await instance.diff(id, outs, news)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    await h.clearRequests();
    const { outs: after } = await instance.update(id, outs, news);
    expect(await bodiesTo(/bid_price/)).toEqual([{ client_id: "me", price: 0.4 }]);
    expect(after).toMatchObject({ outbid: false, actualStatus: "running", pricePerHour: 0.4, bidPricePerHour: 0.25 });
    fresh();
    expect((await instance.diff(id, after, news)).changes).toBe(false);
  });

  it("onOutbid rebid: a going price above maxBidPricePerHour fails clearly and bids nothing", async () => {
    const { id, outs, news } = await outbidOne({ onOutbid: "rebid", maxBidPricePerHour: 0.35 });
    await h.clearRequests();
    const error = await rejection(instance.update(id, outs, news));
    expect(error.message).toBe(
      `Instance ${id} was outbid: the going price is 0.4 $/hour, above maxBidPricePerHour 0.35; raise maxBidPricePerHour, or set onOutbid "replace" to rent elsewhere`,
    );
    expect(await bodiesTo(/bid_price/)).toEqual([]);
  });

  it("onOutbid keep: no change; another update does not wait for it to run", async () => {
    const { id, outs, news } = await outbidOne({ onOutbid: "keep" });
    expect(await instance.diff(id, outs, news)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
    const read = await instance.read(id, outs);
    const { outs: after } = await instance.update(id, read.props as Props, { ...news, label: "still" });
    expect(after).toMatchObject({ label: "still", outbid: true, actualStatus: "stopped" });
  });
});

describe("triggers and prepayment", () => {
  it("a changed rebootTrigger reboots, a changed recycleTrigger recycles, in place; none on create or removal", async () => {
    const { id, outs } = await createChecked({ ...args, rebootTrigger: "a", recycleTrigger: 1 });
    expect(liveInstancesOf(h)[0]).toMatchObject({ reboots: 0, recycles: 0 });
    const rebooted = await instance.update(id, outs, await checked({ ...args, rebootTrigger: "b", recycleTrigger: 1 }));
    expect(liveInstancesOf(h)[0]).toMatchObject({ reboots: 1, recycles: 0 });
    expect(rebooted.outs).toMatchObject({ actualStatus: "running", rebootTrigger: "b" });
    const recycled = await instance.update(id, rebooted.outs, await checked({ ...args, rebootTrigger: "b", recycleTrigger: { at: 2 } }));
    expect(liveInstancesOf(h)[0]).toMatchObject({ reboots: 1, recycles: 1 });
    const news = await checked(args);
    expect(await instance.diff(id, recycled.outs, news)).toMatchObject({ changes: true, replaces: [] });
    await instance.update(id, recycled.outs, news);
    expect(liveInstancesOf(h)[0]).toMatchObject({ reboots: 1, recycles: 1, machine_id: MACHINE });
  });

  it("prepays on create and again when prepayAmount changes; the balance is read back", async () => {
    const { id, outs } = await createChecked({ ...args, prepayAmount: 100 });
    expect(outs).toMatchObject({ prepayAmount: 100 });
    expect(liveInstancesOf(h)[0]).toMatchObject({ prepaid: 100 });
    fresh();
    expect((await instance.read(id, outs)).props).toMatchObject({ prepaidBalance: 100 });
    const { outs: after } = await instance.update(id, outs, await checked({ ...args, prepayAmount: 50 }));
    expect(after).toMatchObject({ prepaidBalance: 150 });
    expect(await bodiesTo(/prepay/)).toEqual([{ amount: 100 }, { amount: 50 }]);
  });

  it("a prepayment whose answer is lost is not sent again: the balance shows it was paid", async () => {
    const { id, outs } = await createChecked(args);
    await h.fault({ method: "PUT", path: "/api/v0/instances/prepay/*", drop: "after", times: 1 });
    const { outs: after } = await instance.update(id, outs, await checked({ ...args, prepayAmount: 20 }));
    expect(after).toMatchObject({ prepaidBalance: 20 });
    expect(await bodiesTo(/prepay/)).toEqual([{ amount: 20 }]);
  });

  it("a prepayment lost before it landed fails the update, saying to run again", async () => {
    const { id, outs } = await createChecked(args);
    await h.fault({ method: "PUT", path: "/api/v0/instances/prepay/*", drop: "before", times: 1 });
    const error = await rejection(instance.update(id, outs, await checked({ ...args, prepayAmount: 20 })));
    expect(error.message).toMatch(new RegExp(`^Instance ${id}: the answer to prepaying 20 \\$ was lost and the balance shows no payment \\(0 \\$ before, 0 \\$ now\\); run again to pay`));
    expect(liveInstancesOf(h)[0]).toMatchObject({ prepaid: 0 });
  });
});

describe("outputs without a lookup", () => {
  it("image, env names (never values, not the marker), published ports, template in use, disk", async () => {
    const { outs } = await createChecked({ ...args, env: { TOKEN: "s3cret-value", MODE: "x" }, ports: ["8000:8000"], diskGb: 20 });
    expect(outs).toMatchObject({
      imageInUse: "pytorch/pytorch:latest",
      envNames: ["MODE", "TOKEN"],
      templateHashIdInUse: null,
      diskSpaceGb: 20,
      isBid: false,
      outbid: false,
    });
    const ports = outs.portMappings as Record<string, number>;
    expect(Object.keys(ports).sort()).toEqual(["22/tcp", "8000/tcp"]);
    expect(ports["8000/tcp"]).toEqual(expect.any(Number));
    expect(JSON.stringify(outs.envNames)).not.toContain("s3cret-value");
  });
});

it("a bid below the going price on a given offerId is not rented again there: one attempt, kept in state", async () => {
  await h.control("POST", `/machines/${MACHINE}/market`, { price: 1 });
  const error = await rejection(createChecked(spot));
  expect(error.message).toMatch(/^Instance \d+ was created on offer 700001 but it became outbid \(its bid is below the machine's going price\) while booting/);
  expect(error.id).toEqual(expect.any(String));
  expect((await h.requests()).filter((r) => CREATE_PATH.test(r.path))).toHaveLength(1);
  expect(liveInstancesOf(h)).toHaveLength(1);
});

it("with filters, a bid searches the bid market and skips machines asking more than the bid", async () => {
  await h.control("POST", `/machines/${MACHINE}/market`, { price: 1 });
  const { outs } = await createChecked({ offer: { gpuName: "RTX 4090" }, image: "x", bidPricePerHour: 0.5 });
  expect(outs.offerId).toBe(700002);
  const search = (await h.requests()).find((r) => r.path.startsWith("/api/v0/bundles"));
  expect(search?.body).toMatchObject({ type: "bid" });
  expect((await h.requests()).filter((r) => CREATE_PATH.test(r.path)).map((r) => r.path)).toEqual(["/api/v0/asks/700002/"]);
  const error = await rejection(createChecked({ offer: { gpuName: "RTX 4090", numGpus: 1 }, image: "x", bidPricePerHour: 0.5 }));
  expect(error.message).toBe(
    'Instance: every offer matching the offer filters {"gpuName":"RTX 4090","numGpus":1} asks more than bidPricePerHour 0.5 (the lowest min_bid is 1 $/hour); raise bidPricePerHour or widen the filters',
  );
});
