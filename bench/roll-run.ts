/**
 * Rolls and offer searches (issue 28 items 2 and 3), each in fresh plugin processes with the
 * provider's default settings (a 10 s status poll):
 * - fleet roll: a Fleet of 5 (minHealthy 4) changes its image, so its members are updated in
 *   place one at a time; against a simulator of its own whose boots take ROLL_BOOT_MS. Bound:
 *   the sum of the boots.
 * - instance updates: 5 Instances change their image at once (the engine's parallel updates);
 *   bound: the update calls at the service's interval, then one boot.
 * - search rows: SEARCH_CREATES Instances made from the same offer filters, 10 at once, on the
 *   main simulator; the rows every offer search asked for (its `limit`), from the request log.
 */
import { providers, type LoggedRequest } from "./deps";
import { idle, serviceLimits, type BenchSettings } from "./limits";
import { costOf, pool, type Cost } from "./measure";
import { freshProcess } from "./provider-run";
import { startSimProcess, type SimProcess } from "./sim";

type Props = Record<string, unknown>;

const fleet = providers.fleet as Required<typeof providers.fleet>;
const instance = providers.instance as Required<typeof providers.instance>;

/** Boot time of the roll scenarios' simulator, ms (the issue's measurement: 2 s boots). */
export const ROLL_BOOT_MS = 2000;
export const ROLL_MEMBERS = 5;
export const SEARCH_CREATES = 150;

const UPDATE = /^\/api\/v0\/instances\/update_template\/\d+\/?$/;
const CREATE = /^\/api\/v0\/asks\/\d+\/?$/;
const SEARCH = /^\/api\/v0\/bundles\/?$/;

export interface RollRow {
  /** The fleet's one-at-a-time in-place roll. */
  fleet: Cost;
  fleetBoundMs: number;
  fleetUpdates: number;
  /** Instances updated in place at once. */
  instances: Cost;
  instancesBoundMs: number;
  instanceUpdates: number;
  members: number;
  bootMs: number;
}

export interface SearchRow {
  creates: number;
  /** Rows each search asked for, in order. */
  rows: number[];
  distinctOffers: number;
  /** Creates refused because the offer was taken (404/410). */
  offersLost: number;
  cost: Cost;
}

async function checkedWith(p: typeof fleet | typeof instance, news: Props, olds: Props = {}): Promise<Props> {
  const { inputs, failures } = await p.check(olds, { __provider: "bench", ...news });
  if (failures && failures.length > 0) throw new Error(`check failed: ${failures.map((f) => f.reason).join("; ")}`);
  return inputs as Props;
}

async function timed<T>(sim: SimProcess, work: () => Promise<T>): Promise<{ value: T; log: LoggedRequest[]; timeMs: number }> {
  await sim.clearLog();
  const started = performance.now();
  const value = await work();
  const timeMs = performance.now() - started;
  return { value, log: await sim.log(), timeMs };
}

/** The fleet roll and the Instance updates, on a simulator of their own with ROLL_BOOT_MS boots. */
export async function rollRow(settings: BenchSettings, progress: (line: string) => void): Promise<RollRow> {
  const limits = serviceLimits(settings.scale);
  const sim = await startSimProcess({ rateLimits: limits, latencyMs: settings.latencyMs, bootMs: ROLL_BOOT_MS });
  try {
    progress(`roll: a fleet of ${ROLL_MEMBERS} rolled in place one at a time, ${ROLL_MEMBERS} Instances updated at once (${ROLL_BOOT_MS} ms boots)`);
    const spec = { __identity: "bench/dev/vastai:index:Fleet/rolled", count: ROLL_MEMBERS, minHealthy: ROLL_MEMBERS - 1, offer: { numGpus: 1 }, image: "pytorch/pytorch" };
    freshProcess(sim, settings);
    const made = await fleet.create(await checkedWith(fleet, spec));
    const outs = made.outs as Props;
    freshProcess(sim, settings);
    await idle(settings, true);
    const news = await checkedWith(fleet, { ...spec, image: "vllm/vllm-openai:latest" }, outs);
    const rolled = await timed(sim, () => fleet.update(made.id, outs, news));
    const members = (rolled.value.outs as Props).members as { status: string }[];
    if (members.some((m) => m.status !== "running")) throw new Error("the rolled fleet has members that do not run");
    freshProcess(sim, settings);
    await fleet.delete(made.id, rolled.value.outs as Props);

    freshProcess(sim, settings);
    const created: { id: string; outs: Props; args: Props }[] = [];
    for (let i = 0; i < ROLL_MEMBERS; i++) {
      const args = { offer: { numGpus: 1 }, image: "pytorch/pytorch", label: `rolled-${i}` };
      const r = await instance.create(await checkedWith(instance, args));
      created.push({ id: r.id, outs: r.outs as Props, args });
    }
    freshProcess(sim, settings);
    await idle(settings, true);
    const updates = await Promise.all(created.map(async (c) => ({ ...c, news: await checkedWith(instance, { ...c.args, image: "nginx" }) })));
    const updated = await timed(sim, () => pool(updates, settings.parallel, async (u) => void (await instance.update(u.id, u.outs, u.news))));
    freshProcess(sim, settings);
    for (const c of created) await instance.delete(c.id, c.outs);
    const interval = limits["PUT /api/v0/instances/update_template/{id}"] ?? 0;
    return {
      fleet: costOf(rolled.log, rolled.timeMs, { failures: 0 }),
      fleetBoundMs: ROLL_MEMBERS * ROLL_BOOT_MS,
      fleetUpdates: rolled.log.filter((r) => r.method === "PUT" && UPDATE.test(r.path)).length,
      instances: costOf(updated.log, updated.timeMs, updated.value),
      instancesBoundMs: (ROLL_MEMBERS - 1) * interval + settings.latencyMs + ROLL_BOOT_MS,
      instanceUpdates: updated.log.filter((r) => r.method === "PUT" && UPDATE.test(r.path)).length,
      members: ROLL_MEMBERS,
      bootMs: ROLL_BOOT_MS,
    };
  } finally {
    await sim.close();
  }
}

/** SEARCH_CREATES Instances from the same offer filters in one process, 10 at once. */
export async function searchRow(sim: SimProcess, settings: BenchSettings, progress: (line: string) => void): Promise<SearchRow> {
  progress(`search rows: ${SEARCH_CREATES} Instances from the same offer filters`);
  await sim.reset();
  freshProcess(sim, settings);
  await idle(settings, true);
  const made: { id: string; outs: Props }[] = [];
  const indexes = Array.from({ length: SEARCH_CREATES }, (_, i) => i);
  const run = await timed(sim, () =>
    pool(indexes, settings.parallel, async (i) => {
      // No identity, as the stack rows' Instances: the offer search is what is measured, not the look-up of a killed run's instance.
      const r = await instance.create(await checkedWith(instance, { offer: { numGpus: 1 }, image: "pytorch/pytorch", label: `search-${i}` }));
      made.push({ id: r.id, outs: r.outs as Props });
    }),
  );
  freshProcess(sim, settings);
  await pool(made, settings.parallel, async (m) => void (await instance.delete(m.id, m.outs)));
  const searches = run.log.filter((r) => r.method === "POST" && SEARCH.test(r.path));
  return {
    creates: SEARCH_CREATES,
    rows: searches.map((r) => Number((r.body as { limit?: unknown } | null)?.limit ?? 0)),
    distinctOffers: new Set(made.map((m) => m.outs.offerId)).size,
    offersLost: run.log.filter((r) => r.method === "PUT" && CREATE.test(r.path) && (r.status === 404 || r.status === 410)).length,
    cost: costOf(run.log, run.timeMs, run.value),
  };
}
