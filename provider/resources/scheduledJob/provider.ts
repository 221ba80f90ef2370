/**
 * The ScheduledJob provider: one scheduled API call of the service (`/api/v0/commands/schedule_job/`).
 * Every input changes in place (the service takes the whole job again with `PUT .../{id}/`);
 * delete cancels the job. A create the service answers "already exists" (422, the same call at
 * the same slot: a killed run's, or one made by hand) takes that job over and brings it to the
 * declaration (`adopted`).
 */
import { z } from "zod";
import { BID_PRICE_MAX, BID_PRICE_MIN, isTimeZone, WEEKDAYS, zoneOffsetMinutes, type ScheduledJobInfo, type ScheduledJobInput } from "../../client";
import { ScheduledJobUnreadError } from "../../client/areas/scheduled-jobs";
import { getClient } from "../../context";
import { PartialFailure, currentTiming, jsonClean, numericImport, type ImportableImpl, type Props, checkAndDiff } from "../kit";
import { SCHEDULED_JOB } from "./declare";
import { scheduleOnce } from "../kit/scheduled-calls";
import { liveScheduledJobs } from "./live";
import { ACTIONS, inputsOfJob, matches, planOf } from "./plan";

const iso = (field: string) =>
  z.string({ error: "must be an ISO 8601 time such as 2026-12-31T18:00:00Z" }).refine((v) => Number.isFinite(Date.parse(v)), `must be an ISO 8601 time such as 2026-12-31T18:00:00Z (${field})`);

const schema = z
  .object({
    instanceId: z.number({ error: "must be an instance id (a number)" }).int("must be a whole number").positive("must be a positive instance id"),
    action: z.enum(ACTIONS, { error: `must be one of ${ACTIONS.join(", ")}` }),
    price: z.number({ error: "must be a number of $/hour" }).min(BID_PRICE_MIN, `must be at least ${BID_PRICE_MIN} $/hour`).max(BID_PRICE_MAX, `must be at most ${BID_PRICE_MAX} $/hour`).optional(),
    frequency: z.enum(["HOURLY", "DAILY", "WEEKLY"], { error: "must be one of HOURLY, DAILY, WEEKLY" }),
    day: z.enum(WEEKDAYS, { error: `must be a day of the week: ${WEEKDAYS.join(", ")}` }).optional(),
    hour: z.number({ error: "must be an hour 0-23" }).int("must be a whole hour 0-23 (the service takes no minute)").min(0, "must be an hour 0-23").max(23, "must be an hour 0-23").optional(),
    timeZone: z.string({ error: "must be a time zone name such as Europe/Berlin" }).refine(isTimeZone, "must be a time zone Intl knows, such as Europe/Berlin or UTC").optional(),
    start: iso("start").optional(),
    end: iso("end"),
  })
  .superRefine((v, ctx) => {
    if (v.action === "changeBid" && v.price === undefined) ctx.addIssue({ code: "custom", path: ["price"], message: "is required for action changeBid (the new bid, $/hour)" });
    if (v.action !== "changeBid" && v.price !== undefined) ctx.addIssue({ code: "custom", path: ["price"], message: `applies only to action changeBid (got action ${v.action})` });
    if (v.frequency === "HOURLY" && (v.day !== undefined || v.hour !== undefined)) ctx.addIssue({ code: "custom", path: [v.day !== undefined ? "day" : "hour"], message: "an HOURLY job takes no day and no hour" });
    if (v.frequency === "DAILY" && v.hour === undefined) ctx.addIssue({ code: "custom", path: ["hour"], message: "is required for a DAILY job (0-23)" });
    if (v.frequency === "DAILY" && v.day !== undefined) ctx.addIssue({ code: "custom", path: ["day"], message: "a DAILY job takes no day" });
    if (v.frequency === "WEEKLY" && v.day === undefined) ctx.addIssue({ code: "custom", path: ["day"], message: "is required for a WEEKLY job" });
    if (v.frequency === "WEEKLY" && v.hour === undefined) ctx.addIssue({ code: "custom", path: ["hour"], message: "is required for a WEEKLY job (0-23)" });
    const start = v.start !== undefined ? Date.parse(v.start) : currentTiming().now();
    // The service takes a UTC hour and no minute (toUtcSlot): a zone a fraction of an hour from UTC
    // at the start (Asia/Kathmandu, India, Newfoundland, ...) has no slot, so it is refused here, not at create.
    if (v.timeZone !== undefined && isTimeZone(v.timeZone) && v.frequency !== "HOURLY" && Number.isFinite(start)) {
      const offset = zoneOffsetMinutes(v.timeZone, new Date(start));
      if (offset % 60 !== 0) {
        ctx.addIssue({
          code: "custom",
          path: ["timeZone"],
          message: `must be whole hours from UTC at the start (scheduled jobs run on whole UTC hours; the service takes no minute): ${v.timeZone} is ${offset} minutes from UTC at ${new Date(start).toISOString()}; give the hour in UTC or a zone of whole hours`,
        });
      }
    }
    if (Number.isFinite(Date.parse(v.end)) && Number.isFinite(start) && Date.parse(v.end) <= start) {
      ctx.addIssue({ code: "custom", path: ["end"], message: `must be after the start (${new Date(start).toISOString()}; got ${v.end})` });
    }
  });

function jobIdOf(id: string): number {
  const n = Number(id);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`ScheduledJob id "${id}" is not a numeric scheduled job id`);
  return n;
}

const labelOf = (p: Props) => `ScheduledJob (${String(p.action)} on instance ${String(p.instanceId)})`;

function outputsOf(job: { id: number; apiEndpoint: string; dayOfWeek: number | null; hourUtc: number | null; minute: number | null }, startedAt: string, adopted: boolean): Props {
  return { jobId: job.id, apiEndpoint: job.apiEndpoint, dayOfWeekUtc: job.dayOfWeek, hourUtc: job.hourUtc, minute: job.minute, startedAt, adopted };
}

/** The outputs of job `id` as `plan` sent it (a read-back failed); the minute is the service's, unknown. */
function plannedOutputs(id: number, plan: ScheduledJobInput, startedAt: string): Props {
  return { jobId: id, apiEndpoint: plan.apiEndpoint, dayOfWeekUtc: plan.dayOfWeek, hourUtc: plan.hourUtc, minute: null, startedAt };
}

export const provider: ImportableImpl = {
  // importId: the job's id (`getScheduledJobs`); declared inputs that differ are written in place.
  importing: numericImport("ScheduledJob", "scheduled job"),

  ...checkAndDiff(SCHEDULED_JOB, schema),

  async create(inputs) {
    const client = getClient();
    const startedAt = typeof inputs.start === "string" ? inputs.start : new Date(currentTiming().now()).toISOString();
    const plan = planOf(inputs, startedAt);
    try {
      const made = await scheduleOnce(client, plan);
      let job = made.job;
      if (made.existing && !matches(job, plan)) {
        await client.scheduledJobs.update(job.id, plan);
        job = (await client.scheduledJobs.list()).find((j) => j.id === job.id) ?? job;
      }
      return { id: String(job.id), outs: jsonClean({ ...inputs, ...outputsOf(job, startedAt, made.existing) }) as Props };
    } catch (error) {
      // Made but not read back: recorded in state with what was sent, never left unrecorded.
      if (error instanceof ScheduledJobUnreadError) {
        throw new PartialFailure(`${labelOf(inputs)}: ${error.message}`, String(error.jobId), inputs, { ...plannedOutputs(error.jobId, plan, startedAt), adopted: false });
      }
      throw new Error(`${labelOf(inputs)}: scheduling failed: ${(error as Error).message}`, { cause: error });
    }
  },

  // A job the service no longer lists was cancelled (or ended and was dropped): gone. A job that
  // differs from the declaration shows its live call and UTC slot, so the next up puts it back.
  async read(id, props) {
    const n = jobIdOf(id);
    const live = await liveScheduledJobs().get(String(n));
    if (!live) return { id: "" };
    const startedAt = typeof props.startedAt === "string" ? props.startedAt : (live.start ?? "");
    const declared = Object.fromEntries(["instanceId", "action", "price", "frequency", "day", "hour", "timeZone", "start", "end"].filter((k) => k in props).map((k) => [k, props[k]]));
    const inputs = matches(live, planOf(declared, startedAt)) ? declared : inputsOfJob(live);
    return { id, props: jsonClean({ ...props, ...inputs, ...outputsOf(live, startedAt, props.adopted === true) }) as Props, inputs: jsonClean(inputs) as Props };
  },

  async update(id, olds, news) {
    const n = jobIdOf(id);
    const startedAt = typeof news.start === "string" ? news.start : typeof olds.startedAt === "string" ? olds.startedAt : new Date(currentTiming().now()).toISOString();
    const plan = planOf(news, startedAt);
    const client = getClient();
    try {
      await client.scheduledJobs.update(n, plan);
    } catch (error) {
      throw new Error(`${labelOf(news)}: updating scheduled job ${n} failed: ${(error as Error).message}`, { cause: error });
    }
    let job: ScheduledJobInfo | undefined;
    try {
      job = (await client.scheduledJobs.list()).find((j) => j.id === n);
    } catch (error) {
      // The change landed: state records what was sent, never the old slot.
      throw new PartialFailure(`${labelOf(news)}: scheduled job ${n} was changed, but reading it back failed: ${(error as Error).message}`, id, news, { ...plannedOutputs(n, plan, startedAt), adopted: olds.adopted === true });
    }
    const outs = job ? outputsOf(job, startedAt, olds.adopted === true) : { startedAt };
    return { outs: jsonClean({ ...news, ...outs }) as Props };
  },

  async delete(id) {
    await getClient().scheduledJobs.delete(jobIdOf(id));
  },
};
