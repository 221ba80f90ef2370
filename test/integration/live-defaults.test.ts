/**
 * Issue 26: what this package sends where the service would otherwise fill in its own default,
 * checked against the simulator (which applies the service's documented defaults) over HTTP.
 */
import { providers } from "../../provider/providers";
import { resetClaims } from "../../provider/resources/fleet/claims";
import { drive } from "./account-resources-support";
import { FAST_INSTANCE_SETTINGS, useSimulator } from "../support/simulator";
import { createChecked, instance, rejection } from "./instance-support";
import { sshCommands } from "../../provider/client";

type Props = Record<string, unknown>;

const h = useSimulator({ providers: true, settings: { ...FAST_INSTANCE_SETTINGS, liveCacheTtlMs: 0 } });
const endpoint = drive(providers.endpoint);
const workerGroup = drive(providers.workerGroup);
const fleet = drive(providers.fleet);
beforeEach(() => resetClaims());

async function made(p: typeof endpoint, props: Props) {
  const res = await p.check({}, { __provider: "p", ...props });
  expect(res.failures).toEqual([]);
  const { id, outs } = await p.create(res.inputs as Props);
  return { inputs: res.inputs as Props, id, outs: outs as Props };
}

const bodiesTo = async (method: string, pattern: RegExp) =>
  (await h.requests()).filter((r) => r.method === method && pattern.test(r.path)).map((r) => r.body as Props);
const SEARCH = /^\/api\/v0\/bundles\/?$/;

describe("26.2 the whole offer vocabulary", () => {
  it("26.2 searchOffers takes every vocabulary field with its unit (GB sent as MB) and refuses unknown fields and wrong units", async () => {
    await h.clearRequests();
    const found = await h.client.offers.search({
      filters: { cpuRamGb: { gte: 64 }, cpuCores: { gte: 16 }, computeCap: { gte: 800 }, datacenter: true, machineId: { notin: [30001] }, hostingType: 1 },
      order: [["dlperfPerDphtotal", "desc"]],
    });
    const [body] = await bodiesTo("POST", SEARCH);
    expect(body).toMatchObject({ cpu_ram: { gte: 64000 }, cpu_cores: { gte: 16 }, compute_cap: { gte: 800 }, datacenter: { eq: true }, machine_id: { notin: [30001] }, hosting_type: { eq: 1 }, order: [["dlperf_per_dphtotal", "desc"]] });
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((o) => (o.raw.compute_cap as number) >= 800 && o.raw.datacenter === true && o.machineId !== 30001)).toBe(true);
    await expect(h.client.offers.search({ filters: { gpuRamGb: { gte: 24000 } } })).rejects.toThrow(/gpuRamGb: must be at most 1000 \(GB per GPU\), got 24000/);
    await expect(h.client.offers.search({ filters: { cpuRam: 1 } as never })).rejects.toThrow(/"cpuRam" is not an offer field/);
    await expect(h.client.offers.search({ filters: { computeCap: 8.9 } })).rejects.toThrow(/computeCap: must be a whole number \(CUDA compute capability x 100/);
  });

  it("26.2 Instance offer filters take the vocabulary; check names the field, the rule and the value", async () => {
    const { outs } = await createChecked({ offer: { gpuName: "RTX 4090", cpuCores: { gte: 32 }, inetDown: { gte: 1000 } }, image: "x" });
    expect(outs.offerId).toBe(700002);
    const { failures } = await instance.check({}, { __provider: "p", offer: { diskBw: "fast" }, image: "x" });
    expect(JSON.stringify(failures)).toMatch(/offer.diskBw.*must be a number \(MB\/s\), got \\"fast\\"/);
  });

  it("26.2 with ports (or readiness) only machines with direct ports are rented: direct_port_count >= one per port", async () => {
    await h.clearRequests();
    const error = await rejection(createChecked({ offer: { gpuName: "RTX 4080", verified: false }, image: "x", ports: ["8000:8000", "9000:9000"] }));
    expect(error.message).toMatch(/no offer matches .*direct ports \(direct_port_count >= 2, one per published port\); set offer.minDirectPorts: 0/);
    expect((await bodiesTo("POST", SEARCH))[0]).toMatchObject({ direct_port_count: { gte: 2 } });
    // Without published ports the machine behind NAT is fine; minDirectPorts: 0 turns the default off.
    expect((await createChecked({ offer: { gpuName: "RTX 4080", verified: false }, image: "x" })).outs.offerId).toBe(700022);
    await h.control("POST", "/reset");
    resetClaims();
    expect((await createChecked({ offer: { gpuName: "RTX 4080", verified: false, minDirectPorts: 0 }, image: "x", ports: ["8000:8000"] })).outs.offerId).toBe(700022);
  });

  it("26.2 a Fleet with ports searches for direct ports too", async () => {
    await h.clearRequests();
    const { inputs } = await fleet.check({}, { __provider: "p", __identity: "proj/dev/Fleet/w", offer: { numGpus: 1, maxPricePerHour: 0.25 }, image: "x", ports: ["8000:8000"], count: 1 });
    const r = await fleet.create(inputs as Props);
    expect(((r.outs as Props).members as Props[]).map((m) => m.offerId)).toEqual([700005]);
    expect((await bodiesTo("POST", SEARCH))[0]).toMatchObject({ direct_port_count: { gte: 1 } });
  });
});

describe("26.3 WorkerGroup searches and scaling fields", () => {
  it("26.3 a group's search gets verified=True rentable=True rented=False (a user term wins) and the scaling fields with our defaults", async () => {
    const ep = await made(endpoint, { name: "wg-defaults" });
    await h.clearRequests();
    const g = await made(workerGroup, { endpointId: ep.id, searchParams: "gpu_ram>=23 verified=False" });
    const [body] = await bodiesTo("POST", /^\/api\/v0\/(workergroups|autojobs)\/?$/);
    expect(body).toMatchObject({ search_params: "gpu_ram>=23 verified=False rentable=True rented=False", min_load: 0, target_util: 0.9, cold_mult: 2.5, test_workers: 3, autoscaler_instance: "prod" });
    // The appended defaults are no drift: a refresh reads back the program's own search.
    const read = await workerGroup.read(g.id, g.outs);
    expect((read.inputs as Props).searchParams).toBe("gpu_ram>=23 verified=False");
    const live = (await h.client.workerGroups.list()).find((x) => String(x.id) === g.id);
    expect(live).toMatchObject({ minLoad: 0, coldMult: 2.5 });
  });

  it("26.3 searchParams also takes typed offer filters, written in the query language with the CLI's units", async () => {
    const ep = await made(endpoint, { name: "wg-typed" });
    await h.clearRequests();
    await made(workerGroup, { endpointId: ep.id, searchParams: { gpuRamGb: { gte: 24 }, gpuName: "RTX 4090", numGpus: 1 } });
    const [body] = await bodiesTo("POST", /^\/api\/v0\/(workergroups|autojobs)\/?$/);
    expect(body.search_params).toBe("gpu_ram>=24 gpu_name=RTX_4090 num_gpus=1 verified=True rentable=True rented=False");
    const { failures } = await workerGroup.check({}, { __provider: "p", endpointId: ep.id, searchParams: { gpuRamGb: { gte: 24000 } } });
    expect(JSON.stringify(failures)).toMatch(/searchParams.*gpuRamGb.*must be at most 1000 \(GB per GPU\), got 24000/);
  });
});

describe("26.4 Endpoint scaling fields", () => {
  it("26.4 a new endpoint is sent every scaling field with an explicit default: min_load 0, not the service's 10", async () => {
    await h.clearRequests();
    const ep = await made(endpoint, { name: "ep-defaults" });
    const [body] = await bodiesTo("POST", /^\/api\/v0\/endptjobs\/?$/);
    expect(body).toEqual({ client_id: "me", autoscaler_instance: "prod", endpoint_name: "ep-defaults", min_load: 0, min_cold_load: 0, target_util: 0.9, cold_mult: 2.5, cold_workers: 5, max_workers: 20, max_queue_time: 30, target_queue_time: 10 });
    const live = (await h.client.endpointGroups.list()).find((e) => String(e.id) === ep.id);
    expect(live?.minLoad).toBe(0);
  });

  it("33.7 endpoint create and update send client_id \"me\" and autoscaler_instance \"prod\", as the vendor's client does", async () => {
    await h.clearRequests();
    const ep = await made(endpoint, { name: "ep-vendor" });
    const [created] = await bodiesTo("POST", /^\/api\/v0\/endptjobs\/?$/);
    expect(created).toMatchObject({ client_id: "me", autoscaler_instance: "prod" });
    const { inputs } = await endpoint.check(ep.inputs, { ...ep.inputs, maxWorkers: 3 });
    await endpoint.update(ep.id, ep.outs, inputs as Props);
    const [updated] = await bodiesTo("PUT", /^\/api\/v0\/endptjobs\/\d+\/?$/);
    expect(updated).toMatchObject({ client_id: "me", autoscaler_instance: "prod", max_workers: 3 });
  });
});

describe("26.5 template edits", () => {
  const template = drive(providers.template);
  it("26.5 an edit of one field sends the whole template, as the vendor's client does", async () => {
    const t = await made(template, { name: "edit-whole", image: "pytorch/pytorch", env: { A: "1" }, onstart: "echo hi", desc: "old" });
    await h.clearRequests();
    const { inputs } = await template.check(t.inputs, { ...t.inputs, desc: "new" });
    await template.update(t.id, t.outs, inputs as Props);
    const [body] = await bodiesTo("PUT", /^\/api\/v0\/template\/?$/);
    expect(body).toMatchObject({ name: "edit-whole", image: "pytorch/pytorch", env: "-e A=1", onstart: "echo hi", desc: "new", runtype: "args", private: true });
    expect(Object.keys(body)).toEqual(expect.arrayContaining(["tag", "readme", "use_ssh", "ssh_direct", "jup_direct", "extra_filters", "recommended_disk_space", "href", "repo"]));
  });
});

describe("26.6 SSH the way users connect", () => {
  const template = drive(providers.template);
  const CREATE = /^\/api\/v0\/asks\/\d+\/?$/;

  it("26.6 a Template with runtype ssh is sent use_ssh true", async () => {
    await h.clearRequests();
    await made(template, { name: "ssh-template", image: "pytorch/pytorch", runtype: "ssh" });
    const [body] = await bodiesTo("POST", /^\/api\/v0\/template\/?$/);
    expect(body).toMatchObject({ runtype: "ssh", use_ssh: true });
  });

  it("26.6 an Instance asks for direct SSH with the vendor's runtype string, which the simulator accepts, and outputs commands to paste", async () => {
    await h.clearRequests();
    const { outs } = await createChecked({ offerId: 700001, image: "x", ssh: { direct: true } });
    expect((await bodiesTo("PUT", CREATE))[0]).toMatchObject({ runtype: "ssh_direc ssh_proxy" });
    const live = h.sim.state().instances[0] as Props;
    expect(outs.sshCommand).toBe(`ssh -p ${String(live.ssh_port)} root@${String(live.ssh_host)}`);
    const port22 = (live.ports as Record<string, { HostPort: string }[]>)["22/tcp"][0].HostPort;
    expect(outs.sshDirectCommand).toBe(`ssh -p ${port22} root@${String(live.public_ipaddr)}`);
  });

  it("26.6 runtype ssh is sent as ssh_proxy and Jupyter as jupyter_proxy ssh_proxy (its gateway port is ssh_port + 1)", async () => {
    await h.clearRequests();
    await createChecked({ offerId: 700001, image: "x", runtype: "ssh" });
    const { outs } = await createChecked({ offerId: 700002, image: "x", jupyter: {} });
    expect((await bodiesTo("PUT", CREATE)).map((b) => b.runtype)).toEqual(["ssh_proxy", "jupyter_proxy ssh_proxy"]);
    const live = (h.sim.state().instances as Props[]).find((i) => i.offer_id === 700002 || i.machine_id === 30002) as Props;
    expect(outs.sshCommand).toBe(`ssh -p ${Number(live.ssh_port) + 1} root@${String(live.ssh_host)}`);
  });

  it("26.6 with no 22/tcp entry the direct command is null and the gateway command still works", () => {
    const instance = { id: 1, sshHost: "ssh5.example", sshPort: 12345, publicIpaddr: "203.0.113.7", ports: { "8000/tcp": [{ HostIp: "0.0.0.0", HostPort: "40000" }] }, raw: { image_runtype: "ssh_direc ssh_proxy" } };
    expect(sshCommands(instance as never)).toEqual({ proxy: "ssh -p 12345 root@ssh5.example", direct: null });
    expect(sshCommands({ ...instance, ports: null } as never).direct).toBeNull();
  });
});

describe("26.7 offers that cannot start now", () => {
  const CREATE = /^\/api\/v0\/asks\/\d+\/?$/;

  it("26.7 cancel_unavail is always sent, false unless asked, as the vendor's client does", async () => {
    await h.clearRequests();
    await createChecked({ offerId: 700001, image: "x" });
    expect((await bodiesTo("PUT", CREATE))[0]).toMatchObject({ cancel_unavail: false });
  });

  it("26.7 the simulator honours cancel_unavail: true (or left to the document's default) answers 410, false queues the start", async () => {
    await h.control("POST", "/offers/700001", { state: "unavailable" });
    await expect(h.client.instances.create(700001, { image: "x", cancelUnavail: true })).rejects.toMatchObject({ status: 410 });
    await expect(h.client.instances.create(700001, { image: "x" })).rejects.toMatchObject({ status: 410 });
    const queued = await h.client.instances.create(700001, { image: "x", cancelUnavail: false });
    expect(queued.success).toBe(false);
    expect(await h.client.instances.get(queued.id)).toMatchObject({ actualStatus: "stopped", intendedStatus: "running" });
  });

  it("26.7 a match that cannot start now is destroyed and the next match rented, without waiting out the boot", async () => {
    await h.control("POST", "/offers/700001", { state: "unavailable" });
    const rows = [
      { id: 700001, machine_id: 30001, dph_total: 0.32, rentable: true, rented: false },
      { id: 700002, machine_id: 30002, dph_total: 0.62, rentable: true, rented: false },
    ];
    await h.fault({ method: "POST", path: "/api/v0/bundles", status: 200, body: { offers: rows }, times: 1 });
    await h.clearRequests();
    const { outs } = await createChecked({ offer: { gpuName: "RTX 4090" }, image: "x" });
    expect(outs.offerId).toBe(700002);
    expect((await h.requests()).filter((r) => r.method === "PUT" && CREATE.test(r.path)).map((r) => r.path)).toEqual(["/api/v0/asks/700001/", "/api/v0/asks/700002/"]);
    expect((h.sim.state().instances as Props[]).map((i) => i.machine_id)).toEqual([30002]);
  });

  it("26.7 with a given offerId that cannot start now the create fails at once, naming the offer; nothing is left", async () => {
    await h.control("POST", "/offers/700001", { state: "unavailable" });
    const error = await rejection(createChecked({ offerId: 700001, image: "x" }));
    expect(error.message).toMatch(/offerId 700001 cannot start now \(the service made instance \d+ with its start queued; it was destroyed\)/);
    expect(h.sim.state().instances).toEqual([]);
  });
});

describe("26.8 boots that cannot succeed", () => {
  const OCI = "OCI runtime create failed: runc create failed: exec: \"/start.sh\": no such file or directory";
  const HOST = "OCI runtime create failed: nvidia-container-cli: initialization error: driver rpc error";

  it("26.8 an Instance stuck in created with an OCI error fails at once with the service's text, destroyed, not retried elsewhere", async () => {
    await h.control("POST", "/next-boot", { actual_status: "created", status_msg: OCI, times: 3 });
    await h.clearRequests();
    const error = await rejection(createChecked({ offer: { gpuName: "RTX 4090" }, image: "x", runningTimeoutMinutes: 600 }));
    expect(error.message).toContain(`it cannot start (the image or its entrypoint): the service says "${OCI}"; it was destroyed`);
    expect((await bodiesTo("PUT", /^\/api\/v0\/asks\/\d+\/?$/)).length).toBe(1);
    expect(h.sim.state().instances).toEqual([]);
  });

  it("26.8 a message about the host moves on to another machine", async () => {
    await h.control("POST", "/next-boot", { actual_status: "created", status_msg: HOST, times: 1 });
    const { outs } = await createChecked({ offer: { gpuName: "RTX 4090" }, image: "x", runningTimeoutMinutes: 600 });
    expect(outs.offerId).toBe(700002);
    expect((h.sim.state().instances as Props[]).map((i) => i.machine_id)).toEqual([30002]);
  });

  it("26.8 Fleet: a host message marks the machine bad; an image message fails fast and marks no host", async () => {
    await h.control("POST", "/next-boot", { actual_status: "created", status_msg: HOST, times: 1 });
    const news = { __provider: "p", __identity: "proj/dev/Fleet/f", offer: { numGpus: 1, gpuRamGb: 24 }, image: "x", count: 1, runningTimeoutMinutes: 600 };
    const good = await fleet.create((await fleet.check({}, news)).inputs as Props);
    expect(Object.keys((good.outs as Props).badHosts as object)).toEqual(["30005"]);
    await h.control("POST", "/reset");
    resetClaims();
    await h.control("POST", "/next-boot", { actual_status: "created", status_msg: OCI, times: 3 });
    const error = await rejection(fleet.create((await fleet.check({}, { ...news, __identity: "proj/dev/Fleet/g" })).inputs as Props));
    expect(error.message).toContain(`the service says "${OCI}"`);
    // A fleet that rented something fails partially with its state: no machine is counted bad.
    const badHosts = (error as { properties?: Props }).properties?.badHosts;
    expect(badHosts === undefined || Object.keys(badHosts as object).length === 0).toBe(true);
  });
});

describe("26.9 smaller points", () => {
  it("26.9 a bid above 32 $/hour is accepted at creation (the create endpoint allows 128), and 128 is the limit", async () => {
    await h.clearRequests();
    await createChecked({ offerId: 700001, image: "x", bidPricePerHour: 100 });
    expect((await bodiesTo("PUT", /^\/api\/v0\/asks\/\d+\/?$/))[0]).toMatchObject({ price: 100 });
    const { failures } = await instance.check({}, { __provider: "p", offerId: 700001, image: "x", bidPricePerHour: 130 });
    expect(JSON.stringify(failures)).toMatch(/bidPricePerHour: must be at most 128 .*changes in place are limited to 32/);
    await expect(h.client.instanceActions.changeBid(1, 40)).rejects.toThrow(/between 0.001 and 32 \$\/hour for an in-place change \(got 40\); a new rental takes bids up to 128/);
  });

  it("26.9 an Endpoint delete answered 400 \"not found\" is read back: still listed, the delete fails", async () => {
    const ep = await made(endpoint, { name: "ep-notfound" });
    await h.fault({ method: "DELETE", path: `/api/v0/endptjobs/${ep.id}`, status: 400, body: { success: false, error: "invalid_args", msg: `Endpointgroup not found for user (id ${ep.id})` }, times: 1 });
    const error = await rejection(endpoint.delete(ep.id, ep.outs));
    expect(error.message).toMatch(/answered the delete with "not found", but the endpoint is still listed/);
    expect((await h.client.endpointGroups.list()).map((e) => String(e.id))).toContain(ep.id);
    await endpoint.delete(ep.id, ep.outs);
    expect((await h.client.endpointGroups.list()).map((e) => String(e.id))).not.toContain(ep.id);
  });

  it("26.9 endpoints known only from this package's own API description fail saying they may not exist on the service", async () => {
    await h.fault({ method: "GET", path: "/api/v1/user/earnings/chart", status: 404, body: "<html>Not Found</html>", times: 1 });
    await expect(h.client.earnings.chart()).rejects.toThrow(/described only in this package's own description of the API.*the endpoint may not exist on the service/);
    await h.fault({ method: "GET", path: "/api/v0/instances", status: 404, body: "<html>Not Found</html>", times: 1 });
    await expect(h.client.instances.list()).rejects.toThrow(/may not exist on the service/);
  });
});
