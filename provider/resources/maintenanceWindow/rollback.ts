/**
 * When a create of `MaintenanceWindow` cannot finish (machines refused without `allowPartial`,
 * or a batch failed as a whole), the windows it did schedule are cancelled so nothing is left
 * behind that state does not know of. If cancelling fails too, the create ends in a
 * PartialFailure: the resource stays in state with what is left, marked `incompleteCreate`,
 * and the next `up` replaces it (retrying the rollback first) while `destroy` cancels it.
 */
import type { VastClient } from "../../client";
import { ResponseLostError } from "../../client/errors";
import type { MaintenanceWindow } from "../../client/types-account";
import { PartialFailure, Props } from "../kit";
import type { WindowPlan } from "./inputs";
import { outputsOf } from "./outputs";
import { BATCH_SIZE, MachineResult, ScheduleOutcome, cancelAndVerify, listWindows, matchesPlan } from "./service";
import { lookUp } from "../kit";

/** At most this many machine ids are named per kind of failure. */
const MAX_NAMED = 20;

/** Refused machines grouped by the service's error and message: "30001, 30002 (not_found: No such machine id or not owned)". */
export function describeFailures(results: readonly MachineResult[]): string {
  const groups = new Map<string, number[]>();
  for (const r of results) {
    if (r.success) continue;
    const why = [r.error, r.msg].filter(Boolean).join(": ") || "no reason given";
    groups.set(why, [...(groups.get(why) ?? []), r.machineId]);
  }
  return [...groups.entries()]
    .map(([why, ids]) => {
      const named = ids.slice(0, MAX_NAMED).join(", ");
      const more = ids.length > MAX_NAMED ? ` and ${ids.length - MAX_NAMED} more` : "";
      return `${named}${more} (${why})`;
    })
    .join("; ");
}

/** Why the create must not keep what it scheduled, or undefined when it may. */
export function scheduleFailure(plan: WindowPlan, outcome: ScheduleOutcome): string | undefined {
  const total = plan.machineIds.length;
  if (outcome.failure) {
    return `scheduling stopped at a batch that failed as a whole (${outcome.unsent.length} machines not confirmed): ${outcome.failure.message}`;
  }
  const failed = outcome.results.filter((r) => !r.success);
  if (failed.length === total) return `none of the ${total} machines could be scheduled: ${describeFailures(failed)}`;
  if (failed.length > 0 && !plan.allowPartial) {
    return (
      `${failed.length} of ${total} machines could not be scheduled: ${describeFailures(failed)}. ` +
      "Remove them from machineIds, or set allowPartial: true to keep the window on the other machines"
    );
  }
  return undefined;
}

export interface RollbackContext {
  id: string;
  plan: WindowPlan;
  inputs: Props;
  /** Window ids that existed on the machines before scheduling: never ours. */
  before: ReadonlySet<number>;
  outcome: ScheduleOutcome;
  reason: string;
  nowMs: number;
}

function resultsWithUnsent(outcome: ScheduleOutcome): MachineResult[] {
  const msg = outcome.failure ? `not scheduled: ${outcome.failure.message}` : "not scheduled";
  return [...outcome.results, ...outcome.unsent.map((machineId) => ({ machineId, success: false, error: "not_sent", msg }))];
}

/**
 * A batch whose answer was lost may take effect after the client gave up on it: wait until its
 * windows show up, or the look-up window (lost-response.ts) has passed, so that they are
 * cancelled too rather than left behind.
 */
async function awaitLostBatch(api: VastClient, c: RollbackContext): Promise<void> {
  if (!(c.outcome.failure instanceof ResponseLostError)) return;
  const batch = c.outcome.unsent.slice(0, BATCH_SIZE);
  await lookUp(async () => {
    const made = (await listWindows(api, batch)).filter((w) => !c.before.has(w.id) && matchesPlan(w, c.plan));
    return made.length > 0 ? made : undefined;
  });
}

/** Cancels what the failed create scheduled, then throws: a plain Error, or a PartialFailure if windows remain. */
export async function rollbackCreate(api: VastClient, c: RollbackContext): Promise<never> {
  const mayHaveScheduled = c.outcome.failure !== undefined || c.outcome.results.some((r) => r.success);
  if (!mayHaveScheduled) throw new Error(`MaintenanceWindow: ${c.reason}. Nothing was scheduled.`);
  let mine: MaintenanceWindow[] | undefined;
  let problem: string | undefined;
  let cancelled = 0;
  try {
    await awaitLostBatch(api, c);
    // All machines: a batch whose answer was lost may have been scheduled all the same.
    mine = (await listWindows(api, c.plan.machineIds)).filter((w) => !c.before.has(w.id) && matchesPlan(w, c.plan));
    const result = await cancelAndVerify(api, mine);
    cancelled = result.cancelled.length;
    if (result.refused.length > 0) {
      const refused = new Set(result.refused.map((r) => r.maintenanceId));
      mine = mine.filter((w) => refused.has(w.id));
      problem = `the service refused to cancel windows ${result.refused.map((r) => `${r.maintenanceId}${r.msg ? ` (${r.msg})` : ""}`).join(", ")}`;
    }
  } catch (error) {
    problem = (error as Error).message;
  }
  if (problem === undefined) {
    throw new Error(`MaintenanceWindow: ${c.reason}. The ${cancelled} windows already scheduled were cancelled; nothing remains scheduled.`);
  }
  const outs: Props = {
    ...outputsOf(c.plan, resultsWithUnsent(c.outcome), (mine ?? []).map((w) => w.id), c.nowMs),
    // A superset, so a later delete looks wherever a window may be.
    scheduledMachineIds: mine ? [...new Set(mine.map((w) => w.machineId))].sort((a, b) => a - b) : c.plan.machineIds,
    incompleteCreate: true,
  };
  throw new PartialFailure(
    `MaintenanceWindow: ${c.reason}. Cancelling the windows already scheduled failed too (${problem}); ` +
      "they stay in state: the next update schedules the window again and a destroy cancels them.",
    c.id,
    c.inputs,
    outs,
  );
}
