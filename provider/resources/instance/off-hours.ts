/**
 * Whether office hours (`schedule`, schedule.ts) were carried out: an instance found running in
 * its off-hours, once the grace period after their start has passed, was not stopped by its
 * schedule. The stop is a scheduled losing bid (0.001 $/h), inferred from how outbid instances
 * behave; if the service keeps such an instance running, it bills through every night with no
 * error anywhere. A refresh (and an `up`, whose diff reads the live row) reports it: the
 * `offHoursRunning` output, the refreshed `schedule` input (so the engine's diff names it) and a
 * warning with what it cost so far.
 */
import type { Instance } from "../../client";
import { Props, currentTiming, warnOnce } from "../kit";
import { hourlyCostOf, instanceCostParts, round6 } from "../kit/costs";
import { isOnHours, scheduleOf, type ScheduleInput } from "./schedule";
import { normalizeStatus } from "./status";

/**
 * Minutes after the off-hours begin before a running instance counts as not stopped. The stop
 * job is due at the whole UTC hour and the service runs due jobs in the minutes after it; an
 * outbid instance then takes a few minutes to stop its container. Half an hour covers both,
 * and bills at most half an hour before it is reported.
 */
export const OFF_HOURS_GRACE_MINUTES = 30;
const HOUR_MS = 3_600_000;
/** The longest off-hours a schedule has: six days off and the rest of the seventh (hours). */
const LONGEST_OFF_HOURS = 24 * 7;

/** When the off-hours `now` falls in began (ms), or undefined during on-hours. */
export function offHoursStart(s: ScheduleInput, now: number): number | undefined {
  if (isOnHours(s, now)) return undefined;
  // Schedules turn on whole hours (whole-hour zones only): step back until the hour before is on-hours.
  let start = Math.floor(now / HOUR_MS) * HOUR_MS;
  for (let i = 0; i < LONGEST_OFF_HOURS && !isOnHours(s, start - HOUR_MS); i++) start -= HOUR_MS;
  return start;
}

/** An instance running in its off-hours: since when, for how long, at what rate and cost. */
export interface OffHoursRunning {
  /** ISO 8601: the later of the off-hours' start and the instance's own start. */
  since: string;
  /** Hours running in the off-hours so far (to 0.01 h). */
  hours: number;
  /** $/hour the service bills for it now (`hourlyCost`). */
  hourlyCost: number;
  /** hourlyCost x hours, $. */
  costUsd: number;
}

/** Whether the live `instance` runs in the off-hours of the schedule in `props`, past the grace period. */
export function offHoursRunning(props: Props, instance: Instance, now: number = currentTiming().now()): OffHoursRunning | undefined {
  const s = scheduleOf(props);
  if (!s || normalizeStatus(instance.actualStatus) !== "running") return undefined;
  const off = offHoursStart(s, now);
  if (off === undefined || now - off < OFF_HOURS_GRACE_MINUTES * 60_000) return undefined;
  const started = typeof instance.startDate === "number" ? instance.startDate * 1000 : off;
  const since = Math.max(off, Math.min(started, now));
  const hourlyCost = round6(hourlyCostOf(instanceCostParts(instance)));
  const hours = (now - since) / HOUR_MS;
  return { since: new Date(since).toISOString(), hours: Math.round(hours * 100) / 100, hourlyCost, costUsd: Math.round(hourlyCost * hours * 100) / 100 };
}

/** One line on it: what is wrong, what it cost, what to do. */
export function describeOffHoursRunning(id: number | string, r: OffHoursRunning): string {
  return (
    `Instance ${id} is running in its off-hours (since ${r.since}, ${r.hours} h) although its schedule stops it: ` +
    `about $${r.costUsd.toFixed(2)} so far at $${r.hourlyCost}/h. The stop is a scheduled 0.001 $/h bid; ` +
    "the service did not stop the instance with it. Stop it by hand (vastai stop instance) and see docs/costs-and-stopping-spend.md, \"Office hours (`schedule`)\""
  );
}

/**
 * What a read adds: the `offHoursRunning` output (null when the instance is not running in its
 * off-hours), and the declared `schedule` with `offHoursRunning` set to the reason, so that the
 * refresh and the next diff show it; a warning once per process and instance.
 */
export function reflectOffHours(props: Props, instance: Instance, shownSchedule: unknown, now: number = currentTiming().now()): Props {
  if (!scheduleOf(props)) return {};
  const running = offHoursRunning(props, instance, now);
  if (!running) return { offHoursRunning: null };
  warnOffHours(instance.id, running);
  const reason = `running since ${running.since}, about $${running.costUsd.toFixed(2)} so far: not stopped by its schedule`;
  const shown = shownSchedule && typeof shownSchedule === "object" ? { ...(shownSchedule as Props), offHoursRunning: reason } : shownSchedule;
  return { offHoursRunning: running, schedule: shown };
}

/** The warning, once per process, instance and off-hours. */
export function warnOffHours(id: number | string, running: OffHoursRunning): void {
  warnOnce(`instance ${id} off-hours ${running.since}`, describeOffHoursRunning(id, running));
}
