/** The plan of a maintenance window (kept apart from the zod rules of inputs.ts, out of the public declarations). */
import type { MaintenanceCategory } from "../../client/types-account";

/** Inputs in the form the service and the comparisons use. */
export interface WindowPlan {
  /** Sorted, without duplicates. */
  machineIds: number[];
  startUnix: number;
  durationHours: number;
  category: MaintenanceCategory;
  allowPartial: boolean;
}
