/**
 * Judging one cell of the fault matrix: whether an error is clear, and whether the live
 * objects on the simulator are exactly the ones the engine's state reports.
 */
import type { FaultKind } from "./faults";
import type { Entry } from "./drive";
import type { LoggedRequest, Rig, StateView } from "./rig";
import type { Scenario, Target } from "./scenarios";

/** The static part of a fault path, up to its first wildcard segment. */
export function pathPrefix(path: string): string {
  const star = path.indexOf("/*");
  return star === -1 ? path : path.slice(0, star + 1);
}

export function matchesTarget(r: LoggedRequest, t: Target): boolean {
  if (r.method !== t.method) return false;
  const pattern = t.path.replace(/\/$/, "").split("/").map((s) => (s === "*" ? "[^/]+" : s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  return new RegExp(`^${pattern.join("/")}/?$`).test(r.path);
}

/**
 * Why an error is not clear, or [] when it is: it must name the call (method and path), say
 * what went wrong (the fault's cause), carry no stack trace and no secret.
 */
export function unclear(error: unknown, target: Target, fault: FaultKind, secrets: readonly string[]): string[] {
  if (!(error instanceof Error)) return [`threw a non-Error: ${String(error)}`];
  const m = error.message;
  const problems: string[] = [];
  // Against a wrong server the first call of the operation fails, whichever endpoint it is.
  const namesCall = fault.wrongServer ? /\b(GET|PUT|POST|DELETE) \/api\//.test(m) : m.includes(target.method) && m.includes(pathPrefix(target.path));
  if (!namesCall) problems.push(`does not name ${fault.wrongServer ? "the call" : `${target.method} ${target.path}`}`);
  if (!fault.cause.test(m)) problems.push(`does not say ${fault.cause}`);
  if (/\n\s+at\s/.test(m) || m.includes("node_modules")) problems.push("carries a stack trace");
  if (m.includes("[object Object]") || /\bundefined\b/.test(m)) problems.push("prints an unformatted value");
  for (const s of secrets) if (s && m.includes(s)) problems.push("contains a secret");
  return problems;
}

export type Problem = { kind: "ORPHAN" | "DUPLICATE" | "MISSING" | "MISMATCH" | "UNVERIFIED" | "UNFINISHED"; detail: string };

/**
 * Whether `key`, claimed by `entry` and not live, was removed by a delete that failed at a later
 * step (scenarios with `deletesInOrder`): it comes before the first of the entry's objects still
 * live. An entry none of whose objects is live, or one that lost a later object while an
 * earlier one lives, is not excused.
 */
export function removedBeforeFailure(s: Scenario, entry: Entry, key: string, liveKeys: ReadonlySet<string>): boolean {
  const claims = s.claims(entry);
  const firstLive = claims.findIndex((k) => liveKeys.has(k));
  return firstLive !== -1 && claims.indexOf(key) < firstLive;
}

/**
 * The next destroy of every entry a failed delete kept (scenarios with `deletesInOrder`), run
 * with no fault pending and a fresh client: it must succeed and leave none of the entry's
 * objects live, or keeping the entry was no use.
 */
export async function finishDelete(rig: Rig, s: Scenario, kept: Entry[], baseline: StateView): Promise<Problem[]> {
  if (kept.length === 0) return [];
  await rig.control("DELETE", "/faults");
  rig.freshClient();
  const problems: Problem[] = [];
  for (const e of kept) {
    try {
      await s.provider.delete(e.id, e.outs);
    } catch (error) {
      problems.push({ kind: "UNFINISHED", detail: `the next delete of ${s.name} ${e.id} failed: ${(error as Error).message}` });
      continue;
    }
    const left = new Set(s.live(await rig.liveState(), baseline).map((o) => o.key));
    for (const key of s.claims(e)) if (left.has(key)) problems.push({ kind: "UNFINISHED", detail: `${s.name} ${key} is still live after the next delete of ${e.id}` });
  }
  return problems;
}

/**
 * Live objects nobody claims (orphans, or duplicates when an entry exists), claims without an
 * object, and field differences. After a failed delete (`failedDelete`) of a kind whose delete
 * goes in steps, a kept entry may miss the objects removed before the failing step, and its
 * next delete is run to see it finish.
 */
export async function consistency(
  rig: Rig,
  s: Scenario,
  entries: Entry[],
  views: { state: StateView; baseline: StateView; before: StateView; failedDelete?: boolean },
): Promise<Problem[]> {
  const { state, baseline, before } = views;
  const live = s.live(state, baseline);
  const problems: Problem[] = [];
  const claimedBy = new Map<string, Entry>();
  for (const e of entries) for (const key of s.claims(e)) claimedBy.set(key, e);
  for (const obj of live) {
    const owner = claimedBy.get(obj.key);
    if (!owner) {
      problems.push({ kind: entries.length > 0 ? "DUPLICATE" : "ORPHAN", detail: `${s.name} ${obj.key} is live but not in state` });
      continue;
    }
    for (const d of s.compare(obj, owner)) problems.push({ kind: "MISMATCH", detail: `${s.name} ${obj.key}: ${d}` });
  }
  const liveKeys = new Set(live.map((o) => o.key));
  const unfinished = views.failedDelete === true && s.deletesInOrder === true;
  for (const [key, owner] of claimedBy) {
    if (liveKeys.has(key) || (unfinished && removedBeforeFailure(s, owner, key, liveKeys))) continue;
    problems.push({ kind: "MISSING", detail: `${s.name} ${key} is in state but not live` });
  }
  for (const d of (await s.verify?.(rig, entries, state, before)) ?? []) problems.push({ kind: "UNVERIFIED", detail: d });
  if (unfinished) problems.push(...(await finishDelete(rig, s, entries, baseline)));
  return problems;
}
