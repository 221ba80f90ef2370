/**
 * Issue 27 item 4: MachineListing through Pulumi's own dynamic-provider plugin, from the package
 * as a user installs it, against the simulator: check -> create -> read (drift) -> update ->
 * adopt (importId) -> delete, with the simulator's machine records and request log looked at.
 */
import { SEED } from "pulumi-vastai/simulator";
import { PluginCallError, dynamicUrn } from "pulumi-vastai/testing";
import { testSmallLoader, useContract } from "./harness";

type Props = Record<string, unknown>;
// Each step stands for a new Pulumi operation (a new plugin process): no listing outlives a step.
const fx = useContract("machineListing", { config: { "vastai:liveCacheTtlMs": "0" } });
const urn = (name: string) => dynamicUrn("dev", "proj", "MachineListing", name);
const [M1, M2] = SEED.hostedMachineIds;

/** The machine record as the service shows it to its host. */
async function machine(id: number): Promise<Props> {
  const res = await fetch(`${fx.sim.url}/api/v0/machines/${id}/?owner=me`, { headers: { authorization: `Bearer ${fx.sim.apiKey}` } });
  return ((await res.json()) as Props[])[0];
}

/** The service calls (method and path) since the log was last taken, without reads. */
async function writes(): Promise<string[]> {
  return (await fx.takeRequests()).filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path.replace(/\/$/, "")}`);
}

testSmallLoader("machineListing", "MachineListing");

test("27.4 a listing is created, shows drift on refresh, updates in place (the min bid alone by itself) and unlists only its machine on delete", async () => {
  const end = Math.floor(Date.now() / 1000) + 30 * 24 * 3600;
  const news = { __provider: fx.provider, machineId: M1, pricePerGpu: 0.45, minBidPerGpu: 0.25, storagePricePerGbMonth: 0.12, minGpus: 1, endDate: new Date(end * 1000).toISOString() };
  const checked = await fx.plugin.check(urn("l"), {}, news);
  expect(checked.failures).toEqual([]);
  await fx.takeRequests();
  const created = await fx.plugin.create(urn("l"), checked.inputs);
  expect(created.id).toBe(String(M1));
  expect(await writes()).toEqual(["PUT /api/v0/machines/create_asks"]);
  expect(await machine(M1)).toMatchObject({ listed_gpu_cost: 0.45, min_bid_price: 0.25, listed_storage_cost: 0.12, end_date: end });
  expect(created.properties).toMatchObject({ listed: true, endDateUnix: end, numGpus: expect.any(Number) });

  // refresh: nothing drifted
  const read = await fx.plugin.read(urn("l"), created.id, created.properties, checked.inputs);
  expect(await fx.plugin.diff(urn("l"), created.id, read.properties, checked.inputs)).toMatchObject({ changes: "none" });

  // the price changed outside Pulumi: refresh shows it, and the program's price is a change in place
  const put = await fetch(`${fx.sim.url}/api/v0/machines/create_asks/`, {
    method: "PUT",
    headers: { authorization: `Bearer ${fx.sim.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ machine: M1, price_gpu: 0.9 }),
  });
  expect(put.status).toBe(200);
  const drifted = await fx.plugin.read(urn("l"), created.id, read.properties, checked.inputs);
  expect(drifted.inputs).toMatchObject({ pricePerGpu: 0.9 });
  expect(await fx.plugin.diff(urn("l"), created.id, drifted.properties, checked.inputs)).toMatchObject({ changes: "some", replaces: [] });
  await fx.takeRequests();
  await fx.plugin.update(urn("l"), created.id, drifted.properties, checked.inputs);
  expect(await writes()).toEqual(["PUT /api/v0/machines/create_asks"]);
  expect(await machine(M1)).toMatchObject({ listed_gpu_cost: 0.45 });

  // only the minimum bid: PUT minbid, no new asks (which would re-send every price)
  const lower = { ...checked.inputs, minBidPerGpu: 0.2 };
  const updated = await fx.plugin.update(urn("l"), created.id, { ...drifted.properties, pricePerGpu: 0.45 }, lower);
  expect(await writes()).toEqual([`PUT /api/v0/machines/${M1}/minbid`]);
  expect(await machine(M1)).toMatchObject({ min_bid_price: 0.2, listed_gpu_cost: 0.45 });

  // delete unlists this machine only; a second delete and a read find nothing to do
  await fx.plugin.create(urn("other"), { ...lower, machineId: M2 });
  await fx.takeRequests();
  await fx.plugin.delete(urn("l"), created.id, updated.properties);
  expect(await writes()).toEqual([`DELETE /api/v0/machines/${M1}/asks`]);
  expect(await machine(M1)).toMatchObject({ listed_gpu_cost: null });
  expect(await machine(M2)).toMatchObject({ listed_gpu_cost: 0.45 });
  expect((await fx.plugin.read(urn("l"), created.id, updated.properties)).id).toBe("");
  await fx.plugin.delete(urn("other"), String(M2), { ...lower, machineId: M2 });
}, 120_000);

test("27.4 a machine listed elsewhere is not taken over without importId; with it the declared terms replace the listed ones", async () => {
  const machineId = SEED.hostedMachineIds[2];
  await fetch(`${fx.sim.url}/api/v0/machines/create_asks/`, {
    method: "PUT",
    headers: { authorization: `Bearer ${fx.sim.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ machine: machineId, price_gpu: 0.7 }),
  });
  const news = { __provider: fx.provider, machineId, pricePerGpu: 0.5 };
  await fx.takeRequests();
  const refused = await fx.plugin.create(urn("a"), news).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(PluginCallError);
  expect(String((refused as Error).message)).toContain(`machine ${machineId} is already listed (at $0.7/GPU/hour), not by this resource. Nothing was changed`);
  expect(String((refused as Error).message)).toContain(`importId: "${machineId}"`);
  expect(await writes()).toEqual([]);
  expect(await machine(machineId)).toMatchObject({ listed_gpu_cost: 0.7 });

  const adopted = await fx.plugin.create(urn("a"), { ...news, importId: String(machineId) });
  expect(adopted.properties).toMatchObject({ imported: true, pricePerGpu: 0.5 });
  expect(await machine(machineId)).toMatchObject({ listed_gpu_cost: 0.5 });
  await fx.plugin.delete(urn("a"), adopted.id, adopted.properties);
  expect(await machine(machineId)).toMatchObject({ listed_gpu_cost: null });
}, 60_000);

test("27.4 a machine this account does not host is refused with its id, and bad terms fail check naming field, rule and value", async () => {
  const foreign = await fx.plugin.create(urn("f"), { __provider: fx.provider, machineId: 999_999_999, pricePerGpu: 0.5 }).catch((e: unknown) => e);
  expect(String((foreign as Error).message)).toContain("machineId 999999999 is not a machine this account hosts");
  const bad = await fx.plugin.check(urn("b"), {}, { __provider: fx.provider, machineId: M1, pricePerGpu: -1, discountRate: 40, endDate: "2001-01-01T00:00:00Z" });
  const reasons = bad.failures.map((f) => f.reason).join("\n");
  expect(reasons).toMatch(/pricePerGpu.*must not be negative/);
  expect(reasons).toMatch(/discountRate.*from 0 to 1/);
  expect(reasons).toMatch(/endDate: must be in the future \(got 2001-01-01T00:00:00.000Z/);
}, 60_000);

/** A listing made by hand, as the vendor's client makes it (every key; unset ones null). */
async function listByHand(machineId: number, priceGpu: number): Promise<void> {
  const keys = ["price_disk", "price_inetu", "price_inetd", "price_min_bid", "min_chunk", "end_date", "credit_discount_max", "duration", "vol_size", "vol_price"];
  const res = await fetch(`${fx.sim.url}/api/v0/machines/create_asks/`, {
    method: "PUT",
    headers: { authorization: `Bearer ${fx.sim.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ machine: machineId, price_gpu: priceGpu, ...Object.fromEntries(keys.map((k) => [k, null])) }),
  });
  expect(res.status).toBe(200);
}

const listingOf = (machineId: number) => fx.sim.state().machineListings?.find((l) => l.machine_id === machineId);

test("33.7 listing state from the machine record as the service shows it (no invented listed flag): a hand-made listing is refused, an unlisting done outside is seen", async () => {
  const machineId = SEED.hostedMachineIds[3];
  // The record carries only what the vendor's client shows of a listing: no `listed` flag.
  const before = await machine(machineId);
  expect(before).not.toHaveProperty("listed");
  expect(before).toMatchObject({ listed_gpu_cost: null, min_bid_price: null });

  await listByHand(machineId, 0.7);
  const shown = await machine(machineId);
  expect(shown).not.toHaveProperty("listed");
  expect(shown).toMatchObject({ listed_gpu_cost: 0.7 });
  const news = { __provider: fx.provider, machineId, pricePerGpu: 0.5 };
  const refused = await fx.plugin.create(urn("h"), news).catch((e: unknown) => e);
  expect(String((refused as Error).message)).toContain(`machine ${machineId} is already listed (at $0.7/GPU/hour), not by this resource`);

  // Taken over with importId, then unlisted outside Pulumi: the refresh sees the listing gone.
  const adopted = await fx.plugin.create(urn("h"), { ...news, importId: String(machineId) });
  const unlist = await fetch(`${fx.sim.url}/api/v0/machines/${machineId}/asks/`, { method: "DELETE", headers: { authorization: `Bearer ${fx.sim.apiKey}` } });
  expect(unlist.status).toBe(200);
  expect(await machine(machineId)).toMatchObject({ listed_gpu_cost: null });
  expect((await fx.plugin.read(urn("h"), adopted.id, adopted.properties)).id).toBe("");
}, 60_000);

test("33.7 a listing sends vol_size, vol_price and duration as the vendor's client does: no volume offer unless declared (the service offers half the disk when vol_size is left out)", async () => {
  const machineId = SEED.hostedMachineIds[4];
  const checked = await fx.plugin.check(urn("v"), {}, { __provider: fx.provider, machineId, pricePerGpu: 0.5 });
  expect(checked.failures).toEqual([]);
  await fx.takeRequests();
  const made = await fx.plugin.create(urn("v"), checked.inputs);
  const sent = (await fx.takeRequests()).filter((r) => r.method === "PUT" && r.path.startsWith("/api/v0/machines/create_asks"));
  expect(sent).toHaveLength(1);
  expect(sent[0].body).toMatchObject({ machine: machineId, price_gpu: 0.5, vol_size: 0, vol_price: null, duration: null });
  expect(listingOf(machineId)).toMatchObject({ vol_size: 0, vol_price: null });

  // A declared volume offer and duration: sent as declared.
  const news = { ...checked.inputs, volumeSizeGb: 100, volumePricePerGbMonth: 0.05, duration: "3 months" };
  expect((await fx.plugin.check(urn("v"), made.properties, news)).failures).toEqual([]);
  await fx.plugin.update(urn("v"), made.id, made.properties, news);
  const resent = (await fx.takeRequests()).filter((r) => r.method === "PUT" && r.path.startsWith("/api/v0/machines/create_asks"));
  expect(resent[0].body).toMatchObject({ vol_size: 100, vol_price: 0.05, duration: "3 months" });
  expect(listingOf(machineId)).toMatchObject({ vol_size: 100, vol_price: 0.05, duration: "3 months" });
  await fx.plugin.delete(urn("v"), made.id, news);

  // Rules of the service: no volume price without a volume, no duration with an end date.
  const bad = await fx.plugin.check(urn("b2"), {}, { __provider: fx.provider, machineId, pricePerGpu: 0.5, volumePricePerGbMonth: 0.05, duration: "2 weeks", endDate: "2031-01-01T00:00:00Z" });
  expect(bad.failures.map((f) => f.property).sort()).toEqual(["duration", "volumePricePerGbMonth"]);
}, 60_000);
