/**
 * The Endpoint and WorkerGroup providers (as `providers.endpoint`, `providers.workerGroup`)
 * against the simulator over HTTP: create, read-back and drift, update in place, delete and
 * what it does to the workers, lost responses and killed runs, shared reads, and the worker
 * group's id as the id its logs use.
 */
import { getEndpoints, getEndpointsOutput, getWorkerGroupLogs, getWorkerGroups, getWorkerGroupsOutput, providers } from "pulumi-vastai";
import { scrub } from "pulumi-vastai/client";
import * as pulumi from "@pulumi/pulumi";
import { useSimulator } from "../support/simulator";

type Props = Record<string, unknown>;
const endpoint = providers.endpoint as Required<typeof providers.endpoint>;
const workerGroup = providers.workerGroup as Required<typeof providers.workerGroup>;
const PROVIDER = "serialized-provider-text";

const h = useSimulator({ providers: true, settings: { pollIntervalMs: 5, lostResponseLookups: 2, liveCacheTtlMs: 0 } });

async function made(p: typeof endpoint, props: Props) {
  const res = await p.check({}, { __provider: PROVIDER, ...props });
  expect(res.failures).toEqual([]);
  const { id, outs } = await p.create(res.inputs);
  return { inputs: res.inputs as Props, id, outs: outs as Props };
}

const newEndpoint = (props: Props = {}) => made(endpoint, { name: "llm-prod", ...props });
const newGroup = (endpointId: string, props: Props = {}) => made(workerGroup, { endpointId, searchParams: "gpu_ram>=23 num_gpus=1", ...props });

const calls = async (prefix: string) => (await h.requests()).filter((r) => r.path.startsWith(prefix)).map((r) => [r.method, r.path, r.body]);
const instanceIds = async () => (await h.client.instances.list()).map((i) => i.id);

async function direct(method: string, path: string, body: unknown) {
  const res = await fetch(`${h.sim.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${h.sim.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

describe("Endpoint over HTTP", () => {
  it("creates the endpoint with the settings given and keeps its API key a registered secret output", async () => {
    const { id, outs } = await newEndpoint({ minLoad: 10, targetUtil: 0.8, maxWorkers: 4, inactivityTimeout: 600 });
    expect(id).toMatch(/^\d+$/);
    expect(await calls("/api/v0/endptjobs")).toEqual([
      ["GET", "/api/v0/endptjobs/", null],
      ["POST", "/api/v0/endptjobs/", { client_id: "me", autoscaler_instance: "prod", endpoint_name: "llm-prod", min_load: 10, min_cold_load: 0, target_util: 0.8, cold_mult: 2.5, cold_workers: 5, max_workers: 4, max_queue_time: 30, target_queue_time: 10, inactivity_timeout: 600 }],
      ["GET", "/api/v0/endptjobs/", null],
    ]);
    expect(outs).toMatchObject({ name: "llm-prod", endpointId: Number(id), state: "active", minLoad: 10, maxWorkers: 4 });
    expect(typeof outs.apiKey).toBe("string");
    // The key is known to the redactor: an error quoting it would print <redacted>.
    expect(scrub(`key ${String(outs.apiKey)}`)).not.toContain(String(outs.apiKey));
  });

  it("reads back with no diff, and shows a change made outside the program (drift)", async () => {
    const { inputs, id, outs } = await newEndpoint({ coldWorkers: 2 });
    const read = await endpoint.read(id, outs);
    expect(read.inputs).toEqual({ name: "llm-prod", coldWorkers: 2 });
    expect(await endpoint.diff(id, read.props as Props, inputs)).toMatchObject({ changes: false });
    await direct("PUT", `/api/v0/endptjobs/${id}/`, { cold_workers: 7 });
    const drifted = await endpoint.read(id, outs);
    expect(drifted.inputs).toEqual({ name: "llm-prod", coldWorkers: 7 });
    expect(await endpoint.diff(id, drifted.props as Props, inputs)).toMatchObject({ changes: true, replaces: [] });
  });

  it("updates name and settings in place with PUT on the same id", async () => {
    const { id, outs } = await newEndpoint({ maxWorkers: 4 });
    await h.clearRequests();
    const news = (await endpoint.check(outs, { __provider: PROVIDER, name: "llm-prod-2", maxWorkers: 8, targetQueueTime: 5 })).inputs as Props;
    expect(await endpoint.diff(id, outs, news)).toMatchObject({ changes: true, replaces: [] });
    const updated = (await endpoint.update(id, outs, news)).outs as Props;
    expect(await calls("/api/v0/endptjobs")).toEqual([["PUT", `/api/v0/endptjobs/${id}/`, { client_id: "me", autoscaler_instance: "prod", endpoint_name: "llm-prod-2", min_load: 0, min_cold_load: 0, target_util: 0.9, cold_mult: 2.5, cold_workers: 5, max_workers: 8, max_queue_time: 30, target_queue_time: 5 }]]);
    expect(updated).toMatchObject({ endpointId: Number(id), name: "llm-prod-2", maxWorkers: 8, apiKey: outs.apiKey });
    expect((await endpoint.read(id, updated)).inputs).toEqual({ name: "llm-prod-2", maxWorkers: 8, targetQueueTime: 5 });
  });

  it("a create whose answer is lost is found by its name: one endpoint", async () => {
    await h.fault({ method: "POST", path: "/api/v0/endptjobs", times: 1, drop: "after" });
    const { id } = await newEndpoint();
    const all = await h.client.endpointGroups.list();
    expect(all.map((e) => [e.id, e.name])).toEqual([[Number(id), "llm-prod"]]);
  });

  it("a killed run's endpoint is adopted on the resource's first create; a name in use otherwise is refused clearly", async () => {
    const left = await h.client.endpointGroups.create({ name: "llm-prod", maxWorkers: 2 });
    const identity = { __identity: "proj/dev/Endpoint/llm", __generation: 1 };
    const adopted = await newEndpoint({ maxWorkers: 6, ...identity });
    expect(adopted.id).toBe(String(left));
    expect((await h.client.endpointGroups.list()).map((e) => [e.id, e.maxWorkers])).toEqual([[left, 6]]);
    const res = await endpoint.check({}, { __provider: PROVIDER, name: "llm-prod" });
    await expect(endpoint.create(res.inputs)).rejects.toThrow(/Endpoint "llm-prod": .*already exists \(id \d+\).*choose another name or take it over with importId: "\d+"/);
  });

  it("refreshes N endpoints with one list call", async () => {
    const all = [await newEndpoint({ name: "a" }), await newEndpoint({ name: "b" }), await newEndpoint({ name: "c" })];
    await h.clearRequests();
    await Promise.all(all.map((e) => endpoint.read(e.id, e.outs)));
    expect(await calls("/api/v0/endptjobs")).toEqual([["GET", "/api/v0/endptjobs/", null]]);
  });

  it("a deleted endpoint reads as gone, and deleting it again succeeds", async () => {
    const { id, outs } = await newEndpoint();
    await endpoint.delete(id, outs);
    expect(await endpoint.read(id, outs)).toEqual({ id: "" });
    await expect(endpoint.delete(id, outs)).resolves.toBeUndefined();
  });

  it("refuses bad settings naming field, rule and value", async () => {
    const res = await endpoint.check({}, { __provider: PROVIDER, name: "bad name", targetUtil: 1.5, maxWorker: 3 });
    const reasons = res.failures!.map((f) => f.reason).join("\n");
    expect(reasons).toMatch(/name: must be letters, digits.*"bad name"/);
    expect(reasons).toMatch(/targetUtil: must be at most 1.*1\.5/);
    expect(reasons).toMatch(/maxWorker.*maxWorkers/);
  });
});

describe("WorkerGroup over HTTP", () => {
  it("creates the group on its endpoint; its workers run as instances of the account and its id is the logs' id", async () => {
    const ep = await newEndpoint();
    const before = await instanceIds();
    await h.clearRequests();
    const { id, outs } = await newGroup(ep.id, { testWorkers: 2, gpuRam: 24, launchArgs: "--disk 32" });
    expect((await calls("/api/v0/workergroups")).filter(([m]) => m === "POST")).toEqual([
      ["POST", "/api/v0/workergroups/", { endpoint_id: Number(ep.id), search_params: "gpu_ram>=23 num_gpus=1 verified=True rentable=True rented=False", launch_args: "--disk 32", gpu_ram: 24, test_workers: 2, min_load: 0, target_util: 0.9, cold_mult: 2.5, autoscaler_instance: "prod" }],
    ]);
    expect(outs).toMatchObject({ workerGroupId: Number(id), endpointId: ep.id, endpointName: "llm-prod" });
    expect(outs).not.toHaveProperty("apiKey");
    const workers = (await instanceIds()).filter((i) => !before.includes(i));
    expect(workers).toHaveLength(2);
    const logs = await getWorkerGroupLogs({ workerGroupId: Number(id) });
    expect(logs.lines[0]).toContain(`workergroup ${id} created`);
  });

  it("reads back with no diff, shows drift, and updates in place (endpoint included)", async () => {
    const ep = await newEndpoint();
    const other = await newEndpoint({ name: "llm-b" });
    const { inputs, id, outs } = await newGroup(ep.id, { testWorkers: 1, coldWorkers: 1 });
    const read = await workerGroup.read(id, outs);
    expect(await workerGroup.diff(id, read.props as Props, inputs)).toMatchObject({ changes: false });
    await direct("PUT", `/api/v0/workergroups/${id}/`, { cold_workers: 4 });
    const drifted = await workerGroup.read(id, outs);
    expect(drifted.inputs).toMatchObject({ coldWorkers: 4 });
    await h.clearRequests();
    const news = (await workerGroup.check(outs, { __provider: PROVIDER, endpointId: other.id, searchParams: "gpu_name=RTX_4090", testWorkers: 1, coldWorkers: 2 })).inputs as Props;
    expect(await workerGroup.diff(id, drifted.props as Props, news)).toMatchObject({ changes: true, replaces: [] });
    const updated = (await workerGroup.update(id, drifted.props as Props, news)).outs as Props;
    expect((await calls("/api/v0/workergroups")).filter(([m]) => m === "PUT")).toEqual([
      ["PUT", `/api/v0/workergroups/${id}/`, { endpoint_id: Number(other.id), search_params: "gpu_name=RTX_4090 verified=True rentable=True rented=False", test_workers: 1, cold_workers: 2, min_load: 0, target_util: 0.9, cold_mult: 2.5, autoscaler_instance: "prod" }],
    ]);
    expect(updated).toMatchObject({ workerGroupId: Number(id), endpointName: "llm-b" });
    expect((await workerGroup.read(id, updated)).inputs).toEqual({ endpointId: other.id, searchParams: "gpu_name=RTX_4090", testWorkers: 1, coldWorkers: 2 });
  });

  it("deleting a group destroys its worker instances", async () => {
    const ep = await newEndpoint();
    const before = await instanceIds();
    const { id, outs } = await newGroup(ep.id, { testWorkers: 3 });
    expect((await instanceIds()).length).toBe(before.length + 3);
    await workerGroup.delete(id, outs);
    expect(await instanceIds()).toEqual(before);
    expect(await workerGroup.read(id, outs)).toEqual({ id: "" });
    await expect(workerGroup.delete(id, outs)).resolves.toBeUndefined();
  });

  it("workers the service reports it failed to delete are destroyed by the provider", async () => {
    const ep = await newEndpoint();
    const before = await instanceIds();
    const { id, outs } = await newGroup(ep.id, { testWorkers: 2 });
    const workers = (await instanceIds()).filter((i) => !before.includes(i));
    await h.control("POST", "/serverless/undeletable-workers", { instance_ids: [workers[0]] });
    await h.clearRequests();
    await workerGroup.delete(id, outs);
    // Its workers are destroyed before the group (workerGroup/workers.ts), the undeletable one included.
    expect(await calls("/api/v0/instances")).toContainEqual(["DELETE", `/api/v0/instances/${workers[0]}/`, {}]);
    expect(await instanceIds()).toEqual(before);
  });

  it("deleting an endpoint deletes its worker groups and their workers", async () => {
    const ep = await newEndpoint();
    const before = await instanceIds();
    const a = await newGroup(ep.id, { testWorkers: 1 });
    const b = await newGroup(ep.id, { testWorkers: 2, searchParams: "gpu_name=RTX_4090" });
    await endpoint.delete(ep.id, ep.outs);
    expect(await h.client.workerGroups.list()).toEqual([]);
    expect(await instanceIds()).toEqual(before);
    expect(await workerGroup.read(a.id, a.outs)).toEqual({ id: "" });
    await expect(workerGroup.delete(b.id, b.outs)).resolves.toBeUndefined();
  });

  it("a create whose answer is lost is found by its settings: one group", async () => {
    const ep = await newEndpoint();
    await h.fault({ method: "POST", path: "/api/v0/workergroups", times: 1, drop: "after" });
    const { id } = await newGroup(ep.id);
    expect((await h.client.workerGroups.list()).map((g) => g.id)).toEqual([Number(id)]);
  });

  it("a killed run's group is adopted on the first create, once: a sibling with the same settings gets its own", async () => {
    const ep = await newEndpoint();
    const left = await h.client.workerGroups.create({ endpointId: Number(ep.id), searchParams: "gpu_ram>=23 num_gpus=1" });
    const first = await newGroup(ep.id, { __identity: "proj/dev/WorkerGroup/a", __generation: 1 });
    const second = await newGroup(ep.id, { __identity: "proj/dev/WorkerGroup/b", __generation: 1 });
    expect(first.id).toBe(String(left));
    expect(second.id).not.toBe(String(left));
    expect((await h.client.workerGroups.list()).length).toBe(2);
  });

  it("refreshes N groups with one list call", async () => {
    const ep = await newEndpoint();
    const groups = [await newGroup(ep.id, { testWorkers: 0 }), await newGroup(ep.id, { testWorkers: 0, launchArgs: "--x" })];
    await h.clearRequests();
    await Promise.all(groups.map((g) => workerGroup.read(g.id, g.outs)));
    expect(await calls("/api/v0/workergroups")).toEqual([["GET", "/api/v0/workergroups/", null]]);
  });

  it("refuses a group with neither template nor search, naming the field and rule", async () => {
    const res = await workerGroup.check({}, { __provider: PROVIDER, endpointId: "12", testWorkers: -1 });
    const reasons = res.failures!.map((f) => f.reason).join("\n");
    expect(reasons).toMatch(/templateHash: give templateHash, searchParams or both/);
    expect(reasons).toMatch(/testWorkers: must not be negative.*-1/);
  });
});

describe("getEndpoints and getWorkerGroups", () => {
  it("list endpoints and groups without their API keys, filtered by name and endpoint", async () => {
    const a = await newEndpoint({ name: "a", maxWorkers: 3 });
    const b = await newEndpoint({ name: "b" });
    const ga = await newGroup(a.id, { testWorkers: 0 });
    await newGroup(b.id, { testWorkers: 0 });
    const endpoints = await getEndpoints();
    expect(endpoints.map((e) => [e.id, e.name])).toEqual([[Number(a.id), "a"], [Number(b.id), "b"]]);
    expect(endpoints[0]).toMatchObject({ maxWorkers: 3, state: "active" });
    for (const e of endpoints) expect(e).not.toHaveProperty("apiKey");
    expect((await getEndpoints({ name: "b" })).map((e) => e.id)).toEqual([Number(b.id)]);
    const groups = await getWorkerGroups({ endpointId: Number(a.id) });
    expect(groups.map((g) => [g.id, g.endpointId, g.endpointName, g.searchParams])).toEqual([[Number(ga.id), Number(a.id), "a", "gpu_ram>=23 num_gpus=1 verified=True rentable=True rented=False"]]);
    for (const g of await getWorkerGroups()) expect(g).not.toHaveProperty("apiKey");
    await expect(getWorkerGroups({ endpointID: 1 } as never)).rejects.toThrow(/endpointID.*did you mean endpointId/);
  });

  it("the Output variants: the API keys only on request, and then secret", async () => {
    const a = await newEndpoint({ name: "a" });
    const plain = getEndpointsOutput({ name: "a" });
    expect(await pulumi.isSecret(plain)).toBe(false);
    const keyed = getEndpointsOutput({ name: "a", includeApiKey: true });
    expect(await pulumi.isSecret(keyed)).toBe(true);
    const value = await new Promise<unknown>((resolve) => keyed.apply(resolve));
    expect(value).toEqual([expect.objectContaining({ id: Number(a.id), apiKey: a.outs.apiKey })]);
    const groups = await new Promise<unknown>((resolve) => getWorkerGroupsOutput({ endpointId: Number(a.id) }).apply(resolve));
    expect(groups).toEqual([]);
  });
});
