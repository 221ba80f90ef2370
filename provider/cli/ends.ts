/**
 * When each costed object stops or expires, and what it will have cost by then, for the cost
 * report (costs.ts): from the state files, with no further read.
 *
 * - An Instance or Fleet with `ttl`/`expiresAt` ends at its `deadline` (state: fixed at create),
 *   by its `expireAction` (destroy by default, or stop). By then it will have cost what it has
 *   cost to date plus its hourly cost now for the hours left (`costByEnd`); one past its
 *   deadline shows what it cost to date.
 * - With `autostop` alone the end is not a time: it stops after that many idle minutes
 *   (`idleStopMinutes`); nothing is projected.
 * - Anything else runs until someone stops it: no end.
 *
 * A field of these that is a Pulumi secret is opened when the export shows it (plaintext); an
 * encrypted one leaves the end unknown (`endUnreadable` names the file, resource and field),
 * never "no end".
 */
import { round6 } from "../resources/kit/costs";
import type { CostRow } from "./cost-row";
import { openSecret, resourceLabel } from "./export-read";
import { readExport } from "./orphans";

const TYPE_PREFIX = "pulumi-nodejs:dynamic/vastai:";

/** What a state entry says of its end. */
export interface EndOf {
  /** ISO 8601 UTC deadline, or null without one. */
  endsAt: string | null;
  /** What happens at it: destroy or stop (null without a deadline). */
  endAction: "stop" | "destroy" | null;
  /** With autostop: the idle minutes after which its guard stops (or destroys) it. */
  idleStopMinutes: number | null;
  /** Why the end could not be read from the state file (an encrypted secret), naming file, resource and field. */
  endUnreadable?: string;
}

/** The cost row with its end and the cost by then. */
export interface EndingRow extends CostRow, EndOf {
  /** $ it will have cost by `endsAt` (spent to date + hourly cost now x hours left); null without a deadline. */
  costByEnd: number | null;
}

/** The ends of the resources of the given `pulumi stack export` files, by type and id. */
export function readEnds(files: readonly string[]): Map<string, EndOf> {
  const out = new Map<string, EndOf>();
  for (const file of files) {
    readExport(file).forEach((r, index) => {
      if (typeof r.type !== "string" || !r.type.startsWith(TYPE_PREFIX) || typeof r.id !== "string") return;
      const key = `${r.type.slice(TYPE_PREFIX.length)}/${r.id}`;
      const read = endFields(r.outputs);
      if ("problem" in read) {
        const endUnreadable = `${file}: ${resourceLabel(r, index)}: \`${read.field}\` ${read.problem}: its end is unknown`;
        out.set(key, { endsAt: null, endAction: null, idleStopMinutes: null, endUnreadable });
        return;
      }
      const { deadline: rawDeadline, expireAction, autostop } = read;
      const deadline = typeof rawDeadline === "string" && Number.isFinite(Date.parse(rawDeadline)) ? rawDeadline : null;
      out.set(key, {
        endsAt: deadline,
        endAction: deadline === null ? null : expireAction === "stop" ? "stop" : "destroy",
        idleStopMinutes: autostop && typeof autostop.idleMinutes === "number" ? autostop.idleMinutes : null,
      });
    });
  }
  return out;
}

/** The outputs an end is read from, secrets opened when the export shows them; or the field that cannot be read and why. */
function endFields(outputs: unknown): { deadline: unknown; expireAction: unknown; autostop: { idleMinutes?: unknown } | undefined } | { field: string; problem: string } {
  const opened = openSecret(outputs ?? {});
  if ("problem" in opened) return { field: "outputs", problem: opened.problem };
  const o = (typeof opened.value === "object" && opened.value !== null ? opened.value : {}) as Record<string, unknown>;
  const values: Record<string, unknown> = {};
  for (const name of ["deadline", "expireAction", "autostop"]) {
    const v = openSecret(o[name]);
    if ("problem" in v) return { field: `outputs.${name}`, problem: v.problem };
    values[name] = v.value;
  }
  const autostop = typeof values.autostop === "object" && values.autostop !== null ? (values.autostop as Record<string, unknown>) : undefined;
  const idle = openSecret(autostop?.idleMinutes);
  if ("problem" in idle) return { field: "outputs.autostop.idleMinutes", problem: idle.problem };
  return { deadline: values.deadline, expireAction: values.expireAction, autostop: autostop ? { idleMinutes: idle.value } : undefined };
}

/** Each row with its end and what it will have cost by then (at `nowMs`). */
export function withEnds(rows: readonly CostRow[], ends: ReadonlyMap<string, EndOf>, nowMs: number): EndingRow[] {
  return rows.map((r) => {
    const end = ends.get(`${r.type}/${r.id}`) ?? { endsAt: null, endAction: null, idleStopMinutes: null };
    const hoursLeft = end.endsAt === null ? null : Math.max(0, Date.parse(end.endsAt) - nowMs) / 3_600_000;
    const costByEnd = hoursLeft === null || r.spentUsd === null ? null : round6(r.spentUsd + (r.hourlyCost ?? 0) * hoursLeft);
    // One account of what the row could not read: its figures' and its end's.
    const unreadable = [r.unreadable, end.endUnreadable].filter((u): u is string => u !== undefined);
    return { ...r, ...end, costByEnd, ...(unreadable.length > 0 ? { unreadable: unreadable.join("; ") } : {}) };
  });
}

/** The ENDS column: `2026-11-29 06:00Z destroy`, `idle 30m: stop`, both, or `-`. */
export function endText(r: EndOf): string {
  const parts: string[] = [];
  if (r.endsAt !== null) parts.push(`${r.endsAt.replace("T", " ").replace(/:\d\d(\.\d+)?Z$/, "Z")} ${r.endAction ?? "destroy"}`);
  if (r.idleStopMinutes !== null) parts.push(`idle ${r.idleStopMinutes}m`);
  return parts.length > 0 ? parts.join(", ") : "-";
}
