/**
 * The service calls behind `MaintenanceWindow`, in batches: the service takes at most 100
 * machine ids per schedule call and 100 window ids per cancel call (spec: Limits), and the
 * window list is asked for 100 machines at a time to keep its query short.
 */
import type { VastClient } from "../../client";
import { VastApiError, epochSecondsOf } from "../../client";
import type { MaintenanceWindow } from "../../client/types-account";
import type { WindowPlan } from "./plan";

export const BATCH_SIZE = 100;

/** The outcome for one machine, as the `results` output shows it. */
export interface MachineResult {
  machineId: number;
  success: boolean;
  /** On success: how many renters of the machine were notified. */
  notificationsSent?: number;
  /** On failure: the service's error code, for example `not_found`. */
  error?: string;
  /** On failure: the service's message. */
  msg?: string;
}

export function batches<T>(items: readonly T[], size = BATCH_SIZE): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Unix seconds of a timestamp the list sends as a number or as text. */
export const unixOf = epochSecondsOf;

/** Active windows of the given machines, one list call per 100 machines. */
export async function listWindows(client: VastClient, machineIds: readonly number[]): Promise<MaintenanceWindow[]> {
  const out: MaintenanceWindow[] = [];
  for (const batch of batches(machineIds)) out.push(...(await client.machines.listMaintenances(batch)));
  return out;
}

/** Whether a listed window has the start, duration and category of the plan. */
export function matchesPlan(w: MaintenanceWindow, plan: Pick<WindowPlan, "startUnix" | "durationHours" | "category">): boolean {
  const start = unixOf(w.startTime);
  if (start !== undefined && Math.floor(start) !== plan.startUnix) return false;
  if (typeof w.durationHours === "number" && w.durationHours !== plan.durationHours) return false;
  if (typeof w.category === "string" && w.category !== plan.category) return false;
  return true;
}

export interface ScheduleOutcome {
  results: MachineResult[];
  /** Set when a batch failed as a whole (not per machine); later batches were not sent. */
  failure?: Error;
  /** Machines of the failed batch and of the batches not sent. */
  unsent: number[];
}

/**
 * A batch in which no machine could be scheduled is refused as a whole: the service answers
 * 200 only when at least one machine was scheduled (spec). Read that refusal as a failure of
 * each machine of the batch.
 */
function wholeBatchNotFound(error: unknown, batch: readonly number[]): MachineResult[] | undefined {
  // Only the service's own not_found code: a 404 without it (a wrong URL) is no statement about machines.
  if (!(error instanceof VastApiError) || error.code !== "not_found") return undefined;
  return batch.map((machineId) => ({ machineId, success: false, error: "not_found", msg: error.serverMessage }));
}

/** Schedule the plan's window batch by batch, stopping at the first batch that fails as a whole. */
export async function scheduleBatches(client: VastClient, plan: WindowPlan): Promise<ScheduleOutcome> {
  const results: MachineResult[] = [];
  const all = batches(plan.machineIds);
  for (let i = 0; i < all.length; i++) {
    const batch = all[i];
    try {
      const answer = await client.machines.scheduleMaintenance({
        machineIds: batch,
        startTime: plan.startUnix,
        durationHours: plan.durationHours,
        category: plan.category,
      });
      for (const r of answer) {
        results.push({ machineId: r.machineId, success: r.success, notificationsSent: r.notificationsSent, error: r.error, msg: r.message });
      }
    } catch (error) {
      const failed = wholeBatchNotFound(error, batch);
      if (failed) {
        results.push(...failed);
        continue;
      }
      return { results, failure: error as Error, unsent: all.slice(i).flat() };
    }
  }
  return { results, unsent: [] };
}

export interface CancelOutcome {
  cancelled: number[];
  /** Windows the service would not cancel, with its message. */
  refused: { maintenanceId: number; msg?: string }[];
}

/** Cancel windows by id, 100 per call. */
export async function cancelWindows(client: VastClient, ids: readonly number[]): Promise<CancelOutcome> {
  const outcome: CancelOutcome = { cancelled: [], refused: [] };
  for (const batch of batches(ids)) {
    for (const r of await client.machines.cancelMaintenances(batch)) {
      if (r.success) outcome.cancelled.push(r.maintenanceId);
      else outcome.refused.push({ maintenanceId: r.maintenanceId, msg: r.message });
    }
  }
  return outcome;
}

/**
 * Cancel the windows, then make sure none of them is still waiting: a refusal for a window
 * that is gone (cancelled meanwhile) is success. Returns the windows that are still there.
 */
export async function cancelAndVerify(client: VastClient, windows: readonly MaintenanceWindow[]): Promise<CancelOutcome> {
  if (windows.length === 0) return { cancelled: [], refused: [] };
  const outcome = await cancelWindows(client, windows.map((w) => w.id));
  if (outcome.refused.length === 0) return outcome;
  const machines = [...new Set(windows.filter((w) => outcome.refused.some((r) => r.maintenanceId === w.id)).map((w) => w.machineId))];
  const still = new Set((await listWindows(client, machines)).map((w) => w.id));
  return { cancelled: outcome.cancelled, refused: outcome.refused.filter((r) => still.has(r.maintenanceId)) };
}
