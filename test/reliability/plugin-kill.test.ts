/**
 * The fault matrix's "plugin killed mid-operation" column: the real dynamic-provider plugin
 * (packed and installed as users get it) is killed with SIGKILL while a create request is held
 * by the simulator's delay fault, the request then lands, and a new plugin runs the same
 * create. Afterwards the simulator must hold exactly the object the engine's state reports:
 * no orphan of the killed run, no duplicate (trust issue item 4).
 */
import { setTimeout as sleep } from "node:timers/promises";
import { dynamicUrn, type ProviderPlugin } from "../../testing/plugin";
import { scratchProject, startPlugin } from "../contract/harness";
import { consistency } from "./support/judge";
import { profile } from "./support/profile";
import { Rig, startRig } from "./support/rig";
import { SCENARIOS, SECRET_VALUES } from "./support/scenarios";

/** Resources whose create makes an object that bills or lingers. */
const CREATING = ["Template", "Instance", "SshKey", "MaintenanceWindow", "EnvVar", "ApiKey", "Volume", "NetworkVolume", "Endpoint", "WorkerGroup", "Webhook"];
/** How long the simulator holds the create: enough for the kill to land first. */
const HOLD_MS = 400;

const p = profile();
let rig: Rig;
const plugins: ProviderPlugin[] = [];

beforeAll(async () => {
  rig = await startRig(p, { apiKey: SECRET_VALUES.apiKey });
  scratchProject();
}, 600_000);
afterAll(async () => {
  await Promise.allSettled(ready);
  for (const plugin of plugins) await plugin.close().catch(() => undefined);
  await rig?.close();
});

async function start(): Promise<ProviderPlugin> {
  // The profile's polling as stack configuration (it wins over the harness's fast defaults).
  const started = await startPlugin({
    "vastai:apiKey": rig.sim.apiKey,
    "vastai:apiUrl": rig.sim.url,
    "vastai:runUrl": rig.sim.runUrl,
    "vastai:pollIntervalMs": String(p.pollIntervalMs),
    "vastai:lostResponseLookups": String(p.lostResponseLookups),
  });
  plugins.push(started);
  return started;
}

// Fresh plugins are started ahead, while a cell runs, so the column waits little for node to boot.
const ready: Promise<ProviderPlugin>[] = [];
let survivor: ProviderPlugin | undefined;

/** A fresh plugin process (nothing cached), as the engine starts for each run. */
function plugin(): Promise<ProviderPlugin> {
  while (ready.length < 2) ready.push(start());
  const next = ready.shift()!;
  ready.push(start());
  return next;
}

async function untilFaultTaken(): Promise<void> {
  for (let i = 0; i < 500 && (await rig.pendingFaults()).length > 0; i++) await sleep(5);
}

const kindOf = (name: string) => name[0].toLowerCase() + name.slice(1);

describe.each(SCENARIOS.filter((s) => CREATING.includes(s.name)).map((s) => [s.name, s] as const))("%s", (name, s) => {
  it("(4) a plugin killed mid-create, then the same create in a new plugin: no orphan, no duplicate", async () => {
    await rig.reset();
    const baseline = await rig.liveState();
    const context = (await s.prepare?.(rig)) ?? {};
    const urn = dynamicUrn("dev", "reliability", name, "killed");
    const news = { ...s.inputs(context), __provider: scratchProject().serialized[kindOf(name)], __identity: `reliability/dev/${name}/killed` };

    // The plugin that survived the previous cell is the one killed now: it served another kind,
    // so nothing it cached concerns this one, and the column needs one cold start per cell.
    const first = survivor ?? (await plugin());
    const checked = await first.check(urn, {}, news);
    expect(checked.failures).toEqual([]);
    const target = s.targets.create!;
    await rig.fault({ method: target.method, path: target.path, times: 1, delayMs: HOLD_MS });
    const lost = first.create(urn, checked.inputs).then(
      () => "finished",
      () => "killed",
    );
    await untilFaultTaken();
    process.kill(first.pid, "SIGKILL");
    expect(await lost).toBe("killed");
    // The held request is carried out after the kill.
    await sleep(HOLD_MS + 50);

    const second = await plugin();
    const again = await second.check(urn, {}, news);
    const made = await second.create(urn, again.inputs);
    const state = await rig.liveState();
    const problems = await consistency(rig, s, [{ id: made.id, outs: made.properties }], { state, baseline, before: baseline });
    survivor = second;
    expect(problems).toEqual([]);
  }, 120_000);
});
