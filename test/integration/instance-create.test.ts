/** Instance creation through the provider against the simulator over HTTP. */
import { PartialFailure } from "../../provider/resources/kit";
import { MARKER_ENV } from "../../provider/resources/instance/inputs";
import { decodeOnstart } from "../../provider/client/wire/onstart";
import {
  CREATE_PATH, ONE_PATH, Props, count, createChecked, instance, liveInstancesOf, rejection,
} from "./instance-support";
import { FAST_INSTANCE_SETTINGS, useSimulator } from "../support/simulator";

const h = useSimulator({ providers: true, settings: FAST_INSTANCE_SETTINGS });

const envOf = (live: Props) => Object.fromEntries(live.extra_env as [string, string][]);

it("creates an instance from an offerId, waits for running and records the outputs", async () => {
  const { id, outs } = await createChecked({ offerId: 700008, image: "pytorch/pytorch", label: "trainer", diskGb: 40 });
  const [live] = liveInstancesOf(h);
  expect(id).toBe(String(live.id));
  expect(outs).toMatchObject({
    offerId: 700008,
    image: "pytorch/pytorch",
    label: "trainer",
    diskGb: 40,
    targetState: "running",
    instanceId: live.id,
    actualStatus: "running",
    intendedStatus: "running",
    sshHost: live.ssh_host,
    sshPort: live.ssh_port,
    publicIp: live.public_ipaddr,
    gpuName: "A100 SXM4",
    numGpus: 1,
    gpuRamGb: 81.9,
    // The offer's 1.10 at the default 8 GB, plus 32 GB more of disk at 0.15 $/GB/month.
    pricePerHour: 1.106667,
    machineId: live.machine_id,
    marker: expect.stringMatching(/^[0-9a-f]{16}$/),
    instanceApiKey: expect.stringMatching(/^[0-9a-f]+$/),
  });
  expect(envOf(live)[MARKER_ENV]).toBe(outs.marker);
  expect(JSON.stringify(outs)).not.toContain("undefined");
});

it("rents the cheapest offer matching the filters", async () => {
  const { outs } = await createChecked({ offer: { gpuName: "RTX 4090", gpuRamGb: 24 }, image: "x" });
  expect(outs).toMatchObject({ offerId: 700001, pricePerHour: 0.32, gpuName: "RTX 4090" });
  const search = (await h.requests()).find((r) => r.path.startsWith("/api/v0/bundles"));
  expect(search?.body).toMatchObject({ gpu_name: { eq: "RTX 4090" }, gpu_ram: { gte: 24000 }, order: [["dph_total", "asc"]] });
});

it("instances created at once from the same filters in one process rent different offers, none refused", async () => {
  // RTX 4090 offers by price: 700001, 700002, 700003, 700004. Each create claims its offer first (kit/claims.ts).
  const made = await Promise.all([0, 1, 2].map(() => createChecked({ offer: { gpuName: "RTX 4090" }, image: "x" })));
  expect(made.map((m) => m.outs.offerId).sort()).toEqual([700001, 700002, 700003]);
  const creates = (await h.requests()).filter((r) => r.method === "PUT" && CREATE_PATH.test(r.path));
  expect(creates.map((r) => r.status)).toEqual([200, 200, 200]);
  // A deleted instance's offer is free again for the next create of the process.
  const first = made.find((m) => m.outs.offerId === 700001)!;
  await instance.delete(first.id, first.outs);
  expect((await createChecked({ offer: { gpuName: "RTX 4090" }, image: "x" })).outs.offerId).toBe(700001);
});

it("more creates at once than the 10 matches one create tries all land, each on an offer of its own", async () => {
  // 21 verified offers in the catalogue match no filters; 14 creates from them start together.
  const made = await Promise.all(Array.from({ length: 14 }, () => createChecked({ offer: {}, image: "x" })));
  expect(new Set(made.map((m) => m.outs.offerId)).size).toBe(14);
  expect((await h.requests()).filter((r) => r.method === "PUT" && CREATE_PATH.test(r.path)).map((r) => r.status)).toEqual(Array(14).fill(200));
});

it("tries the next match when the cheapest offer is gone (404) or cannot start (410)", async () => {
  // Verified offers only by default (the vendor client's filters): 700001, 700002, 700003 ... by price.
  await h.fault({ method: "PUT", path: "/api/v0/asks/700001", status: 404, body: { success: false, error: "no_such_ask", msg: "No ask by id 700001 is available." } });
  await h.fault({ method: "PUT", path: "/api/v0/asks/700002", status: 410, body: { success: false, error: "no_such_ask", msg: "No ask by id 700002 is available." } });
  const { outs } = await createChecked({ offer: { gpuName: "RTX 4090" }, image: "x" });
  expect(outs.offerId).toBe(700003);
  const tried = (await h.requests()).filter((r) => CREATE_PATH.test(r.path)).map((r) => r.path);
  expect(tried).toEqual(["/api/v0/asks/700001/", "/api/v0/asks/700002/", "/api/v0/asks/700003/"]);
  expect(liveInstancesOf(h)).toHaveLength(1);
});

it("fails clearly when a given offerId is gone, creating nothing", async () => {
  await h.control("POST", "/offers/700003", { state: "gone" });
  const error = await rejection(createChecked({ offerId: 700003, image: "x" }));
  expect(error.message).toMatch(/^Instance: offerId 700003 cannot be rented \(PUT \/api\/v0\/asks\/700003\/ failed: HTTP 404 no_such_ask/);
  expect(liveInstancesOf(h)).toHaveLength(0);
});

it("fails clearly when a given offerId exists but cannot start now (410 with cancelUnavailable)", async () => {
  await h.control("POST", "/offers/700004", { state: "unavailable" });
  const error = await rejection(createChecked({ offerId: 700004, image: "x", cancelUnavailable: true }));
  expect(error.message).toMatch(/^Instance: offerId 700004 cannot be rented \(PUT \/api\/v0\/asks\/700004\/ failed: HTTP 410 no_such_ask/);
  expect(liveInstancesOf(h)).toHaveLength(0);
});

it("fails clearly when no offer matches the filters", async () => {
  const error = await rejection(createChecked({ offer: { gpuName: "RTX 4090", maxPricePerHour: 0.01 }, image: "x" }));
  expect(error.message).toMatch(/^Instance: no offer matches the offer filters \{"gpuName":"RTX 4090","maxPricePerHour":0.01\}/);
});

it("destroys an instance that exits while booting and creates it again", async () => {
  await h.control("POST", "/next-boot", { actual_status: "exited", times: 1 });
  const { id, outs } = await createChecked({ offerId: 700001, image: "x" });
  const live = liveInstancesOf(h);
  expect(live.map((i) => String(i.id))).toEqual([id]);
  expect(outs.actualStatus).toBe("running");
  const requests = await h.requests();
  expect(count(requests, "PUT", CREATE_PATH)).toBe(2);
  expect(count(requests, "DELETE", ONE_PATH)).toBe(1);
});

it("moves to the next matching offer after a failed boot when filters are used", async () => {
  await h.control("POST", "/next-boot", { actual_status: "offline", times: 1 });
  const { outs } = await createChecked({ offer: { gpuName: "RTX 4090" }, image: "x" });
  expect(outs.offerId).toBe(700002);
  expect(liveInstancesOf(h)).toHaveLength(1);
});

it("reports a partial failure with the id when every boot fails, keeping only the last instance", async () => {
  await h.control("POST", "/next-boot", { actual_status: "unknown", times: 5 });
  const error = await rejection(createChecked({ offerId: 700001, image: "x", maxCreateAttempts: 2 }));
  expect(error).toBeInstanceOf(PartialFailure);
  const live = liveInstancesOf(h);
  expect(live).toHaveLength(1);
  expect(error.id).toBe(String(live[0].id));
  expect(error.message).toMatch(new RegExp(`^Instance ${live[0].id} was created on offer 700001 but it became unknown while booting`));
  expect(error.message).toMatch(/Attempts: instance \d+ on offer 700001: it became unknown .*; instance \d+ on offer 700001/);
  expect(error.properties).toMatchObject({ __provider: "test-provider", instanceId: live[0].id, actualStatus: "unknown", offerId: 700001 });
  expect(count(await h.requests(), "DELETE", ONE_PATH)).toBe(1);
});

it("creates a stopped instance without waiting for it to run", async () => {
  const { outs } = await createChecked({ offerId: 700001, image: "x", targetState: "stopped" });
  expect(outs).toMatchObject({ targetState: "stopped", intendedStatus: "stopped", actualStatus: "stopped" });
  expect(count(await h.requests(), "GET", ONE_PATH)).toBe(1);
});

it("sends a long onstart script encoded, and the instance holds the script", async () => {
  const script = Array.from({ length: 400 }, (_, i) => `echo "preparing shard ${i}" >> /var/log/prep.log`).join("\n");
  const { outs } = await createChecked({ offerId: 700001, image: "x", onstart: script });
  const [live] = liveInstancesOf(h);
  expect((live.onstart as string).length).toBeLessThanOrEqual(4048);
  expect(decodeOnstart(live.onstart as string)).toBe(script);
  expect(outs.onstart).toBe(script);
});

it("creates from a template by hash id, with env and ports merged over the template's", async () => {
  const template = h.sim.state().templates.find((t) => typeof t.env === "string" && (t.env as string).includes("MODEL="))!;
  const { outs } = await createChecked({
    // Volume offer 900005 is disk on the machine of GPU offer 700011: a new volume is made there.
    offerId: 700011,
    templateHashId: template.hash_id,
    env: { MODEL: "mine", EXTRA: "1" },
    ports: ["9000:9000"],
    volume: { createNew: true, volumeId: 900005, size: 20, mountPath: "/data" },
  });
  const [live] = liveInstancesOf(h);
  expect(live.template_hash_id).toBe(template.hash_id);
  expect(envOf(live)).toMatchObject({ MODEL: "mine", EXTRA: "1", "-p 8000:8000": "1", "-p 9000:9000": "1" });
  expect(live.volume_info).toEqual({ create_new: true, volume_id: 900005, size: 20, mount_path: "/data" });
  expect(h.sim.state().volumes).toEqual([expect.objectContaining({ disk_space: 20, instances: [expect.objectContaining({ id: live.id })] })]);
  const body = (await h.requests()).find((r) => CREATE_PATH.test(r.path))!.body as Props;
  expect(body).not.toHaveProperty("template_id");
  expect(outs.templateHashId).toBe(template.hash_id);
});

it("prices offers with the instance's own disk, so maxPricePerHour is judged on what it will cost", async () => {
  const filters = { gpuName: "RTX 4090", gpuRamGb: 24 };
  const query = { filters: { gpuName: "RTX 4090", gpuRamGb: { gte: 24 } } };
  const small = await h.client.offers.search({ ...query, allocatedStorageGb: 8 });
  const big = await h.client.offers.search({ ...query, allocatedStorageGb: 100 });
  const cheapest = (offers: typeof small) => Math.min(...offers.map((o) => o.dphTotal ?? Infinity));
  // A limit between the two totals: met with a small disk, missed with a big one.
  const limit = (cheapest(small) + cheapest(big)) / 2;
  expect(cheapest(big)).toBeGreaterThan(cheapest(small));
  await h.clearRequests();
  const error = await rejection(createChecked({ offer: { ...filters, maxPricePerHour: limit }, image: "x", diskGb: 100 }));
  expect(error.message).toMatch(/no offer matches the offer filters/);
  const search = (await h.requests()).find((r) => r.method === "POST" && /\/api\/v0\/bundles\/?$/.test(r.path));
  expect((search?.body as Props).allocated_storage).toBe(100);
  const { outs } = await createChecked({ offer: { ...filters, maxPricePerHour: limit }, image: "x", diskGb: 8 });
  expect(outs.pricePerHour).toBeLessThanOrEqual(limit);
});

it("surfaces a 429 that outlasts the retries as one error, wrapped once, naming the setting to change", async () => {
  await h.control("POST", "/faults", { method: "PUT", path: "/api/v0/asks/*", status: 429, body: "API requests too frequent", times: 50 });
  const error = await rejection(createChecked({ offerId: 700008, image: "x" }));
  expect(error.message).toMatch(/^Instance: renting offer 700008 failed: PUT \/api\/v0\/asks\/700008\/ failed: HTTP 429/);
  expect(error.message).toMatch(/vastai:rateLimitScale/);
  expect(error.message).not.toMatch(/pacing interval/);
  // One wrapper with the resource's context around the client's own error, no more.
  expect((error.cause as Error).constructor.name).toBe("RateLimitError");
  expect(liveInstancesOf(h)).toHaveLength(0);
});
