/**
 * The cost report (`npx pulumi-vastai costs [state files]`): for each resource of the given
 * stacks that costs money (Instance, Fleet, Volume, NetworkVolume, Endpoint), what it costs per
 * hour now and what it has cost to date, from the service's live figures.
 *
 * Reads: the instance list once, the volume list once and the account's charges once (every
 * page of the range), whatever the number of stacks and resources; with endpoints, the worker
 * groups' list once and one workers call per group of those endpoints. The hourly cost is the live
 * row's, by the rule the resources' `hourlyCost` output follows (resources/kit/costs.ts): an
 * instance's `dph_total` (its disk alone while stopped, nothing once dead or gone), a volume's
 * storage cost per hour, a fleet's members' sum (with their volumes), an endpoint's workers'
 * sum. Spend to date is the sum
 * of the charges of the object (`instance-<id>`, `volume-<id>`; an endpoint's serverless
 * charges by `endpoint_id`; a fleet's members) since the range's start (`--since`, default 90
 * days back: the charges list needs a range).
 *
 * A field a row needs that is a Pulumi secret is opened when the export shows it (`pulumi stack
 * export --show-secrets`: plaintext); when it is encrypted, the row's figures are unknown (null),
 * never zero, and the row names the file, the resource and the field (`unreadable`), as the
 * orphan report's rule for secrets (export-read.ts) asks; the report then says so and exits 1.
 */
import type { VastClient } from "../client";
import { Spend, endpointKey, endpointWorkerIds, hourlyCostOf, rowsHourlyCost, instanceCostParts, instanceKey, round6, volumeHourlyCost, volumeKey } from "../resources/kit/costs";
import { readExport } from "./orphans";
import { isObject, openSecret, resourceLabel } from "./export-read";
import { endText, type EndingRow } from "./ends";
import { COSTED_TYPES, type CostRow } from "./cost-row";

export { COSTED_TYPES, type CostRow } from "./cost-row";

/** Type tokens of this package's resources in a state file. */
const TYPE_PREFIX = "pulumi-nodejs:dynamic/vastai:";
/** Days of charges read when `--since` is not given. */
export const DEFAULT_SINCE_DAYS = 90;

interface Held {
  stack: string;
  project: string;
  name: string;
  type: CostRow["type"];
  id: string;
  /** A fleet's members: instance and volume ids. */
  members: { id: number; volumeId?: number }[];
  /** Why its figures cannot be read from the state file (file, resource, field), when they cannot. */
  unreadable?: string;
}

/** A Fleet's members from its outputs (secrets opened when the export shows them), or the field that cannot be read and why. */
function fleetMembers(outputs: unknown): { members: Held["members"] } | { field: string; problem: string } {
  const out = openSecret(outputs);
  if ("problem" in out) return { field: "outputs", problem: out.problem };
  const list = openSecret(isObject(out.value) ? out.value.members : undefined);
  if ("problem" in list) return { field: "outputs.members", problem: list.problem };
  if (list.value === undefined || list.value === null) return { members: [] };
  if (!Array.isArray(list.value)) return { field: "outputs.members", problem: `is ${JSON.stringify(list.value)}, not a list` };
  const members: Held["members"] = [];
  for (const [i, value] of list.value.entries()) {
    const m = openSecret(value);
    if ("problem" in m) return { field: `outputs.members[${i}]`, problem: m.problem };
    if (!isObject(m.value)) continue;
    const id = openSecret(m.value.id);
    if ("problem" in id) return { field: `outputs.members[${i}].id`, problem: id.problem };
    const volumeId = openSecret(m.value.volumeId);
    if ("problem" in volumeId) return { field: `outputs.members[${i}].volumeId`, problem: volumeId.problem };
    const n = positive(id.value);
    if (n !== undefined) members.push({ id: n, volumeId: positive(volumeId.value) });
  }
  return { members };
}

function urnParts(urn: unknown): { stack: string; project: string; name: string } {
  // urn:pulumi:<stack>::<project>::<type>::<name>
  const m = typeof urn === "string" ? /^urn:pulumi:([^:]+)::([^:]+)::.*::([^:]*)$/.exec(urn) : null;
  return m ? { stack: m[1], project: m[2], name: m[3] } : { stack: "?", project: "?", name: "?" };
}

const positive = (v: unknown): number | undefined => {
  const n = typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v;
  return typeof n === "number" && Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

/** The costed resources of the given `pulumi stack export` files (read strictly, as the orphan report does). */
export function readCostedResources(files: readonly string[]): Held[] {
  const out: Held[] = [];
  for (const file of files) {
    readExport(file).forEach((r, index) => {
      if (typeof r.type !== "string" || !r.type.startsWith(TYPE_PREFIX)) return;
      const type = r.type.slice(TYPE_PREFIX.length) as CostRow["type"];
      if (!(COSTED_TYPES as readonly string[]).includes(type) || typeof r.id !== "string" || r.id === "") return;
      const read = type === "Fleet" ? fleetMembers(r.outputs) : { members: [] };
      const unreadable = "problem" in read ? `${file}: ${resourceLabel(r, index)}: \`${read.field}\` ${read.problem}: its hourly cost and spend are unknown` : undefined;
      out.push({ ...urnParts(r.urn), type, id: r.id, members: "members" in read ? read.members : [], ...(unreadable ? { unreadable } : {}) });
    });
  }
  return out;
}

/** Unix seconds of `--since`: ISO 8601 or Unix seconds; default DEFAULT_SINCE_DAYS back from `nowMs`. */
export function sinceOf(value: string | undefined, nowMs: number): number {
  if (value === undefined) return Math.floor(nowMs / 1000) - DEFAULT_SINCE_DAYS * 24 * 3600;
  const unix = /^\d+$/.test(value) ? Number(value) : Math.floor(Date.parse(value) / 1000);
  if (!Number.isFinite(unix) || unix <= 0 || unix > nowMs / 1000) {
    throw new Error(`--since: must be a past date (ISO 8601, such as 2026-01-01) or Unix seconds (got ${JSON.stringify(value)})`);
  }
  return unix;
}

/**
 * The costs of the given stacks' resources: three list reads in all (with endpoints, their
 * groups and workers too). Rows in file order. The
 * arithmetic is the resources' own (resources/kit/costs.ts), so a row shows what the
 * resource's `hourlyCost` and `spentUsd` outputs show.
 */
export async function findCosts(client: VastClient, held: readonly Held[], since: number): Promise<CostRow[]> {
  if (held.length === 0) return [];
  const [instances, volumes, charges] = await Promise.all([client.instances.listAll(), client.volumes.list(), client.billing.charges({ start: since })]);
  const instanceById = new Map(instances.map((i) => [i.id, i]));
  const volumeById = new Map(volumes.map((v) => [v.id, v]));
  const spend = new Spend(charges);
  // An endpoint costs what its workers do: the groups' list once, one workers call per group of a listed endpoint.
  const endpoints = held.filter((h) => h.type === "Endpoint");
  const groups = endpoints.length > 0 ? await client.workerGroups.list() : [];
  const workersOf = new Map<string, number[]>();
  for (const e of endpoints) if (positive(e.id) !== undefined) workersOf.set(e.id, await endpointWorkerIds(client, Number(e.id), groups));
  const instanceCost = (id: number, volumeId?: number) =>
    hourlyCostOf({ ...instanceCostParts(instanceById.get(id)), volumePerHour: volumeId === undefined ? 0 : volumeHourlyCost(volumeById.get(volumeId)) });
  return held.map((h): CostRow => {
    const base = { stack: h.stack, project: h.project, name: h.name, type: h.type, id: h.id };
    // Unknown, never zero: what it needs from the state file could not be read.
    if (h.unreadable !== undefined) return { ...base, hourlyCost: null, spentUsd: null, unreadable: h.unreadable };
    switch (h.type) {
      case "Instance":
        return { ...base, hourlyCost: round6(instanceCost(Number(h.id))), spentUsd: spend.of(instanceKey(h.id)) };
      case "Volume":
      case "NetworkVolume":
        return { ...base, hourlyCost: round6(volumeHourlyCost(volumeById.get(Number(h.id)))), spentUsd: spend.of(volumeKey(h.id)) };
      case "Endpoint":
        return { ...base, hourlyCost: rowsHourlyCost((workersOf.get(h.id) ?? []).map((w) => instanceById.get(w))), spentUsd: spend.of(endpointKey(h.id)) };
      case "Fleet":
        return {
          ...base,
          hourlyCost: round6(h.members.reduce((sum, m) => sum + instanceCost(m.id, m.volumeId), 0)),
          spentUsd: spend.of(...h.members.flatMap((m) => [instanceKey(m.id), ...(m.volumeId === undefined ? [] : [volumeKey(m.volumeId)])])),
        };
    }
  });
}

/**
 * The report as a text table, with a total per stack; with ends (ends.ts), when each stops and its
 * cost by then. A figure that could not be read from the state file shows `?`, and a stack total
 * without it `+ ?`.
 */
export function costTable(rows: readonly (CostRow & Partial<EndingRow>)[]): string {
  const money = (n: number | null, unit = "") => (n === null ? "-" : `$${n.toFixed(3)}${unit}`);
  const unknown = (r: CostRow) => r.spentUsd === null;
  const figure = (r: CostRow, n: number | null, unit = "") => (unknown(r) ? "?" : money(n, unit));
  const ending = rows.some((r) => r.endsAt !== undefined);
  const ends = (r: CostRow & Partial<EndingRow>) =>
    ending ? [r.endUnreadable ? "?" : r.endsAt === undefined ? "-" : endText(r as EndingRow), r.endUnreadable || unknown(r) ? "?" : money(r.costByEnd ?? null)] : [];
  const lines = [["STACK", "TYPE", "NAME", "ID", "HOURLY", "SPENT", ...(ending ? ["ENDS", "BY END"] : [])]];
  const stacks = [...new Set(rows.map((r) => `${r.project}/${r.stack}`))];
  for (const s of stacks) {
    const mine = rows.filter((r) => `${r.project}/${r.stack}` === s);
    for (const r of mine) lines.push([s, r.type, r.name, r.id, figure(r, r.hourlyCost, "/h"), figure(r, r.spentUsd), ...ends(r)]);
    const hourly = mine.reduce((sum, r) => sum + (r.hourlyCost ?? 0), 0);
    const partial = mine.some(unknown) ? " + ?" : "";
    lines.push([s, "(total)", "", "", money(hourly, "/h") + partial, money(mine.reduce((sum, r) => sum + (r.spentUsd ?? 0), 0)) + partial, ...(ending ? ["", ""] : [])]);
  }
  const widths = lines[0].map((_, i) => Math.max(...lines.map((l) => l[i].length)));
  return lines.map((l) => l.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd()).join("\n");
}
