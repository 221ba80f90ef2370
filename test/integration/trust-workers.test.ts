/**
 * Issue 23 item 7: serverless workers are not left billing. A worker that cannot be destroyed
 * keeps the group in place (and so in state) until a later destroy finishes; a delete answered
 * as a success that left workers running is caught by listing them. Against the simulator over
 * HTTP: its control API makes a worker undeletable by the group delete, its faults fail calls.
 */
import { providers } from "pulumi-vastai";
import { drive, failureOf, type Driven } from "./account-resources-support";
import { useSimulator } from "../support/simulator";

type Props = Record<string, unknown>;
const PROVIDER = "serialized-provider-text";
const h = useSimulator({ providers: true, settings: { pollIntervalMs: 5, lostResponseLookups: 2, liveCacheTtlMs: 0 } });
const endpoint = drive(providers.endpoint);
const workerGroup = drive(providers.workerGroup);

async function made(p: Driven, news: Props): Promise<{ id: string; outs: Props }> {
  const { inputs, failures } = await p.check({}, { __provider: PROVIDER, ...news });
  expect(failures ?? []).toEqual([]);
  const { id, outs } = await p.create(inputs as Props);
  return { id, outs: outs as Props };
}

const instanceIds = async () => (await h.client.instances.list()).map((i) => i.id);

/** An endpoint with one group of `workers` test workers, and the workers' instance ids. */
async function groupWithWorkers(workers: number) {
  const ep = await made(endpoint, { name: "workers-llm" });
  const before = await instanceIds();
  const group = await made(workerGroup, { endpointId: ep.id, searchParams: "gpu_ram>=23 num_gpus=1", testWorkers: workers });
  const ids = (await instanceIds()).filter((i) => !before.includes(i));
  expect(ids).toHaveLength(workers);
  return { ep, group, workers: ids };
}

describe("23.7 unfinished worker cleanup is not forgotten", () => {
  it("23.7 WorkerGroup: a worker that cannot be destroyed fails the first destroy, and the second destroy destroys it", async () => {
    const { group, workers } = await groupWithWorkers(2);
    await h.control("POST", "/serverless/undeletable-workers", { instance_ids: [workers[0]] });
    await h.fault({ method: "DELETE", path: `/api/v0/instances/${workers[0]}`, times: 20, status: 500 });
    const message = await failureOf(workerGroup.delete(group.id, group.outs));
    expect(message).toContain(String(workers[0]));
    await h.control("DELETE", "/faults");
    // The engine keeps the state it had: the second destroy gets the same properties.
    await workerGroup.delete(group.id, group.outs);
    expect(await instanceIds()).toEqual([]);
    expect(await h.client.workerGroups.list()).toEqual([]);
  });

  it("23.7 Endpoint: a worker of its group that cannot be destroyed fails the first destroy, and the second destroy destroys it", async () => {
    const { ep, workers } = await groupWithWorkers(2);
    await h.control("POST", "/serverless/undeletable-workers", { instance_ids: [workers[1]] });
    await h.fault({ method: "DELETE", path: `/api/v0/instances/${workers[1]}`, times: 20, status: 500 });
    const message = await failureOf(endpoint.delete(ep.id, ep.outs));
    expect(message).toContain(String(workers[1]));
    await h.control("DELETE", "/faults");
    await endpoint.delete(ep.id, ep.outs);
    expect(await instanceIds()).toEqual([]);
    expect(await h.client.endpointGroups.list()).toEqual([]);
  });
});

describe("23.7 a delete that left workers running is not a success", () => {
  it("23.7 WorkerGroup: a delete answered {success: true} without destroying or naming the workers leaves none running", async () => {
    const { group } = await groupWithWorkers(3);
    await h.fault({ method: "DELETE", path: "/api/v0/workergroups/*", times: 1, status: 200, body: { success: true } });
    await workerGroup.delete(group.id, group.outs);
    expect(await instanceIds()).toEqual([]);
  });

  it("23.7 Endpoint: a delete answered {success: true} without destroying or naming the workers leaves none running", async () => {
    const { ep } = await groupWithWorkers(2);
    await h.fault({ method: "DELETE", path: "/api/v0/endptjobs/*", times: 1, status: 200, body: { success: true } });
    await endpoint.delete(ep.id, ep.outs);
    expect(await instanceIds()).toEqual([]);
  });
});
