/**
 * Health of fleet members. A member is healthy when it runs and, with `readiness` (Instance's
 * own input and probe, instance/readiness.ts), when its published port answers. Each member
 * carries `ready`: true or false with readiness, null without.
 *
 * - The diff and read probe each running member once (from the listing's record, no wait): a
 *   diff never waits, so one failed probe only makes it report a change.
 * - The update probes a member that failed again until `readiness.timeoutMinutes` pass (all of
 *   them together); one still not ready after that deadline is unhealthy and replaced, its
 *   machine remembered in badHosts, as a dead member's is.
 * - New members, and members updated in place, are waited for until they run
 *   (`runningTimeoutMinutes`) and then until ready (`readiness.timeoutMinutes`); one that never
 *   becomes ready is handled as one that died while booting.
 */
import type { Instance, VastClient } from "../../client";
import { notReadyReason, probeOnce, probedPort, type Readiness } from "../instance/readiness";
import type { FleetInputs } from "./inputs";
import { type BootResult, type BootWatch, type Member, waitForMembers } from "./members";

/** Probes at once, at most: a fleet of 500 does not open 500 connections together. */
const PROBES_AT_ONCE = 25;

type ReadinessInputs = Pick<FleetInputs, "readiness" | "ports">;

/** Running, and ready unless readiness is not configured (`ready` null). */
export const isHealthy = (m: Pick<Member, "status" | "ready">): boolean => m.status === "running" && m.ready !== false;

/** Maps `items` through `fn`, at most `PROBES_AT_ONCE` at a time, keeping the order. */
async function mapLimited<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PROBES_AT_ONCE, items.length) }, worker));
  return out;
}

/**
 * `ready` of each member from one probe of its live record (no wait): null without readiness,
 * false when it does not run or has no record.
 */
export async function probeMembers(members: readonly Member[], records: ReadonlyMap<number, Instance>, inputs: ReadinessInputs): Promise<Member[]> {
  const readiness: Readiness | undefined = inputs.readiness;
  if (!readiness) return members.map((m) => ({ ...m, ready: null }));
  const port = probedPort(readiness, inputs.ports);
  return mapLimited(members, async (m) => {
    const record = records.get(m.id);
    if (m.status !== "running" || !record || port === undefined) return { ...m, ready: false };
    return { ...m, ready: (await probeOnce(record, readiness, port)) === undefined };
  });
}

/**
 * Members that run but failed their probe are probed again until the readiness deadline:
 * `kept` holds every member but those still not ready, which are in `unready` with why.
 */
export async function settleReadiness(
  client: VastClient,
  members: readonly Member[],
  inputs: ReadinessInputs,
): Promise<{ kept: Member[]; unready: { member: Member; why: string }[] }> {
  const readiness: Readiness | undefined = inputs.readiness;
  const suspects = readiness ? members.filter((m) => m.status === "running" && m.ready === false) : [];
  if (!readiness || suspects.length === 0) return { kept: [...members], unready: [] };
  const whys = await mapLimited(suspects, (m) => notReadyReason(client, m.id, readiness, inputs.ports));
  const unready = suspects.flatMap((m, i) => (whys[i] === undefined ? [] : [{ member: m, why: whys[i] as string }]));
  const failed = new Set(unready.map((u) => u.member.id));
  const kept = members.filter((m) => !failed.has(m.id)).map((m) => (suspects.includes(m) ? { ...m, ready: true } : m));
  return { kept, unready };
}

/** A boot's outcome, or `unready`: it runs, but never passed the readiness probe. */
export type HealthResult = { member: Member; outcome: BootResult["outcome"] | "unready"; why?: string; fatal?: BootResult["fatal"] };

/**
 * Waits until each of `members` runs (waitForMembers: one list call per 25 per poll), then,
 * with readiness, until each running one is ready or its readiness deadline passes.
 */
export async function waitUntilReady(
  client: VastClient,
  members: Member[],
  inputs: ReadinessInputs & Pick<FleetInputs, "runningTimeoutMinutes">,
  watch?: BootWatch,
): Promise<HealthResult[]> {
  const timeoutMs = inputs.runningTimeoutMinutes * 60_000;
  // A watch has been confirming boots while the batch was rented: it waits only for the rest.
  const booted = watch ? await watch.finish(members, timeoutMs) : await waitForMembers(client, members, timeoutMs);
  const readiness: Readiness | undefined = inputs.readiness;
  return mapLimited(booted, async (r): Promise<HealthResult> => {
    if (!readiness) return { ...r, member: { ...r.member, ready: null } };
    if (r.outcome !== "running") return { ...r, member: { ...r.member, ready: false } };
    const why = await notReadyReason(client, r.member.id, readiness, inputs.ports);
    if (why === undefined) return { member: { ...r.member, ready: true }, outcome: "running" };
    return { member: { ...r.member, ready: false }, outcome: "unready", why };
  });
}
