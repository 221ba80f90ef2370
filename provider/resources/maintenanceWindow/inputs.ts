/**
 * Inputs of `MaintenanceWindow`: their shape rules, their normal form, and the two calls that
 * judge only inputs (check and diff). Pure: the clock is a parameter, nothing calls the API.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { MaintenanceCategory } from "../../client/types-account";
import type { WindowPlan } from "./plan";
import { Props, checkWith, containsUnknown, deepEqual, userInputs } from "../kit";

export const MAINTENANCE_CATEGORIES = ["power", "internet", "disk", "gpu", "software", "other"] as const satisfies readonly MaintenanceCategory[];
export const DEFAULT_DURATION_HOURS = 1;
/** A window longer than a month is a mistake of unit, not maintenance. */
export const MAX_DURATION_HOURS = 30 * 24;
export const DEFAULT_CATEGORY: MaintenanceCategory = "other";

/** The service takes a start within one year; 365 days keeps clear of its edge. */
export const MAX_LEAD_SECONDS = 365 * 24 * 3600;
/** Larger numbers are Unix milliseconds by mistake (seconds reach this in the year 5138). */
const MAX_UNIX_SECONDS = 1e11;
/** ISO 8601 date and time with an explicit zone: a time without one would be ambiguous. */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)$/i;

/** Outputs and state bookkeeping stored beside the inputs. */
const OUTPUT_NAMES = [
  "maintenanceIds", "results", "notificationsSent", "scheduledMachineIds", "failedMachineIds",
  "startTimeUnix", "endTimeUnix", "endTime", "status", "incompleteCreate",
];

/** The properties whose change needs a new window: the service cannot edit one. */
export const REPLACE_ON = ["machineIds", "startTime", "durationHours", "category"] as const;

/** Unix seconds of a start time given as ISO 8601 text or Unix seconds; undefined if it is neither. */
export function toUnixSeconds(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isInteger(value) && value > 0 && value < MAX_UNIX_SECONDS ? value : undefined;
  if (typeof value !== "string" || !ISO_DATE_TIME.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

const startTimeRule = z.union([z.string(), z.number()], { error: "must be an ISO 8601 date-time text or Unix seconds" }).superRefine((v, ctx) => {
  if (toUnixSeconds(v) !== undefined) return;
  let message = "must be an ISO 8601 date-time with a time zone, for example 2030-07-01T02:00:00Z";
  if (typeof v === "number") {
    message = v >= MAX_UNIX_SECONDS ? "must be Unix seconds, not milliseconds" : "must be Unix seconds: a positive whole number";
  }
  ctx.addIssue({ code: "custom", message });
});

export const maintenanceWindowSchema = z.object({
  machineIds: z
    .array(z.number({ error: "must be a number" }).int("must be a whole number").positive("must be a positive machine id"), {
      error: "must be a list of machine ids",
    })
    .min(1, "must list at least one machine id"),
  startTime: startTimeRule,
  durationHours: z.number({ error: "must be a number of hours" }).finite("must be a finite number").min(1, "must be at least 1 (hours)").max(MAX_DURATION_HOURS, `must be at most ${MAX_DURATION_HOURS} (hours, 30 days)`).optional(),
  category: z.enum(MAINTENANCE_CATEGORIES, { error: `must be one of ${MAINTENANCE_CATEGORIES.join(", ")}` }).optional(),
  allowPartial: z.boolean({ error: "must be true or false" }).optional(),
});

export type { WindowPlan } from "./plan";

export function uniqueSorted(ids: readonly number[]): number[] {
  return [...new Set(ids)].sort((a, b) => a - b);
}

/** The plan of valid inputs; throws an Error naming every broken rule otherwise. */
export function planOf(props: Props): WindowPlan {
  const parsed = maintenanceWindowSchema.safeParse(userInputs(props));
  if (!parsed.success) {
    const rules = parsed.error.issues.map((i) => `${i.path.map(String).join(".") || "(inputs)"}: ${i.message}`);
    throw new Error(`MaintenanceWindow: invalid inputs: ${rules.join("; ")}`);
  }
  const v = parsed.data;
  return {
    machineIds: uniqueSorted(v.machineIds),
    startUnix: toUnixSeconds(v.startTime) as number,
    durationHours: v.durationHours ?? DEFAULT_DURATION_HOURS,
    category: v.category ?? DEFAULT_CATEGORY,
    allowPartial: v.allowPartial ?? false,
  };
}

/** A value as compared by diff: same machines in any order, same instant in any notation. */
function comparable(key: string, value: unknown): unknown {
  if (containsUnknown(value)) return value;
  switch (key) {
    case "machineIds":
      return Array.isArray(value) && value.every((x) => typeof x === "number") ? uniqueSorted(value) : value;
    case "startTime":
      return toUnixSeconds(value) ?? value;
    case "durationHours":
      return value ?? DEFAULT_DURATION_HOURS;
    case "category":
      return value ?? DEFAULT_CATEGORY;
    case "allowPartial":
      return value ?? false;
    default:
      return value;
  }
}

/** The inputs whose value differs once both sides are in normal form (unknown counts as different). */
export function changedInputs(olds: Props, news: Props): string[] {
  const keys = [...REPLACE_ON, "allowPartial"];
  return keys.filter((k) => containsUnknown(news[k]) || !deepEqual(comparable(k, olds[k]), comparable(k, news[k])));
}

function isoOf(unix: number): string {
  return new Date(unix * 1000).toISOString();
}

/**
 * The rule that depends on the time: the start lies in the future and within a year. It is
 * judged only when a window is about to be scheduled (the resource is new, or a change of
 * REPLACE_ON replaces it), so a window that has passed keeps passing check on later runs.
 */
function timingFailures(olds: Props, news: Props, nowMs: number): pulumi.dynamic.CheckFailure[] {
  const startUnix = toUnixSeconds(news.startTime);
  if (startUnix === undefined || REPLACE_ON.some((k) => containsUnknown(news[k]))) return [];
  const isNew = Object.keys(userInputs(olds)).length === 0;
  const changed = changedInputs(olds, news).filter((k) => k !== "allowPartial");
  if (!isNew && changed.length === 0) return [];
  const why = isNew ? "a new window" : `a window scheduled again because ${changed.join(", ")} changed`;
  const nowUnix = Math.floor(nowMs / 1000);
  if (startUnix <= nowUnix) {
    return [{ property: "startTime", reason: `startTime: must be in the future for ${why} (got ${isoOf(startUnix)}, now ${isoOf(nowUnix)})` }];
  }
  if (startUnix > nowUnix + MAX_LEAD_SECONDS) {
    const latest = isoOf(nowUnix + MAX_LEAD_SECONDS);
    return [{ property: "startTime", reason: `startTime: must be within one year from now, at the latest ${latest} (got ${isoOf(startUnix)})` }];
  }
  return [];
}

/** Shape rules always; the timing rule only when a window will be scheduled. Adds defaults. */
export function checkMaintenanceWindow(olds: Props, news: Props, nowMs: number): pulumi.dynamic.CheckResult {
  const shape = checkWith(maintenanceWindowSchema, news, { type: "MaintenanceWindow", outputs: OUTPUT_NAMES });
  const failures = [...(shape.failures ?? [])];
  if (!failures.some((f) => f.property.startsWith("startTime"))) failures.push(...timingFailures(olds, news, nowMs));
  const inputs: Props = {
    ...news,
    durationHours: news.durationHours ?? DEFAULT_DURATION_HOURS,
    category: news.category ?? DEFAULT_CATEGORY,
    allowPartial: news.allowPartial ?? false,
  };
  return { inputs, failures };
}

/**
 * Any change of machines, start, duration or category replaces the window, deleting the old
 * one first (see MaintenanceWindow's documentation); `allowPartial` changes in place.
 * `olds` are the stored properties: a create that failed and could not cancel what it had
 * scheduled (`incompleteCreate`) is replaced on the next run so the rollback is retried.
 */
export function diffMaintenanceWindow(olds: Props, news: Props): pulumi.dynamic.DiffResult {
  const changed = changedInputs(olds, news);
  const replaces = changed.filter((k) => (REPLACE_ON as readonly string[]).includes(k));
  if (olds.incompleteCreate === true && replaces.length === 0) replaces.push("machineIds");
  return {
    changes: changed.length > 0 || replaces.length > 0,
    replaces,
    deleteBeforeReplace: replaces.length > 0 ? true : undefined,
  };
}
