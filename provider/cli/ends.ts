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
 */
import { round6 } from "../resources/kit/costs";
import type { CostRow } from "./cost-row";
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
    for (const r of readExport(file)) {
      if (typeof r.type !== "string" || !r.type.startsWith(TYPE_PREFIX) || typeof r.id !== "string") continue;
      const o = (r.outputs ?? {}) as Record<string, unknown>;
      const deadline = typeof o.deadline === "string" && Number.isFinite(Date.parse(o.deadline)) ? o.deadline : null;
      const autostop = o.autostop as { idleMinutes?: unknown } | undefined;
      out.set(`${r.type.slice(TYPE_PREFIX.length)}/${r.id}`, {
        endsAt: deadline,
        endAction: deadline === null ? null : o.expireAction === "stop" ? "stop" : "destroy",
        idleStopMinutes: autostop && typeof autostop.idleMinutes === "number" ? autostop.idleMinutes : null,
      });
    }
  }
  return out;
}

/** Each row with its end and what it will have cost by then (at `nowMs`). */
export function withEnds(rows: readonly CostRow[], ends: ReadonlyMap<string, EndOf>, nowMs: number): EndingRow[] {
  return rows.map((r) => {
    const end = ends.get(`${r.type}/${r.id}`) ?? { endsAt: null, endAction: null, idleStopMinutes: null };
    const hoursLeft = end.endsAt === null ? null : Math.max(0, Date.parse(end.endsAt) - nowMs) / 3_600_000;
    const costByEnd = hoursLeft === null ? null : round6(r.spentUsd + (r.hourlyCost ?? 0) * hoursLeft);
    return { ...r, ...end, costByEnd };
  });
}

/** The ENDS column: `2026-11-29 06:00Z destroy`, `idle 30m: stop`, both, or `-`. */
export function endText(r: EndOf): string {
  const parts: string[] = [];
  if (r.endsAt !== null) parts.push(`${r.endsAt.replace("T", " ").replace(/:\d\d(\.\d+)?Z$/, "Z")} ${r.endAction ?? "destroy"}`);
  if (r.idleStopMinutes !== null) parts.push(`idle ${r.idleStopMinutes}m`);
  return parts.length > 0 ? parts.join(", ") : "-";
}
