/**
 * Office hours of an interruptible instance (`schedule`), carried out by the service's own
 * scheduled jobs, so the instance stops and starts with nobody running `pulumi up`.
 *
 * What the evidence supports: the vendor's client schedules bid changes, reboots, `execute` and
 * cloud copy; nothing shows the service accepting a scheduled stop or start. So the schedule is
 * written as bid changes (`PUT /api/v0/instances/bid_price/{id}/`, the calls ScheduledJob makes,
 * kit/scheduled-calls.ts): at the end hour a losing bid (`OFF_BID`, the bid endpoint's least)
 * stops the instance, as an outbid one is stopped and kept; at the start hour the declared
 * `bidPricePerHour` starts it again. An on-demand instance has no bid: `schedule` is refused.
 *
 * Jobs (the service has DAILY and WEEKLY frequencies with one day and one hour, in UTC):
 * - one DAILY job at the end hour (stopping an instance that is already stopped changes nothing,
 *   so the stop needs no day);
 * - every day (no `days`, or all seven): one DAILY job at the start hour, 2 jobs in all;
 * - otherwise one WEEKLY job per day at the start hour: `days.length + 1` jobs
 *   (Monday to Friday: 6).
 * Their ids are outputs (`scheduleJobIds`, by role: `stop`, `start` or `start-mon`..), written
 * on create and kept by every update: jobs missing from the service are made again, jobs that
 * differ are sent whole again, jobs no longer planned are cancelled.
 *
 * How declaration and schedule agree: an instance whose live bid is `OFF_BID` during its
 * off-hours was stopped by its own schedule (`scheduleState` "off"): the diff neither replaces
 * it (the dead-status rule) nor rebids it, and an update sends no bid (the start job carries the
 * declared one). The same instance during its on-hours (the start job did not run) is brought
 * back by the next `up`, which sends the declared bid ("late").
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { BID_PRICE_MAX, BID_PRICE_MIN, isTimeZone, toUtcSlot, zoneOffsetMinutes, type Instance, type ScheduledJobInfo, type ScheduledJobInput, type VastClient } from "../../client";
import { ScheduledJobUnreadError } from "../../client/areas/scheduled-jobs";
import { Props, containsUnknown, currentTiming } from "../kit";
import { callOf, matches, scheduleOnce } from "../kit/scheduled-calls";

/** Days as `schedule.days` names them; the index is the service's day number (0 = Sunday). */
export const SCHEDULE_DAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;
export type ScheduleDay = (typeof SCHEDULE_DAYS)[number];

/** The losing bid the stop job sets, $/hour: the least the bid endpoint takes. */
export const OFF_BID = BID_PRICE_MIN;
/** How long the jobs run when `until` is left out: a year from their first write, days. */
export const DEFAULT_SCHEDULE_DAYS = 365;
/** A default `until` closer than this is moved a year on by the next refresh and up, days. */
export const RENEW_SCHEDULE_DAYS = 30;
const DAY_MS = 24 * 3_600_000;

/** Outputs the schedule adds to an Instance. */
export const SCHEDULE_OUTPUT_KEYS = ["scheduleJobIds", "scheduleStartedAt", "scheduleUntil", "scheduledOff", "offHoursRunning"] as const;

const HOUR_RULE = 'must be a whole hour "HH:00" from "00:00" to "23:00" (the service runs scheduled jobs on whole hours)';
const wholeHour = z.string({ error: HOUR_RULE }).regex(/^([01]\d|2[0-3]):00$/, HOUR_RULE);

export interface ScheduleInput {
  days?: ScheduleDay[];
  start: string;
  end: string;
  timeZone?: string;
  until?: string;
}

export const SCHEDULE_INPUTS = {
  schedule: z
    .strictObject(
      {
        days: z
          .array(z.enum(SCHEDULE_DAYS, { error: `entries must be days of the week: ${SCHEDULE_DAYS.join(", ")}` }))
          .min(1, "must name at least one day (leave days out for every day)")
          .optional(),
        start: wholeHour,
        end: wholeHour,
        timeZone: z
          .string({ error: "must be a time zone name such as Europe/Berlin" })
          .refine(isTimeZone, "must be a time zone Intl knows, such as Europe/Berlin or UTC")
          .optional(),
        until: z
          .string({ error: "must be an ISO 8601 time such as 2027-12-31T00:00:00Z" })
          .refine((v) => Number.isFinite(Date.parse(v)), "must be an ISO 8601 time such as 2027-12-31T00:00:00Z")
          .optional(),
      },
      { error: 'must be an object such as { start: "08:00", end: "20:00", days: ["mon", "tue", "wed", "thu", "fri"], timeZone: "Europe/Berlin" }' },
    )
    .optional(),
};

const hourOf = (hhmm: string) => Number(hhmm.slice(0, 2));
const absent = (news: Props, key: string) => news[key] === undefined || news[key] === null;

/** The declared schedule, when it is known (not during a preview with unknown values). */
export function scheduleOf(props: Props): ScheduleInput | undefined {
  const s = props.schedule;
  if (s === undefined || s === null || typeof s !== "object" || containsUnknown(s)) return undefined;
  return s as ScheduleInput;
}

/** Rules of `schedule` with the other inputs; skipped where a value is unknown during preview. */
export function scheduleFailures(news: Props): pulumi.dynamic.CheckFailure[] {
  const out: pulumi.dynamic.CheckFailure[] = [];
  const fail = (property: string, reason: string) => out.push({ property, reason: `${property}: ${reason}` });
  if (absent(news, "schedule")) return out;
  if (absent(news, "bidPricePerHour")) {
    fail(
      "schedule",
      "applies only to an interruptible instance (give bidPricePerHour): the service carries out office hours by scheduled bid changes " +
        "(a losing bid stops the instance, the declared bid starts it), and no scheduled stop or start of an on-demand instance is evidenced " +
        `(got a schedule ${JSON.stringify(news.schedule)} without a bid)`,
    );
  }
  const bid = news.bidPricePerHour;
  if (typeof bid === "number" && bid > BID_PRICE_MAX) {
    fail("bidPricePerHour", `must be at most ${BID_PRICE_MAX} with a schedule: the start job sets it through the bid endpoint, which takes no more (got ${bid})`);
  }
  const s = scheduleOf(news);
  if (!s) return out;
  if (typeof s.start === "string" && s.start === s.end) fail("schedule.end", `must differ from schedule.start (both ${s.start}): a day has on-hours and off-hours`);
  if (typeof s.timeZone === "string" && isTimeZone(s.timeZone)) {
    const offset = zoneOffsetMinutes(s.timeZone, new Date(currentTiming().now()));
    if (offset % 60 !== 0) fail("schedule.timeZone", `must be a whole number of hours from UTC: the service runs jobs on whole UTC hours (${s.timeZone} is ${offset} minutes from UTC now)`);
  }
  if (typeof s.until === "string" && Number.isFinite(Date.parse(s.until)) && Date.parse(s.until) <= currentTiming().now()) {
    fail("schedule.until", `must be in the future: after it the service no longer runs the jobs (got ${s.until})`);
  }
  if (Array.isArray(s.days) && new Set(s.days).size !== s.days.length) fail("schedule.days", `must not name a day twice (got ${s.days.join(", ")})`);
  return out;
}

/** Every day, or the days named (in the service's order, Sunday first). */
function daysOf(s: ScheduleInput): ScheduleDay[] {
  return s.days === undefined ? [...SCHEDULE_DAYS] : SCHEDULE_DAYS.filter((d) => s.days!.includes(d));
}

/** Whether `now` falls in the on-hours of the schedule (its local time in `timeZone`). */
export function isOnHours(s: ScheduleInput, now: number): boolean {
  const zone = s.timeZone ?? "UTC";
  const local = new Date(now + zoneOffsetMinutes(zone, new Date(now)) * 60_000);
  const weekday = local.getUTCDay();
  const hour = local.getUTCHours() + local.getUTCMinutes() / 60;
  const start = hourOf(s.start);
  const length = (hourOf(s.end) - start + 24) % 24;
  const days = daysOf(s);
  // The on-hours that began today or (past midnight) yesterday.
  return [0, 1].some((back) => {
    const since = hour + 24 * back - start;
    return days.includes(SCHEDULE_DAYS[(weekday - back + 7) % 7]) && since >= 0 && since < length;
  });
}

/** One job of the schedule, by its role (`stop`, `start`, `start-mon`, ...). */
export interface PlannedJob {
  role: string;
  input: ScheduledJobInput;
}

/** When the jobs start and end: the first write's hour, and `until` or a year after it. */
export interface ScheduleWindow {
  startedAt: string;
  until: string;
}

/**
 * The window of `s`: kept from state once written; a new one starts at the current hour. A
 * default end (no `until`) is a year after the first write, and once it is closer than
 * RENEW_SCHEDULE_DAYS a year after now: a refresh then shows the jobs ending too soon, and the
 * next up sends them again with the later end, so a stack that is applied now and then keeps
 * its office hours.
 */
export function windowOf(olds: Props, s: ScheduleInput, now: number): ScheduleWindow {
  const hour = Math.floor(now / 3_600_000) * 3_600_000;
  const startedAt = typeof olds.scheduleStartedAt === "string" ? olds.scheduleStartedAt : new Date(hour).toISOString();
  if (s.until !== undefined) return { startedAt, until: s.until };
  // The end in state (the default, or an `until` since removed) holds until it is due for renewal.
  const stored = typeof olds.scheduleUntil === "string" ? Date.parse(olds.scheduleUntil) : NaN;
  const until = Number.isFinite(stored) ? (stored - now > RENEW_SCHEDULE_DAYS * DAY_MS ? stored : hour + DEFAULT_SCHEDULE_DAYS * DAY_MS) : Date.parse(startedAt) + DEFAULT_SCHEDULE_DAYS * DAY_MS;
  return { startedAt, until: new Date(until).toISOString() };
}

/**
 * The jobs of the schedule for instance `instanceId` bidding `bid`. Local hours become the
 * service's UTC slots at the zone's offset at `at` (the write, or the refresh that compares):
 * after a daylight-saving change a refresh shows the jobs an hour off and the next `up` moves them.
 */
export function planSchedule(s: ScheduleInput, instanceId: number, bid: number, window: ScheduleWindow, at: Date): PlannedJob[] {
  const zone = s.timeZone ?? "UTC";
  const job = (role: string, price: number, day: number | null, hour: number): PlannedJob => {
    const slot = toUtcSlot({ dayOfWeek: day, hour }, zone, at);
    return {
      role,
      input: {
        instanceId,
        ...callOf("changeBid", instanceId, price),
        frequency: day === null ? "DAILY" : "WEEKLY",
        dayOfWeek: slot.dayOfWeek,
        hourUtc: slot.hourUtc,
        start: window.startedAt,
        end: window.until,
      },
    };
  };
  const days = daysOf(s);
  const starts = days.length === SCHEDULE_DAYS.length ? [job("start", bid, null, hourOf(s.start))] : days.map((d) => job(`start-${d}`, bid, SCHEDULE_DAYS.indexOf(d), hourOf(s.start)));
  return [job("stop", OFF_BID, null, hourOf(s.end)), ...starts];
}

/** The job ids recorded in state, by role. */
export function storedJobIds(props: Props): Record<string, number> {
  const ids = props.scheduleJobIds;
  if (!ids || typeof ids !== "object" || Array.isArray(ids)) return {};
  return Object.fromEntries(Object.entries(ids as Record<string, unknown>).filter((e): e is [string, number] => typeof e[1] === "number"));
}

/** What the schedule records in state. */
export interface ScheduleRecord {
  scheduleJobIds: Record<string, number> | undefined;
  scheduleStartedAt: string | undefined;
  scheduleUntil: string | undefined;
  scheduledOff?: undefined;
  offHoursRunning?: undefined;
}

/** Writing the jobs failed part way: `record` holds every job that exists, so none is left unrecorded. */
export class ScheduleSyncError extends Error {
  constructor(
    message: string,
    readonly record: ScheduleRecord,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ScheduleSyncError";
  }
}

/** Whether a schedule is declared or jobs are recorded: an update then brings the jobs to the declaration. */
export function hasSchedule(olds: Props, news: Props): boolean {
  return scheduleOf(news) !== undefined || Object.keys(storedJobIds(olds)).length > 0;
}

/**
 * Brings the service's jobs for instance `id` to the declaration of `news` (none when it has no
 * schedule): one list call, then only the writes that differ. Returns what state records.
 */
export async function syncSchedule(client: VastClient, id: number, olds: Props, news: Props): Promise<ScheduleRecord> {
  const s = scheduleOf(news);
  const stored = storedJobIds(olds);
  const ids: Record<string, number> = { ...stored };
  const now = currentTiming().now();
  const window = s ? windowOf(olds, s, now) : undefined;
  // Without a schedule and its jobs cancelled, the outputs go (undefined is left out of state).
  const record = (): ScheduleRecord =>
    window ? { scheduleJobIds: { ...ids }, scheduleStartedAt: window.startedAt, scheduleUntil: window.until } : { scheduleJobIds: Object.keys(ids).length > 0 ? { ...ids } : undefined, scheduleStartedAt: undefined, scheduleUntil: undefined, scheduledOff: undefined, offHoursRunning: undefined };
  const plan = s && window ? planSchedule(s, id, Number(news.bidPricePerHour), window, new Date(now)) : [];
  let creating: string | undefined;
  try {
    const live = await client.scheduledJobs.list();
    // Jobs no longer planned go first, so a new job never meets an old one at its slot.
    for (const role of Object.keys(stored)) {
      if (plan.some((p) => p.role === role)) continue;
      await client.scheduledJobs.delete(stored[role]);
      delete ids[role];
    }
    for (const { role, input } of plan) {
      const job = live.find((j) => j.id === ids[role]);
      if (job && matches(job, input)) continue;
      if (job) {
        await client.scheduledJobs.update(job.id, input);
        continue;
      }
      creating = role;
      const made = await scheduleOnce(client, input);
      creating = undefined;
      ids[role] = made.job.id;
      if (made.existing && !matches(made.job, input)) await client.scheduledJobs.update(made.job.id, input);
    }
  } catch (error) {
    // Made but not read back: recorded with the role it was made for.
    if (error instanceof ScheduledJobUnreadError && creating !== undefined) ids[creating] = error.jobId;
    throw new ScheduleSyncError(`writing the schedule's jobs failed: ${(error as Error).message}`, record(), { cause: error });
  }
  return record();
}

/** Cancels every recorded job (delete of the instance). A job already gone is fine. */
export async function cancelSchedule(client: VastClient, props: Props): Promise<void> {
  for (const jobId of Object.values(storedJobIds(props))) await client.scheduledJobs.delete(jobId);
}

/**
 * The schedule as the service carries it out, for drift: the declared one when every job is
 * listed as planned; otherwise `days` keeps only the days whose start job is as planned (`[]`
 * when none is), `end` is null when the stop job is not, and `until` is the jobs' end when it
 * is not the planned one (a default end due for renewal). The next diff then asks for an
 * update, which writes the jobs again.
 */
export function reflectSchedule(props: Props, live: readonly ScheduledJobInfo[], now: number): unknown {
  const s = scheduleOf(props);
  if (!s || typeof props.instanceId !== "number" || typeof props.bidPricePerHour !== "number") return props.schedule;
  const ids = storedJobIds(props);
  const plan = planSchedule(s, props.instanceId, props.bidPricePerHour, windowOf(props, s, now), new Date(now));
  const jobOf = (role: string) => live.find((j) => j.id === ids[role]);
  // As planned but for the end, which is compared once for all below.
  const ok = (role: string) => {
    const planned = plan.find((p) => p.role === role);
    const job = jobOf(role);
    return planned !== undefined && job !== undefined && job.end !== undefined && matches(job, { ...planned.input, end: job.end });
  };
  const seconds = (t: string | number) => Math.floor(new Date(t).getTime() / 1000);
  const until = plan[0].input.end;
  const otherEnd = plan.map((p) => jobOf(p.role)?.end).find((end) => end !== undefined && seconds(end) !== seconds(until));
  if (plan.every((p) => ok(p.role)) && otherEnd === undefined) return props.schedule;
  const shown: Props = { ...s };
  if (otherEnd !== undefined) shown.until = new Date(otherEnd).toISOString();
  if (!ok("stop")) shown.end = null;
  const days = daysOf(s).filter((d) => ok("start") || ok(`start-${d}`));
  if (days.length !== daysOf(s).length) shown.days = days;
  return shown;
}

/** The live bid is the schedule's losing bid (the service shows the bid as `dph_total`). */
export function hasOffBid(instance: Instance): boolean {
  return instance.isBid === true && typeof instance.dphTotal === "number" && Math.abs(instance.dphTotal - OFF_BID) < 1e-9;
}

/**
 * Where a scheduled instance stands: "off" (stopped by its own schedule in its off-hours:
 * neither replaced nor rebid), "late" (still at the losing bid in its on-hours: the next up
 * sends the declared bid), undefined (not scheduled, or at another bid).
 */
export function scheduleState(props: Props, instance: Instance, now: number = currentTiming().now()): "off" | "late" | undefined {
  const s = scheduleOf(props);
  if (!s || !hasOffBid(instance)) return undefined;
  return isOnHours(s, now) ? "late" : "off";
}

/** In an update: whether the bid must be left to the schedule (its off-hours). */
export function bidLeftToSchedule(props: Props, now: number = currentTiming().now()): boolean {
  const s = scheduleOf(props);
  return s !== undefined && !isOnHours(s, now);
}
