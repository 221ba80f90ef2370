/**
 * Scenarios of a shared account, where a stack's instances are a few among many:
 * - refresh and preview of 10 instances in an account that also holds A others (A = 0, 100,
 *   500; half made before the stack, half after), where the cost must follow the stack, not A;
 * - a mixed `up`: 200 instances the stack already has, diffed (a preview of each), interleaved
 *   with the creation of 200 new ones, in one plugin process, as the engine may order them.
 * The unrelated and the existing instances are put on the simulator through its control API
 * (`POST /_sim/instances`), so setting up does not pay the creation rate limit.
 */
import { lowerBoundMs, serviceLimits, type BenchSettings } from "./limits";
import type { Cost } from "./measure";
import { ProviderRun, type InstanceState } from "./provider-run";
import type { SimProcess } from "./sim";

export interface AccountRow {
  /** Instances of the stack. */
  n: number;
  /** Other instances in the account. */
  others: number;
  refresh: Cost;
  diff: Cost;
  /** At most min(ceil(n/25)+1, n) + 1 calls. */
  callTarget: number;
}

export interface MixedRow {
  existing: number;
  created: number;
  cost: Cost;
  /** The least time the creates alone take under the limits. */
  boundMs: number;
  /** At most ceil(existing/25) + 2 list calls. */
  listTarget: number;
}

export const ACCOUNT_SIZES = [0, 100, 500];
const STACK = 10;

export async function accountRows(sim: SimProcess, settings: BenchSettings, progress: (line: string) => void): Promise<AccountRow[]> {
  const rows: AccountRow[] = [];
  for (const others of ACCOUNT_SIZES) {
    progress(`account with ${others} other instances: refresh and preview of ${STACK}`);
    await sim.reset();
    const provider = new ProviderRun(sim, settings);
    await provider.warmUp();
    if (others > 0) await sim.addInstances(Math.floor(others / 2), "other-stack");
    const { states } = await provider.create(STACK);
    if (others > 0) await sim.addInstances(others - Math.floor(others / 2), "other-stack");
    rows.push({
      n: STACK,
      others,
      refresh: await provider.refresh(states),
      diff: await provider.diff(states),
      callTarget: Math.min(Math.ceil(STACK / 25) + 1, STACK) + 1,
    });
  }
  return rows;
}

export async function mixedRow(sim: SimProcess, settings: BenchSettings, progress: (line: string) => void): Promise<MixedRow> {
  const existing = 200;
  const created = 200;
  progress(`mixed up: ${existing} existing instances diffed, ${created} created, interleaved`);
  await sim.reset();
  const provider = new ProviderRun(sim, settings);
  await provider.warmUp();
  const ids = await sim.addInstances(existing, "bench-existing");
  const states: InstanceState[] = await provider.existingStates(ids, { image: "ubuntu:22.04", label: "bench-existing" });
  const cost = await provider.mixedUp(states, created);
  return {
    existing,
    created,
    cost,
    boundMs: lowerBoundMs("create", created, serviceLimits(settings.scale), settings.latencyMs),
    listTarget: Math.ceil(existing / 25) + 2,
  };
}
