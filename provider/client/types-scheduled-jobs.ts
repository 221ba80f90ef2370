/**
 * Public (camelCase) types and rules of scheduled jobs: API calls the service makes itself at
 * set times (`/api/v0/commands/schedule_job/`; not in the vendor document, shapes from the
 * vendor's client). Wire forms: schemas-scheduled-jobs.ts.
 */

/** How often a job runs: every hour, every day at an hour, every week on a day at an hour. */
export type ScheduledJobFrequency = "HOURLY" | "DAILY" | "WEEKLY";

/** The methods a job's call may use. */
export type ScheduledJobMethod = "GET" | "POST" | "PUT" | "DELETE";

/** A scheduled job as listed (`GET /api/v0/commands/schedule_job/`). Times and slots in UTC. */
export interface ScheduledJobInfo {
  id: number;
  /** The instance the job is for (`instance_id`). */
  instanceId: number;
  /** The path the service calls (`api_endpoint`), such as `/api/v0/instances/reboot/123/`. */
  apiEndpoint: string;
  requestMethod: string;
  requestBody: Record<string, unknown>;
  frequency: string;
  /** 0 = Sunday .. 6; null for every day (`day_of_the_week`). */
  dayOfWeek: number | null;
  /** 0-23 UTC; null for every hour (`hour_of_the_day`). */
  hourUtc: number | null;
  /** The minute of the hour the service runs it at (`min_of_the_hour`; it is not sent). */
  minute: number | null;
  /** ISO 8601 (the wire's Unix seconds `start_time`, `end_time`). */
  start: string | undefined;
  end: string | undefined;
  /** The record as sent. */
  raw: Record<string, unknown>;
}

/** What a create or an update sends (the vendor's client sends every field each time). */
export interface ScheduledJobInput {
  instanceId: number;
  apiEndpoint: string;
  requestMethod: ScheduledJobMethod;
  requestBody: Record<string, unknown>;
  frequency: ScheduledJobFrequency;
  /** 0 = Sunday .. 6, UTC; only for WEEKLY. */
  dayOfWeek?: number | null;
  /** 0-23 UTC; for DAILY and WEEKLY. */
  hourUtc?: number | null;
  /** ISO 8601 or epoch ms. */
  start: string | number;
  end: string | number;
}

/** The week's days as the service numbers them (0 = Sunday). */
export const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"] as const;

/**
 * Why `frequency`, `dayOfWeek` and `hourUtc` do not make a job the service takes, or undefined
 * (the vendor client's validate_frequency_values: HOURLY has neither, DAILY an hour, WEEKLY both).
 */
export function frequencyProblem(frequency: string, dayOfWeek: number | null | undefined, hour: number | null | undefined): string | undefined {
  const day = dayOfWeek ?? null;
  const h = hour ?? null;
  if (frequency === "HOURLY" && (day !== null || h !== null)) return "an HOURLY job takes no day and no hour";
  if (frequency === "DAILY" && (day !== null || h === null)) return "a DAILY job takes an hour and no day";
  if (frequency === "WEEKLY" && (day === null || h === null)) return "a WEEKLY job takes a day and an hour";
  if (!["HOURLY", "DAILY", "WEEKLY"].includes(frequency)) return `frequency must be one of HOURLY, DAILY, WEEKLY (got ${JSON.stringify(frequency)})`;
  return undefined;
}

/** The offset of `timeZone` from UTC at `at`, minutes (Intl; positive east of Greenwich). */
export function zoneOffsetMinutes(timeZone: string, at: Date): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(at);
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(n("year"), n("month") - 1, n("day"), n("hour"), n("minute"), n("second"));
  return Math.round((wall - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

/** Whether `timeZone` is a time zone Intl knows (an IANA name such as Europe/Berlin, or UTC). */
export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return true;
  } catch {
    return false;
  }
}

/**
 * A day and hour of `timeZone` as the service's UTC day and hour, at the zone's offset at `at`
 * (a weekly job keeps one UTC slot: after a daylight-saving change it runs an hour off local
 * time until it is updated). A zone whose offset is not whole hours at `at` is refused: the
 * service takes no minute.
 */
export function toUtcSlot(slot: { dayOfWeek: number | null; hour: number }, timeZone: string, at: Date): { dayOfWeek: number | null; hourUtc: number } {
  const offset = zoneOffsetMinutes(timeZone, at);
  if (offset % 60 !== 0) throw new RangeError(`time zone ${timeZone} is ${offset} minutes from UTC at ${at.toISOString()}: scheduled jobs run on whole UTC hours`);
  const total = (slot.dayOfWeek ?? 0) * 24 + slot.hour - offset / 60;
  const week = 7 * 24;
  const wrapped = ((total % week) + week) % week;
  return { dayOfWeek: slot.dayOfWeek === null ? null : Math.floor(wrapped / 24), hourUtc: wrapped % 24 };
}
