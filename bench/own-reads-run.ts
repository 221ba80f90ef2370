/**
 * Reads that follow the stack, never the account (issue 28 items 1 and 4):
 * - fleet account: a Fleet of 10 in an account that also holds `others` instances of other
 *   stacks: its create, refresh (read), preview (diff) and destroy, each in a fresh process,
 *   each at most ceil(10/25)+2 list calls;
 * - scattered: 100 instances of a stack, each after one of another stack's, refreshed and
 *   previewed with the engine's `parallel` operations at once; then 10 of them replaced by new
 *   ones at the end of the id range (what a heal leaves) and previewed again: each at most
 *   ceil(100/25)+2 list calls.
 * Other instances are put on the simulator through its control API (`POST /_sim/instances`).
 */
import { providers } from "./deps";
import { idle, type BenchSettings } from "./limits";
import { costOf, type Cost } from "./measure";
import { ProviderRun, freshProcess, type InstanceState } from "./provider-run";
import type { SimProcess } from "./sim";

type Props = Record<string, unknown>;

const fleet = providers.fleet as Required<typeof providers.fleet>;

export const FLEET_ACCOUNT_MEMBERS = 10;
export const SCATTERED = 100;
export const SCATTERED_HEALED = 10;

export interface FleetAccountRow {
  members: number;
  others: number;
  create: Cost;
  refresh: Cost;
  preview: Cost;
  destroy: Cost;
  /** ceil(members/25) + 2. */
  listTarget: number;
}

export interface ScatteredRow {
  n: number;
  parallel: number;
  refresh: Cost;
  preview: Cost;
  /** A preview after 10 of the n were replaced by new instances (the end of the id range). */
  previewAfterHeal: Cost;
  /** ceil(n/25) + 2. */
  listTarget: number;
}

async function checkedFleet(news: Props, olds: Props = {}): Promise<Props> {
  const { inputs, failures } = await fleet.check(olds, news);
  if (failures && failures.length > 0) throw new Error(`check failed: ${failures.map((f) => f.reason).join("; ")}`);
  return inputs as Props;
}

/** One operation in a fresh process (a new pulumi command), its calls counted. */
async function timed<T>(sim: SimProcess, settings: BenchSettings, work: () => Promise<T>): Promise<{ value: T; cost: Cost }> {
  freshProcess(sim, settings);
  await idle(settings, true);
  await sim.clearLog();
  const started = performance.now();
  const value = await work();
  const timeMs = performance.now() - started;
  return { value, cost: costOf(await sim.log(), timeMs, { failures: 0 }) };
}

export async function fleetAccountRow(sim: SimProcess, settings: BenchSettings, others: number, progress: (line: string) => void): Promise<FleetAccountRow> {
  const m = FLEET_ACCOUNT_MEMBERS;
  progress(`fleet account: a fleet of ${m} among ${others} other instances: create, refresh, preview, destroy`);
  await sim.reset();
  if (others > 0) await sim.addInstances(others, "other-stack");
  const args = { __provider: "bench", __identity: "bench/dev/vastai:index:Fleet/account", count: m, offer: { numGpus: 1 }, image: "pytorch/pytorch" };
  const made = await timed(sim, settings, async () => fleet.create(await checkedFleet(args)));
  const id = made.value.id;
  const outs = made.value.outs as Props;
  const read = await timed(sim, settings, () => fleet.read(id, outs));
  const preview = await timed(sim, settings, async () => fleet.diff(id, outs, await checkedFleet(args, outs)));
  if (preview.value.changes) throw new Error("the preview of an unchanged fleet shows changes");
  const destroy = await timed(sim, settings, () => fleet.delete(id, outs));
  return { members: m, others, create: made.cost, refresh: read.cost, preview: preview.cost, destroy: destroy.cost, listTarget: Math.ceil(m / 25) + 2 };
}

export async function scatteredRow(sim: SimProcess, settings: BenchSettings, progress: (line: string) => void): Promise<ScatteredRow> {
  const n = SCATTERED;
  progress(`scattered: ${n} instances, each after one of another stack's, ${settings.parallel} operations at once`);
  await sim.reset();
  const provider = new ProviderRun(sim, settings);
  await provider.warmUp();
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    await sim.addInstances(1, "other-stack");
    ids.push(...(await sim.addInstances(1, "bench-scattered")));
  }
  const args = { image: "ubuntu:22.04", label: "bench-scattered" };
  let states: InstanceState[] = await provider.existingStates(ids, args);
  const refresh = await provider.refresh(states);
  const preview = await provider.diff(states);
  // A heal: 10 of them replaced by new instances, made after everything else in the account
  // (the replaced ones stay on the account, with the stack's label, and are not asked for).
  const healed = states.filter((_, i) => i % (n / SCATTERED_HEALED) === 5);
  await sim.addInstances(SCATTERED_HEALED * 3, "other-stack");
  const fresh = await sim.addInstances(SCATTERED_HEALED, "bench-scattered");
  const replacements = await provider.existingStates(fresh, args);
  states = [...states.filter((s) => !healed.includes(s)), ...replacements];
  const previewAfterHeal = await provider.diff(states);
  return { n, parallel: settings.parallel, refresh, preview, previewAfterHeal, listTarget: Math.ceil(n / 25) + 2 };
}
