/**
 * Issue 23 item 1: whose an object is. Stacks run through the offline engine (Pulumi's real
 * dynamic-provider plugin, in a project with the packed package installed) against one
 * simulator account: every resource's marker comes from its stack's StackIdentity nonce, so
 * (a) two stacks with identical project, stack and resource names never adopt, change or delete
 * each other's objects; (b) a renamed stack keeps its own; (c) a create whose state was never
 * recorded is still adopted by the next run of the same stack; (d) a stack made by the previous
 * release (identities of names only, no StackIdentity) keeps working with no replacement.
 * Issue 33 item 2: the identity records the fully qualified stack name it was made for, so a copy
 * under another stack name (an imported export, a state file copied to a second backend) is
 * refused until the user confirms a rename (`vastai:renamedFrom`) or asks for a fresh nonce
 * (`vastai:newStackIdentity`); a damaged nonce is refused with its repair.
 */
import { ApiKey, Fleet, Instance, Volume, Webhook } from "pulumi-vastai";
import { startSimulator, type LoggedRequest, type Simulator } from "pulumi-vastai/simulator";
import { OfflineEngine, dynamicUrn, startProviderPlugin, type StepReport } from "pulumi-vastai/testing";
import { FAST_PLUGIN_CONFIG } from "../support/plugin-timing";
import { scratchProject, startPlugin } from "./harness";

let sim: Simulator;
beforeAll(async () => {
  scratchProject();
  sim = await startSimulator({ port: 0, bootMs: 0 });
}, 300_000);
afterAll(() => sim?.close());

const config = () => ({ "vastai:apiKey": sim.apiKey, "vastai:apiUrl": sim.url, "vastai:runUrl": sim.runUrl, ...FAST_PLUGIN_CONFIG });

/** The engine's state entries (private to the engine: tests rename and seed stacks through it). */
interface StateEntry {
  urn: string;
  type: string;
  name: string;
  id: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
}
const stateOf = (engine: OfflineEngine) => engine as unknown as { state: StateEntry[] };

class Stack {
  readonly engine: OfflineEngine;
  constructor(
    readonly project: string,
    readonly name: string,
  ) {
    this.engine = new OfflineEngine(() => startProviderPlugin({ cwd: scratchProject().dir, env: { VAST_API_KEY: undefined, VAST_URL: undefined } }), { project, stack: name });
  }
  up(extra: Record<string, string> = {}): Promise<StepReport> {
    return this.engine.up(program, { ...config(), ...extra }, ["vastai:apiKey"]);
  }
  /** The fully qualified name the program sees (the offline engine's organization is Pulumi's DIY default). */
  get qualified(): string {
    return `organization/${this.project}/${this.name}`;
  }
  destroy(): Promise<StepReport> {
    return this.engine.destroy();
  }
  /** The same state under another stack name, as `pulumi stack rename` leaves it. */
  renamed(name: string): Stack {
    const next = new Stack(this.project, name);
    const from = `urn:pulumi:${this.name}::`;
    stateOf(next.engine).state = stateOf(this.engine).state.map((e) => ({ ...e, urn: `urn:pulumi:${name}::${e.urn.slice(from.length)}` }));
    return next;
  }
  /**
   * The state under another stack name, as `pulumi stack export | pulumi stack import` (or a
   * state file copied to a second backend) leaves it; `identityOnly` keeps only the stack
   * identity, as an export taken before the rest was made (or the rest removed with `pulumi
   * state delete`).
   */
  copied(name: string, identityOnly = false): Stack {
    const next = this.renamed(name);
    if (identityOnly) stateOf(next.engine).state = stateOf(next.engine).state.filter((e) => e.type.endsWith(":StackIdentity"));
    return next;
  }
}

/** One resource of each kind that finds objects by marker. */
function program() {
  new Volume("data", { offerId: 900001, sizeGb: 10, name: "data" });
  new Instance("gpu", { offer: { numGpus: 1, gpuRamGb: 24 }, image: "ubuntu:22.04", label: "gpu" });
  new ApiKey("ci", { name: "ci", permissions: { instances: "read" } });
  new Webhook("alerts", { url: "https://ops.example.com/hook", eventTypes: ["client:low_credit"], name: "alerts" });
  const fleet = new Fleet("workers", { count: 2, offer: { numGpus: 1, gpuRamGb: 24 }, image: "pytorch/pytorch" });
  // A run refused before the fleet exists resolves its outputs to nothing.
  return { members: fleet.members.apply((ms) => (ms ?? []).map((m) => m.id)) };
}

/** The objects a stack's state holds, by kind: service ids. */
interface Objects {
  instances: number[];
  volumes: number[];
  apiKeys: number[];
  webhooks: number[];
}

function objectsOf(stack: Stack): Objects {
  const state = stateOf(stack.engine).state;
  const idOf = (type: string) => state.filter((e) => e.type.endsWith(`:${type}`)).map((e) => Number(e.id));
  const fleet = state.find((e) => e.type.endsWith(":Fleet"));
  const members = ((fleet?.outputs.members ?? []) as Array<{ id: number }>).map((m) => m.id);
  return { instances: [...idOf("Instance"), ...members].sort(), volumes: idOf("Volume"), apiKeys: idOf("ApiKey"), webhooks: idOf("Webhook") };
}

function liveObjects(): Objects {
  const s = sim.state();
  return {
    instances: s.instances.map((i) => Number(i.id)),
    volumes: s.volumes.map((v) => Number(v.id)),
    apiKeys: s.apiKeys.map((k) => k.id),
    webhooks: s.webhooks.map((w) => w.id),
  };
}

/** Every object of `objects` is live. */
function expectAlive(objects: Objects): void {
  const live = liveObjects();
  for (const kind of Object.keys(objects) as Array<keyof Objects>) {
    expect({ kind, missing: objects[kind].filter((id) => !live[kind].includes(id)) }).toEqual({ kind, missing: [] });
  }
}

function expectDisjoint(a: Objects, b: Objects): void {
  for (const kind of Object.keys(a) as Array<keyof Objects>) {
    expect({ kind, shared: a[kind].filter((id) => b[kind].includes(id)) }).toEqual({ kind, shared: [] });
  }
}

async function takeRequests(): Promise<LoggedRequest[]> {
  const res = await fetch(`${sim.url}/_sim/requests`);
  const log = (await res.json()) as LoggedRequest[];
  await fetch(`${sim.url}/_sim/requests`, { method: "DELETE", headers: { "content-type": "application/json" } });
  return log;
}

/** Writes (anything but GET) whose path or query names one of the objects. */
function writesTo(log: LoggedRequest[], objects: Objects): string[] {
  const ids = new Set(Object.values(objects).flat().map(String));
  return log
    .filter((r) => r.method !== "GET")
    .filter((r) => r.path.split("/").some((part) => ids.has(part)) || Object.values(r.query ?? {}).some((v) => ids.has(String(v))))
    .map((r) => `${r.method} ${r.path} ${JSON.stringify(r.query)}`);
}

const outcomes = (report: StepReport) => report.outcomes.map((o) => `${o.type} ${o.name}: ${o.outcome}`).sort();
const unchanged = ["ApiKey ci: unchanged", "Fleet workers: unchanged", "Instance gpu: unchanged", "Volume data: unchanged", "Webhook alerts: unchanged"];

test("23.1(a) two stacks with identical project, stack and resource names never adopt, change or delete each other's objects", async () => {
  const alice = new Stack("team", "dev");
  const bob = new Stack("team", "dev");
  // Before the first up the stack's nonce is unknown: check takes the unknown identity, and the
  // preview lists the program's resources only.
  await takeRequests();
  const preview = await alice.engine.preview(program, config(), ["vastai:apiKey"]);
  expect(outcomes(preview)).toEqual(unchanged.map((o) => o.replace("unchanged", "created")));
  expect((await takeRequests()).filter((r) => r.method !== "GET")).toEqual([]);
  await alice.up();
  const hers = objectsOf(alice);
  expect(hers.instances).toHaveLength(3);
  await takeRequests();

  const bobsUp = await bob.up();
  expect(outcomes(bobsUp)).toEqual(outcomes(bobsUp).map((o) => o.replace(/: .*/, ": created")));
  const his = objectsOf(bob);
  expectDisjoint(hers, his);
  expectAlive(hers);
  expect(writesTo(await takeRequests(), hers)).toEqual([]);

  await bob.destroy();
  expectAlive(hers);
  expect(writesTo(await takeRequests(), hers)).toEqual([]);
  const live = liveObjects();
  expect(his.instances.filter((id) => live.instances.includes(id))).toEqual([]);

  expect(outcomes(await alice.up())).toEqual(unchanged);
  expect(objectsOf(alice)).toEqual(hers);
  await alice.destroy();
  expect(liveObjects()).toMatchObject({ instances: [], volumes: [], webhooks: [] });
}, 300_000);

test("23.1(b), 33.2 a renamed stack keeps its objects once the rename is confirmed, and a new stack under the old name makes and deletes only its own", async () => {
  const dev = new Stack("team-b", "dev");
  await dev.up();
  const staging = dev.renamed("staging");
  const stagings = objectsOf(staging);
  // A renamed state and a copied one look alike: the first up under the new name asks which it is.
  await takeRequests();
  await expect(staging.up()).rejects.toThrow(/organization\/team-b\/staging.*organization\/team-b\/dev/s);
  expect((await takeRequests()).filter((r) => r.method !== "GET")).toEqual([]);
  // One confirmation: the stack was renamed from organization/team-b/dev.
  const renamedFrom = { "vastai:renamedFrom": dev.qualified };
  expect(outcomes(await staging.up(renamedFrom))).toEqual(unchanged);
  expect(objectsOf(staging)).toEqual(stagings);
  // The identity now records the new name: the confirmation is no longer needed.
  expect(outcomes(await staging.up())).toEqual(unchanged);
  await takeRequests();

  const newDev = new Stack("team-b", "dev");
  await newDev.up();
  expectDisjoint(stagings, objectsOf(newDev));
  expectAlive(stagings);
  await newDev.destroy();
  expectAlive(stagings);
  expect(writesTo(await takeRequests(), stagings)).toEqual([]);

  expect(outcomes(await staging.up())).toEqual(unchanged);
  await staging.destroy();
  expect(liveObjects()).toMatchObject({ instances: [], volumes: [], webhooks: [] });
}, 300_000);

/** The objects of a stack's program that carry a marker, as the service holds them. */
const MARKED = ["Volume data", "Instance gpu", "ApiKey ci", "Webhook alerts", "Fleet workers"];

test("33.2 a copy under another stack name (an export imported, a state file copied) neither adopts, revokes nor destroys the first stack's objects", async () => {
  const alice = new Stack("team-e", "dev");
  await alice.up();
  const hers = objectsOf(alice);
  const keysBefore = sim.state().apiKeys.map((k) => k.id).sort();
  // The copy holds the first stack's identity only (an export taken before the rest was made):
  // every create of its program would find the first stack's objects by marker.
  const bob = alice.copied("bob", true);
  await takeRequests();
  const failed = bob.up().then(
    () => undefined,
    (error: Error) => error,
  );
  const error = await failed;
  expect(error).toBeInstanceOf(Error);
  // The message names both stacks and both ways out.
  expect(error!.message).toContain("organization/team-e/bob");
  expect(error!.message).toContain("organization/team-e/dev");
  expect(error!.message).toContain("pulumi config set vastai:renamedFrom organization/team-e/dev");
  expect(error!.message).toMatch(/pulumi config set vastai:newStackIdentity \S+/);
  expect(writesTo(await takeRequests(), hers)).toEqual([]);
  expect(objectsOf(bob)).toEqual({ instances: [], volumes: [], apiKeys: [], webhooks: [] });
  expectAlive(hers);
  expect(sim.state().apiKeys.map((k) => k.id).sort()).toEqual(keysBefore);

  // Its destroy deletes only what its state holds: none of the first stack's objects.
  await bob.destroy();
  expectAlive(hers);
  expect(writesTo(await takeRequests(), hers)).toEqual([]);
  expect(outcomes(await alice.up())).toEqual(unchanged);
  await alice.destroy();
  expect(liveObjects()).toMatchObject({ instances: [], volumes: [], webhooks: [] });
}, 300_000);

test("33.2 a copy given a fresh nonce makes its own objects and leaves the first stack's untouched", async () => {
  const alice = new Stack("team-f", "dev");
  await alice.up();
  const hers = objectsOf(alice);
  const bob = alice.copied("bob", true);
  const identity = stateOf(bob.engine).state[0];
  await takeRequests();
  const bobsUp = await bob.up({ "vastai:newStackIdentity": identity.id });
  expect(outcomes(bobsUp)).toEqual(MARKED.map((o) => `${o}: created`).sort());
  const his = objectsOf(bob);
  expectDisjoint(hers, his);
  expectAlive(hers);
  expect(writesTo(await takeRequests(), hers)).toEqual([]);
  const fresh = stateOf(bob.engine).state.find((e) => e.type.endsWith(":StackIdentity"))!;
  expect(fresh.id).not.toEqual(identity.id);
  expect(fresh.outputs.nonce).not.toEqual(identity.outputs.nonce);
  expect(fresh.outputs.stackName).toBe(bob.qualified);
  // The key stays set: it names an identity the stack no longer has, so it does nothing more.
  expect(outcomes(await bob.up({ "vastai:newStackIdentity": identity.id }))).toEqual(unchanged);
  await bob.destroy();
  expectAlive(hers);
  expect(writesTo(await takeRequests(), hers)).toEqual([]);
  expect(outcomes(await alice.up())).toEqual(unchanged);
  expect(objectsOf(alice)).toEqual(hers);
  await alice.destroy();
  expect(liveObjects()).toMatchObject({ instances: [], volumes: [], webhooks: [] });
}, 300_000);

test("33.2 an identity of the previous release (no recorded stack name) keeps working: the first up records the name", async () => {
  const stack = new Stack("team-h", "dev");
  await stack.up();
  const made = objectsOf(stack);
  const identity = stateOf(stack.engine).state.find((e) => e.type.endsWith(":StackIdentity"))!;
  const { stackName: _input, ...inputs } = identity.inputs;
  const { stackName: _output, ...outputs } = identity.outputs;
  Object.assign(identity, { inputs, outputs });
  await takeRequests();
  expect(outcomes(await stack.up())).toEqual(unchanged);
  expect(objectsOf(stack)).toEqual(made);
  expect(writesTo(await takeRequests(), made)).toEqual([]);
  const recorded = stateOf(stack.engine).state.find((e) => e.type.endsWith(":StackIdentity"))!;
  expect(recorded.outputs).toMatchObject({ nonce: outputs.nonce, tag: outputs.tag, stackName: stack.qualified });
  expect(recorded.id).toBe(identity.id);
  // From then on a copy under another name is refused.
  await expect(stack.copied("copy", true).up()).rejects.toThrow(/organization\/team-h\/dev/);
  await stack.destroy();
  expect(liveObjects()).toMatchObject({ instances: [], volumes: [], webhooks: [] });
}, 300_000);

test.each([
  ["empty", ""],
  ["numeric", 12345],
  ["missing", undefined],
  ["not of the form a create makes", "not-a-nonce"],
])("33.2 a corrupted nonce (%s) is refused with the repair, and nothing is made", async (_what, nonce) => {
  const stack = new Stack("team-g", "dev");
  await stack.up();
  const made = objectsOf(stack);
  const state = stateOf(stack.engine);
  // The stack identity with its nonce damaged, and a resource whose state was never recorded.
  state.state = state.state.filter((e) => !e.type.endsWith(":Instance"));
  const identity = state.state.find((e) => e.type.endsWith(":StackIdentity"))!;
  const good = identity.outputs.nonce;
  const outputs: Record<string, unknown> = { ...identity.outputs, nonce };
  if (nonce === undefined) delete outputs.nonce;
  identity.outputs = outputs;
  const instancesBefore = liveObjects().instances.length;
  await takeRequests();
  const error = await stack.up().then(
    () => undefined,
    (e: Error) => e,
  );
  expect(error?.message).toMatch(/StackIdentity.*nonce/);
  expect(error?.message).toContain("pulumi stack export");
  expect(error?.message).toContain(`pulumi config set vastai:newStackIdentity ${identity.id}`);
  expect((await takeRequests()).filter((r) => r.method !== "GET")).toEqual([]);
  expect(liveObjects().instances).toHaveLength(instancesBefore);
  // Repaired (the nonce put back from an earlier export), the run goes on and finds the
  // instance by its marker.
  const damaged = state.state.find((e) => e.type.endsWith(":StackIdentity"))!;
  damaged.outputs = { ...damaged.outputs, nonce: good };
  await stack.up();
  expect(objectsOf(stack).instances).toEqual(made.instances);
  await stack.destroy();
  expect(liveObjects()).toMatchObject({ instances: [], volumes: [], webhooks: [] });
}, 300_000);

test("23.1(c) a create whose state was never recorded is adopted by the next run of the same stack", async () => {
  const stack = new Stack("team-c", "dev");
  await stack.up();
  const made = objectsOf(stack);
  const keysBefore = sim.state().apiKeys.length;
  // What a run killed after its creates reached the service leaves: the stack identity in
  // state (every resource depends on it, so it was recorded first), the objects on the
  // service, and no state for them.
  const state = stateOf(stack.engine);
  state.state = state.state.filter((e) => e.type.endsWith(":StackIdentity"));
  expect(state.state).toHaveLength(1);

  await stack.up();
  const again = objectsOf(stack);
  expect({ instances: again.instances, volumes: again.volumes, webhooks: again.webhooks }).toEqual({ instances: made.instances, volumes: made.volumes, webhooks: made.webhooks });
  expect(liveObjects().instances.sort()).toEqual(made.instances);
  // A key nobody saw the value of is replaced by one whose value is in state, never kept twice.
  expect(sim.state().apiKeys).toHaveLength(keysBefore);
  await stack.destroy();
  expect(liveObjects()).toMatchObject({ instances: [], volumes: [], webhooks: [] });
}, 300_000);

test("23.1(d) a stack made by the previous release keeps working: its objects are found, nothing is replaced, and a new stack with its names takes none of them", async () => {
  // The previous release's state: identities of names only, no StackIdentity; the objects
  // carry the markers of those identities (the provider still writes them for such inputs).
  const legacy = new Stack("team-d", "dev");
  const plugin = await startPlugin(config());
  const { serialized } = scratchProject();
  const entries: StateEntry[] = [];
  const make = async (kind: string, type: string, name: string, inputs: Record<string, unknown>) => {
    const urn = dynamicUrn("dev", "team-d", type, name);
    const news = { __provider: serialized[kind], __identity: `team-d/dev/${type}/${name}`, ...inputs };
    const checked = await plugin.check(urn, {}, news);
    expect(checked.failures).toEqual([]);
    const made = await plugin.create(urn, checked.inputs);
    entries.push({ urn, type: `pulumi-nodejs:dynamic/vastai:${type}`, name, id: made.id, inputs: checked.inputs, outputs: made.properties });
    return made.properties;
  };
  try {
    expect((await make("volume", "Volume", "data", { offerId: 900001, sizeGb: 10, name: "data" })).nameMarker).toMatch(/^[0-9a-f]{16}$/);
    expect((await make("instance", "Instance", "gpu", { offer: { numGpus: 1, gpuRamGb: 24 }, image: "ubuntu:22.04", label: "gpu" })).marker).toMatch(/^[0-9a-f]{16}$/);
    await make("apiKey", "ApiKey", "ci", { name: "ci", permissions: { instances: "read" } });
    await make("webhook", "Webhook", "alerts", { url: "https://ops.example.com/hook", eventTypes: ["client:low_credit"], name: "alerts" });
    await make("fleet", "Fleet", "workers", { count: 2, offer: { numGpus: 1, gpuRamGb: 24 }, image: "pytorch/pytorch" });
  } finally {
    await plugin.close();
  }
  stateOf(legacy.engine).state = entries;
  const made = objectsOf(legacy);
  await takeRequests();

  // The first run of this release: nothing changes but the stack identity it adds (not reported).
  expect(outcomes(await legacy.up())).toEqual(unchanged);
  expect(objectsOf(legacy)).toEqual(made);
  expect(stateOf(legacy.engine).state.filter((e) => e.type.endsWith(":StackIdentity"))).toHaveLength(1);
  expect(writesTo(await takeRequests(), made)).toEqual([]);
  expect(outcomes(await legacy.up())).toEqual(unchanged);

  // A stack with the same names made by this release takes none of its objects.
  const twin = new Stack("team-d", "dev");
  await twin.up();
  expectDisjoint(made, objectsOf(twin));
  await twin.destroy();
  expectAlive(made);

  // Its destroy finds every object (the fleet's members by its stored key too).
  await legacy.destroy();
  expect(liveObjects()).toMatchObject({ instances: [], volumes: [], webhooks: [] });
}, 300_000);
