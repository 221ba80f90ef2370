/** The outputs of `MaintenanceWindow` computed from its plan, the per-machine results and the clock. */
import { createHash } from "node:crypto";
import type { Props } from "../kit";
import type { WindowPlan } from "./plan";
import { uniqueSorted } from "./inputs";
import type { MachineResult } from "./service";

/** Where the window stands by the provider's clock: before, during or after it. */
export type MaintenanceWindowStatus = "scheduled" | "inProgress" | "ended";

export function endUnixOf(plan: WindowPlan): number {
  return plan.startUnix + Math.round(plan.durationHours * 3600);
}

export function statusAt(plan: WindowPlan, nowMs: number): MaintenanceWindowStatus {
  const now = nowMs / 1000;
  if (now < plan.startUnix) return "scheduled";
  return now < endUnixOf(plan) ? "inProgress" : "ended";
}

/**
 * Stable id of the resource: the start and a digest of the machines, duration and category.
 * It is known before any call, so even a create that fails half-way has an id to keep in state.
 */
export function windowId(plan: WindowPlan): string {
  const digest = createHash("sha256").update(JSON.stringify([plan.machineIds, plan.durationHours, plan.category])).digest("hex");
  return `mw-${plan.startUnix}-${digest.slice(0, 12)}`;
}

export function outputsOf(plan: WindowPlan, results: readonly MachineResult[], maintenanceIds: readonly number[], nowMs: number): Props {
  const sorted = [...results].sort((a, b) => a.machineId - b.machineId);
  return {
    maintenanceIds: uniqueSorted(maintenanceIds),
    results: sorted,
    notificationsSent: sorted.reduce((sum, r) => sum + (r.notificationsSent ?? 0), 0),
    scheduledMachineIds: sorted.filter((r) => r.success).map((r) => r.machineId),
    failedMachineIds: sorted.filter((r) => !r.success).map((r) => r.machineId),
    startTimeUnix: plan.startUnix,
    endTimeUnix: endUnixOf(plan),
    endTime: new Date(endUnixOf(plan) * 1000).toISOString(),
    status: statusAt(plan, nowMs),
  };
}
