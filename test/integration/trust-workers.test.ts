/**
 * Issue 23 item 7: serverless workers are not left billing. A worker that cannot be destroyed
 * keeps the group in place (and so in state) until a later destroy finishes; a delete answered
 * as a success that left workers running is caught by listing them. Against the simulator over
 * HTTP: its control API makes a worker undeletable by the group delete, its faults fail calls.
 */
import { providers } from "pulumi-vastai";
import { drive, failureOf, type Driven } from "./account-resources-support";
import { pointProviders, useSimulator } from "../support/simulator";
import { main } from "../../provider/cli/main";
import { setWarningSink } from "../../provider/resources/kit/warn";
import { INSTANCE_MARKER_ENV as MARKER_ENV } from "../../provider/cli/orphans";

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

describe("23.7 a create that lands after the look-up window is not left running", () => {
  /** Lets the delayed request land: polls the simulator's state, no fixed sleep. */
  async function until(ready: () => boolean): Promise<void> {
    for (let i = 0; i < 200 && !ready(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(ready()).toBe(true);
  }

  it("23.7 WorkerGroup: the late group and its workers are deleted by the next refresh; the resource's own group stays", async () => {
    const ep = await made(endpoint, { name: "late-llm" });
    // The first send times out and lands 400 ms later, after the look-up window; the resend is answered.
    pointProviders(h, h.sim.apiKey, { pollIntervalMs: 5, lostResponseLookups: 2, liveCacheTtlMs: 0 }, { timeoutMs: 150 });
    await h.fault({ method: "POST", path: "/api/v0/workergroups", times: 1, delayMs: 400 });
    const group = await made(workerGroup, { endpointId: ep.id, searchParams: "gpu_ram>=23 num_gpus=1", testWorkers: 2 });
    await until(() => h.sim.state().workerGroups.length === 2);
    const late = h.sim.state().workerGroups.find((g) => String(g.id) !== group.id);
    expect(late).toBeDefined();
    const read = await workerGroup.read(group.id, group.outs);
    expect(read.id).toBe(group.id);
    expect((await h.client.workerGroups.list()).map((g) => g.id)).toEqual([Number(group.id)]);
    // Only the resource's own workers run.
    expect(await instanceIds()).toEqual(await h.client.workerGroups.workers(Number(group.id)));
    expect((read.props as Props).lostCreates).toBeUndefined();
  });
});

describe("23.7 an Endpoint create that lands after the look-up window", () => {
  it("23.7 Endpoint: the late endpoint is named in a warning and never deleted (it may be another stack's); the resource's own stays", async () => {
    pointProviders(h, h.sim.apiKey, { pollIntervalMs: 5, lostResponseLookups: 2, liveCacheTtlMs: 0 }, { timeoutMs: 150 });
    const warnings: string[] = [];
    const previous = setWarningSink((m) => warnings.push(m));
    try {
      await h.fault({ method: "POST", path: "/api/v0/endptjobs", times: 1, delayMs: 400 });
      const ep = await made(endpoint, { name: "late-endpoint" });
      for (let i = 0; i < 200 && h.sim.state().endpoints.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      const late = h.sim.state().endpoints.find((e) => String(e.id) !== ep.id);
      expect(late).toBeDefined();
      // A same-named endpoint with a group: no marker proves it ours, so it stays.
      await h.client.workerGroups.create({ endpointId: late!.id, searchParams: "gpu_ram>=23", testWorkers: 1 });
      const read = await endpoint.read(ep.id, ep.outs);
      expect(read.id).toBe(ep.id);
      expect((await h.client.endpointGroups.list()).map((e) => e.id).sort()).toEqual([Number(ep.id), late!.id].sort());
      expect(await instanceIds()).toHaveLength(1);
      expect(warnings.some((w) => w.includes(`endpoint ${late!.id}`) && w.includes("left alone") && w.includes(`vastai delete endpoint ${late!.id}`))).toBe(true);
      expect((read.props as Props).lostCreates).toBeUndefined();
    } finally {
      setWarningSink(previous);
    }
  });
});

describe("23.7 the orphan report sees billing workers and volumes no marker ties to a stack", () => {
  async function report(args: string[]) {
    const out: string[] = [];
    const code = await main(["orphans", ...args], { out: (t) => out.push(t), err: (t) => out.push(t), client: h.client });
    return { code, out: out.join("\n") };
  }

  it("23.7 workers of a group no stack holds, and a volume.createNew volume left after its instance, are listed and never deleted", async () => {
    const { id: instanceId } = await h.client.instances.create(700001, {
      image: "ubuntu:22.04",
      env: { [MARKER_ENV]: "0123456789abcdef" },
      volumeInfo: { createNew: true, volumeId: 900001, size: 10, mountPath: "/data" },
    });
    const volumeId = (await h.client.volumes.list()).find((v) => v.instanceIds.includes(instanceId))?.id;
    expect(volumeId).toBeDefined();
    await h.client.instances.destroy(instanceId);
    // The group after the instance: its workers take offers of their own.
    const endpointId = await h.client.endpointGroups.create({ name: "left-llm" });
    const groupId = await h.client.workerGroups.create({ endpointId, searchParams: "gpu_ram>=23", testWorkers: 2 });
    const workers = (await h.client.workerGroups.workers(groupId)) ?? [];
    expect(workers).toHaveLength(2);

    const text = await report([]);
    for (const w of workers) expect(text.out).toContain(`worker ${w}`);
    expect(text.out).toContain(`worker group ${groupId}`);
    expect(text.out).toContain(`volume ${volumeId}`);
    expect(text.out).toMatch(/volume\.createNew/);
    const json = JSON.parse((await report(["--json"])).out) as { leftovers: { kind: string; id: number }[] };
    expect(json.leftovers.map((l) => `${l.kind} ${l.id}`).sort()).toEqual([...workers.map((w) => `worker ${w}`), `volume ${volumeId}`].sort());
    // --delete deletes marked orphans only: the leftovers stay.
    await report(["--delete"]);
    expect(await instanceIds()).toEqual(expect.arrayContaining(workers));
    expect((await h.client.volumes.list()).map((v) => v.id)).toContain(volumeId);
  });
});
