/** The benchmark's results: the table for people, the targets, and the JSON for machines. */
import type { AccountRow, MixedRow } from "./account-run";
import type { FleetRow } from "./fleet-run";
import { ownReadsLines, ownReadsTargets, type FleetAccountRow, type ScatteredRow } from "./own-reads-report";
import type { RollRow, SearchRow } from "./roll-run";
import type { Operation } from "./limits";
import type { Cost } from "./measure";
import type { ColdStart } from "./plugin";
import { secs, type Target } from "./target";

export type { Target };

export interface Row {
  n: number;
  op: Operation;
  provider: Cost;
  naive: Cost;
  boundMs: number;
}

export interface Results {
  settings: { scale: number; latencyMs: number; parallel: number; sizes: number[]; limits: Record<string, number> };
  rows: Row[];
  /** Refresh and preview of a stack among other instances of the account. */
  account?: AccountRow[];
  /** One up that diffs existing instances and creates new ones, interleaved. */
  mixed?: MixedRow;
  /** A fleet of 100 created, then healed of 10 dead members in one up. */
  fleet?: FleetRow;
  /** A fleet of 10 among many other instances: create, refresh, preview, destroy. */
  fleetAccount?: FleetAccountRow;
  /** 100 instances scattered among others' instances, read `parallel` at once. */
  scattered?: ScatteredRow;
  /** A fleet rolled in place one member at a time, and Instances updated in place at once. */
  roll?: RollRow;
  /** Instances created from the same offer filters: the rows their offer searches asked for. */
  search?: SearchRow;
  targets: Target[];
  serializedBytes: Record<string, number>;
  coldStart?: ColdStart;
  setup: { installMs: number };
  totalMs: number;
}

const ms = (v: number) => `${Math.round(v)} ms`;

function pad(cells: string[], widths: number[], right: boolean[]): string {
  return cells.map((c, i) => (right[i] ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join("  ");
}

function table(header: string[], rows: string[][], right: boolean[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const rule = widths.map((w) => "-".repeat(w)).join("  ");
  return [pad(header, widths, right), rule, ...rows.map((r) => pad(r, widths, right))].join("\n");
}

/**
 * The pace of a create row: the mean time between two creations over the service's creation
 * interval (1.00 is the limit itself), from the row's time less the fixed cost of the last call
 * chain (two responses, as in the bound). Undefined for other rows and for N = 1.
 */
export function createPace(r: Row, settings: Pick<Results["settings"], "latencyMs" | "limits">): number | undefined {
  const limit = settings.limits.create;
  if (r.op !== "create" || r.n < 2 || !(limit > 0)) return undefined;
  return (r.provider.timeMs - 2 * settings.latencyMs) / (r.n - 1) / limit;
}

export function operationsTable(rows: Row[], settings?: Pick<Results["settings"], "latencyMs" | "limits">): string {
  const header = ["N", "operation", "calls", "writes", "429", "time", "x bound", "pace", "naive calls", "naive 429", "naive time", "bound"];
  const cells = rows.map((r) => [
    String(r.n),
    r.op,
    String(r.provider.calls),
    String(r.provider.writes),
    String(r.provider.refused),
    secs(r.provider.timeMs) + (r.provider.failures ? ` (${r.provider.failures} failed)` : ""),
    (r.provider.timeMs / r.boundMs).toFixed(2),
    (settings && createPace(r, settings)?.toFixed(3)) ?? "",
    String(r.naive.calls),
    String(r.naive.refused),
    secs(r.naive.timeMs) + (r.naive.failures ? ` (${r.naive.failures} failed)` : ""),
    secs(r.boundMs),
  ]);
  return table(header, cells, header.map((_, i) => i !== 1));
}

function accountTable(rows: AccountRow[]): string {
  const header = ["stack", "others", "refresh calls", "refresh time", "preview calls", "preview time", "target calls"];
  const cells = rows.map((r) => [String(r.n), String(r.others), String(r.refresh.calls), secs(r.refresh.timeMs), String(r.diff.calls), secs(r.diff.timeMs), `<= ${r.callTarget}`]);
  return table(header, cells, header.map(() => true));
}

function mixedLine(m: MixedRow): string {
  const c = m.cost;
  return (
    `mixed up (${m.existing} existing diffed + ${m.created} created, interleaved): ${c.listCalls} list calls (target <= ${m.listTarget}), ` +
    `${c.calls} calls, ${c.refused} refused, ${c.failures} failed, ${secs(c.timeMs)} = ${(c.timeMs / m.boundMs).toFixed(2)}x the bound of its creates (${secs(m.boundMs)})`
  );
}

function fleetLines(f: FleetRow): string[] {
  const c = f.create;
  const h = f.heal;
  return [
    `fleet of ${f.members} created: ${c.calls} calls (${c.listCalls} list), ${c.refused} refused, ${f.offersLost} offers lost, ` +
      `${f.distinctOffers} distinct offers, ${secs(c.timeMs)} = ${(c.timeMs / f.createBoundMs).toFixed(2)}x the bound (${secs(f.createBoundMs)})`,
    `fleet heal of ${f.dead} dead of ${f.members} in one up (diff + update): ${h.listCalls} list calls (target <= ${f.healListTarget}), ` +
      `${f.healCreates} creates, ${h.calls} calls, ${h.refused} refused, ${secs(h.timeMs)}`,
  ];
}

export function formatResults(r: Results): string {
  const s = r.settings;
  const lines = [
    "pulumi-vastai benchmark: Instance operations through the provider vs. a naive client, against the simulator",
    `rate limits: the realistic table x${s.scale} (create, one-instance read, destroy every ${s.limits.create} ms; paged list every ${s.limits.page} ms)`,
    `latency: ${s.latencyMs} ms added to every response; ${s.parallel} resource operations at once`,
    "",
    operationsTable(r.rows, s),
    "",
    "calls/writes/429/time: the provider; naive: one call per read, no pacing, 429s retried; bound: the least time the rate limits allow",
    "pace (creates): mean time between two creations over the service's interval (1.000 is the limit), the last call chain left out",
    "",
    ...(r.account ? ["a stack of 10 in a shared account (others: instances of other stacks, half made before, half after)", accountTable(r.account), ""] : []),
    ...(r.mixed ? [mixedLine(r.mixed), ""] : []),
    ...(r.fleet ? [...fleetLines(r.fleet), ""] : []),
    ...ownReadsLines(r.fleetAccount, r.scattered),
    ...(r.search ? [searchLine(r.search), ""] : []),
    ...(r.roll ? [...rollLines(r.roll), ""] : []),
    "targets",
    ...r.targets.map((t) => `  ${t.pass ? "PASS" : "FAIL"}  ${t.name}: ${t.detail}`),
    "",
    `serialized provider (__provider) size, bytes: ${Object.entries(r.serializedBytes).map(([k, v]) => `${k} ${v}`).join(", ")}`,
  ];
  const c = r.coldStart;
  if (c) {
    lines.push(
      `plugin cold start, one operation (spawn to the first read's answer): ${ms(c.coldOperationMs)} ` +
        `(plugin up ${ms(c.startMs)}, configure ${ms(c.configureMs)}, first read ${ms(c.firstReadMs)}; a second read ${ms(c.warmReadMs)})`,
    );
  }
  lines.push(`scratch project install: ${r.setup.installMs > 0 ? secs(r.setup.installMs) : "reused"}; benchmark run: ${secs(r.totalMs)}`);
  return lines.join("\n");
}

/**
 * The smallest stack held to the 1.05x create pace: below it the fixed cost of the last call
 * chain (a few ms of each response over the added latency) weighs too much, and 1.15x applies.
 */
export const PACE_MIN_N = 50;

/** The most a create of `n` instances may take, as a multiple of its bound. */
export function createRatio(n: number): number {
  return n >= PACE_MIN_N ? 1.05 : 1.15;
}

/** The targets, judged on the provider's rows and the shared-account scenarios. */
export function judge(results: Pick<Results, "rows" | "account" | "mixed" | "fleet" | "fleetAccount" | "scattered" | "roll" | "search">, refreshTarget: (n: number) => number): Target[] {
  const rows = results.rows;
  const of = (op: Operation) => rows.filter((r) => r.op === op);
  const refresh = of("refresh").map((r) => ({ r, limit: refreshTarget(r.n) }));
  const create = of("create");
  const diff = of("diff");
  return [
    {
      name: "refresh of N instances uses at most ceil(N/25)+1 list calls",
      pass: refresh.every(({ r, limit }) => r.provider.listCalls <= limit && r.provider.failures === 0),
      detail: refresh.map(({ r, limit }) => `N=${r.n}: ${r.provider.listCalls} <= ${limit}`).join(", "),
    },
    {
      name: `create pace: creating N instances takes <= 1.05x the bound (<= 1.15x for N < ${PACE_MIN_N}), 0 refused, 0 failed`,
      pass: create.every((r) => r.provider.timeMs <= createRatio(r.n) * r.boundMs && r.provider.failures === 0 && r.provider.refused === 0),
      detail: create
        .map((r) => `N=${r.n}: ${(r.provider.timeMs / r.boundMs).toFixed(2)}x (<= ${createRatio(r.n)}), ${r.provider.failures} failed, ${r.provider.refused} refused`)
        .join("; "),
    },
    {
      name: "a no-op diff makes zero writes",
      pass: diff.every((r) => r.provider.writes === 0 && r.provider.failures === 0),
      detail: diff.map((r) => `N=${r.n}: ${r.provider.writes} writes`).join(", "),
    },
    ...accountTargets(results.account, results.mixed),
    ...fleetTargets(results.fleet),
    ...ownReadsTargets(results.fleetAccount, results.scattered),
    ...rollTargets(results.roll),
    ...searchTargets(results.search),
  ];
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

function searchLine(s: SearchRow): string {
  return (
    `search rows: ${s.creates} Instances from the same offer filters: ${s.rows.length} searches, ${sum(s.rows)} rows asked ` +
    `(${(sum(s.rows) / s.creates).toFixed(2)} per create; first ${s.rows[0] ?? 0}, largest ${Math.max(0, ...s.rows)}), ` +
    `${s.distinctOffers} distinct offers, ${s.offersLost} lost, ${s.cost.calls} calls, ${secs(s.cost.timeMs)}`
  );
}

function rollLines(r: RollRow): string[] {
  return [
    `roll of a fleet of ${r.members}, in place one at a time (${r.bootMs} ms boots): ${r.fleetUpdates} updates, ${r.fleet.calls} calls ` +
      `(${r.fleet.listCalls} list), ${r.fleet.refused} refused, ${secs(r.fleet.timeMs)} = ${(r.fleet.timeMs / r.fleetBoundMs).toFixed(2)}x the sum of its boots (${secs(r.fleetBoundMs)})`,
    `in-place roll of ${r.members} Instances at once: ${r.instanceUpdates} updates, ${r.instances.calls} calls (${r.instances.listCalls} list), ` +
      `${r.instances.refused} refused, ${secs(r.instances.timeMs)} = ${(r.instances.timeMs / r.instancesBoundMs).toFixed(2)}x the bound (${secs(r.instancesBoundMs)}: the paced updates, then one boot)`,
  ];
}

function rollTargets(r: RollRow | undefined): Target[] {
  if (!r) return [];
  return [
    {
      name: `a fleet roll of ${r.members} members one at a time takes at most 1.2x the sum of its boots, with default settings`,
      pass: r.fleet.timeMs <= 1.2 * r.fleetBoundMs && r.fleetUpdates === r.members && r.fleet.refused === 0,
      detail: `${(r.fleet.timeMs / r.fleetBoundMs).toFixed(2)}x, ${r.fleetUpdates} updates, ${r.fleet.calls} calls, ${r.fleet.refused} refused`,
    },
    {
      name: `an in-place roll of ${r.members} Instances at once takes at most 1.2x its bound (paced updates, then one boot)`,
      pass: r.instances.timeMs <= 1.2 * r.instancesBoundMs && r.instanceUpdates === r.members && r.instances.failures === 0 && r.instances.refused === 0,
      detail: `${(r.instances.timeMs / r.instancesBoundMs).toFixed(2)}x, ${r.instances.calls} calls, ${r.instances.failures} failed, ${r.instances.refused} refused`,
    },
  ];
}

function searchTargets(s: SearchRow | undefined): Target[] {
  if (!s) return [];
  const perCreate = sum(s.rows) / s.creates;
  const first = s.rows[0] ?? 0;
  const largest = Math.max(0, ...s.rows);
  return [
    {
      name: `offer search rows per create stay constant for ${s.creates} creates (<= 5 on average, no search over 2x the first), 0 offers rented twice`,
      pass: perCreate <= 5 && largest <= 2 * first && s.distinctOffers === s.creates && s.offersLost === 0 && s.cost.failures === 0,
      detail: `${perCreate.toFixed(2)} rows per create, largest ${largest} vs first ${first}, ${s.distinctOffers} distinct offers, ${s.offersLost} lost, ${s.cost.failures} failed`,
    },
  ];
}

function accountTargets(account: AccountRow[] | undefined, mixed: MixedRow | undefined): Target[] {
  const out: Target[] = [];
  if (account) {
    out.push({
      name: "refresh and preview of N instances cost at most min(ceil(N/25)+1, N)+1 calls, whatever else the account holds",
      pass: account.every((r) => r.refresh.calls <= r.callTarget && r.diff.calls <= r.callTarget && r.refresh.failures + r.diff.failures === 0),
      detail: account.map((r) => `others=${r.others}: refresh ${r.refresh.calls}, preview ${r.diff.calls} <= ${r.callTarget}`).join("; "),
    });
  }
  if (mixed) {
    const c = mixed.cost;
    out.push({
      name: "a mixed up of 200 existing + 200 new: list calls <= ceil(200/25)+2, time <= 1.15x the bound of its writes, 0 refused",
      pass: c.listCalls <= mixed.listTarget && c.timeMs <= 1.15 * mixed.boundMs && c.refused === 0 && c.failures === 0,
      detail: `${c.listCalls} list calls, ${(c.timeMs / mixed.boundMs).toFixed(2)}x, ${c.refused} refused, ${c.failures} failed`,
    });
  }
  return out;
}

function fleetTargets(f: FleetRow | undefined): Target[] {
  if (!f) return [];
  const c = f.create;
  const h = f.heal;
  return [
    {
      name: `a fleet of ${f.members} is created at <= 1.15x the bound, with 0 refused calls and 0 lost offers`,
      pass: c.timeMs <= 1.15 * f.createBoundMs && c.refused === 0 && f.offersLost === 0 && f.distinctOffers === f.members,
      detail: `${(c.timeMs / f.createBoundMs).toFixed(2)}x, ${c.refused} refused, ${f.offersLost} lost, ${f.distinctOffers} distinct offers`,
    },
    {
      name: `healing ${f.dead} dead members of ${f.members} in one up costs <= ceil(${f.members}/25)+1 list calls and ${f.dead} creates`,
      pass: h.listCalls <= f.healListTarget && f.healCreates === f.dead && h.refused === 0,
      detail: `${h.listCalls} list calls, ${f.healCreates} creates, ${h.refused} refused`,
    },
  ];
}
