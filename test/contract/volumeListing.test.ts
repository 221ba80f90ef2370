/**
 * Issue 27 item 4 (second sentence): VolumeListing and NetworkVolumeListing through Pulumi's own
 * dynamic-provider plugin, from the package as a user installs it, against the simulator:
 * check -> create -> read (drift) -> update -> adopt (importId) -> delete, with the volume
 * offer search and the request log looked at.
 */
import { SEED } from "pulumi-vastai/simulator";
import { PluginCallError, dynamicUrn } from "pulumi-vastai/testing";
import { testSmallLoader, useContract } from "./harness";

type Props = Record<string, unknown>;
const fx = useContract("volumeListing", { config: { "vastai:liveCacheTtlMs": "0" } });
const urn = (name: string) => dynamicUrn("dev", "proj", "VolumeListing", name);
const netUrn = (name: string) => dynamicUrn("dev", "proj", "NetworkVolumeListing", name);
const [M1, , M3] = SEED.hostedMachineIds;
const [DISK] = SEED.hostNetworkDisks;

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; body: Props }> {
  const res = await fetch(`${fx.sim.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${fx.sim.apiKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Props };
}

/** The volume offers of one kind as a renter's search shows them (no default filters). */
async function offers(kind: "volumes" | "network_volumes"): Promise<Props[]> {
  return (await api("POST", `/api/v0/${kind}/search/`, { order: [["id", "asc"]] })).body.offers as Props[];
}

/** The service calls (method and path) since the log was last taken, without reads and searches. */
async function writes(): Promise<string[]> {
  return (await fx.takeRequests()).filter((r) => r.method !== "GET" && !r.path.includes("/search")).map((r) => `${r.method} ${r.path.replace(/\/$/, "")}`);
}

testSmallLoader("volumeListing", "VolumeListing");

test("27.4 a volume listing is created, shows in the offer search, shows drift on refresh, updates in place and unlists on delete", async () => {
  const end = Math.floor(Date.now() / 1000) + 45 * 24 * 3600;
  const news = { __provider: fx.provider, machineId: M1, sizeGb: 400, pricePerGbMonth: 0.06, endDate: end };
  const checked = await fx.plugin.check(urn("l"), {}, news);
  expect(checked.failures).toEqual([]);
  await fx.takeRequests();
  const created = await fx.plugin.create(urn("l"), checked.inputs);
  expect(created.id).toBe(String(M1));
  expect(await writes()).toEqual(["POST /api/v0/volumes"]);
  const listingId = created.properties.listingId as number;
  expect(created.properties).toMatchObject({ listed: true, freeGb: 400, hostId: SEED.user.id });
  expect(await offers("volumes")).toContainEqual(expect.objectContaining({ id: listingId, machine_id: M1, disk_space: 400, storage_cost: 0.06 }));

  // refresh: nothing drifted
  const read = await fx.plugin.read(urn("l"), created.id, created.properties, checked.inputs);
  expect(await fx.plugin.diff(urn("l"), created.id, read.properties, checked.inputs)).toMatchObject({ changes: "none" });

  // the price changed outside Pulumi: refresh shows it, and the program's price is a change in place
  expect((await api("POST", "/api/v0/volumes/", { machine: M1, size: 400, price_disk: 0.2, end_date: end })).status).toBe(200);
  const drifted = await fx.plugin.read(urn("l"), created.id, read.properties, checked.inputs);
  expect(drifted.inputs).toMatchObject({ pricePerGbMonth: 0.2 });
  expect(await fx.plugin.diff(urn("l"), created.id, drifted.properties, checked.inputs)).toMatchObject({ changes: "some", replaces: [] });
  await fx.takeRequests();
  const updated = await fx.plugin.update(urn("l"), created.id, drifted.properties, checked.inputs);
  expect(await writes()).toEqual(["POST /api/v0/volumes"]);
  expect(await offers("volumes")).toContainEqual(expect.objectContaining({ id: listingId, storage_cost: 0.06 }));

  // another machine replaces the listing
  expect(await fx.plugin.diff(urn("l"), created.id, updated.properties, { ...checked.inputs, machineId: M3 })).toMatchObject({ replaces: ["machineId"] });

  // delete unlists it; a read then finds nothing, and a second delete has nothing to do
  await fx.plugin.delete(urn("l"), created.id, updated.properties);
  expect(await writes()).toEqual(["POST /api/v0/volumes/unlist"]);
  expect((await offers("volumes")).map((o) => o.id)).not.toContain(listingId);
  expect((await fx.plugin.read(urn("l"), created.id, updated.properties)).id).toBe("");
  // a second delete sends the recorded listing id once more: the service's "does not exist" counts as gone
  await fx.plugin.delete(urn("l"), created.id, updated.properties);
  expect(await writes()).toEqual(["POST /api/v0/volumes/unlist"]);
}, 120_000);

test("27.4 a machine with a volume listing made elsewhere is not taken over without importId; with it the declared terms replace the listed ones", async () => {
  const listed = await api("POST", "/api/v0/volumes/", { machine: M3, size: 80, price_disk: 0.3 });
  expect(listed.status).toBe(200);
  const news = { __provider: fx.provider, machineId: M3, sizeGb: 80, pricePerGbMonth: 0.1 };
  await fx.takeRequests();
  const refused = await fx.plugin.create(urn("a"), news).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(PluginCallError);
  expect(String((refused as Error).message)).toMatch(/machine \d+ already has a volume listing \(\d+, at \$0.3\/GB\/month\), not made by this resource\. Nothing was changed/);
  expect(String((refused as Error).message)).toContain(`importId: "${M3}"`);
  expect(await writes()).toEqual([]);

  const adopted = await fx.plugin.create(urn("a"), { ...news, importId: String(M3) });
  expect(adopted.properties).toMatchObject({ imported: true, pricePerGbMonth: 0.1 });
  expect(await offers("volumes")).toContainEqual(expect.objectContaining({ machine_id: M3, storage_cost: 0.1 }));
  await fx.plugin.delete(urn("a"), adopted.id, adopted.properties);
  expect((await offers("volumes")).some((o) => o.machine_id === M3)).toBe(false);
}, 60_000);

test("27.4 a network volume listing is created on a network disk, shows in the network volume search, and unlists on delete", async () => {
  const news = { __provider: fx.serialized.networkVolumeListing, diskId: DISK.id, sizeGb: 1500, pricePerGbMonth: 0.13 };
  const checked = await fx.plugin.check(netUrn("n"), {}, news);
  expect(checked.failures).toEqual([]);
  await fx.takeRequests();
  const created = await fx.plugin.create(netUrn("n"), checked.inputs);
  expect(created.id).toBe(String(DISK.id));
  expect(await writes()).toEqual(["POST /api/v0/network_volumes"]);
  expect(created.properties).toMatchObject({ listed: true, clusterId: DISK.clusterId, freeGb: 1500 });
  const id = created.properties.listingId;
  expect(await offers("network_volumes")).toContainEqual(expect.objectContaining({ id, cluster_id: DISK.clusterId, storage_cost: 0.13 }));
  await fx.plugin.delete(netUrn("n"), created.id, created.properties);
  expect(await writes()).toEqual(["POST /api/v0/network_volumes/unlist"]);
  expect((await offers("network_volumes")).map((o) => o.id)).not.toContain(id);
}, 60_000);

test("27.4 bad terms fail check naming field, rule and value; a machine this account does not host is refused before anything is sent", async () => {
  const bad = await fx.plugin.check(urn("b"), {}, { __provider: fx.provider, machineId: M1, sizeGb: 0.5, pricePerGbMonth: -1, endDate: "2001-01-01T00:00:00Z" });
  const reasons = bad.failures.map((f) => f.reason).join("\n");
  expect(reasons).toMatch(/sizeGb: must be a whole number of GB/);
  expect(reasons).toMatch(/pricePerGbMonth: must not be negative/);
  expect(reasons).toMatch(/endDate: must be in the future \(got 2001-01-01T00:00:00.000Z/);
  await fx.takeRequests();
  const foreign = await fx.plugin.create(urn("f"), { __provider: fx.provider, machineId: SEED.foreignMachineId, sizeGb: 10, pricePerGbMonth: 0.1 }).catch((e: unknown) => e);
  expect(String((foreign as Error).message)).toContain(`machineId ${SEED.foreignMachineId} is not a machine this account hosts`);
  expect(await writes()).toEqual([]);
}, 60_000);
