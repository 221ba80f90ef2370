/**
 * Scheduled jobs: API calls the service makes itself at set times (`/api/v0/commands/schedule_job/`,
 * `.../{id}/`). Not in the vendor document; shapes from the vendor's client (`vastai/api/auth.py`
 * create/update/delete/show, `vastai/cli/util.py` add_scheduled_job, `scheduled_jobs_fields`):
 *
 * - `POST` `{start_time, end_time, api_endpoint, request_method, request_body, day_of_the_week,
 *   hour_of_the_day, frequency, instance_id}`; 422 with `scheduled_job_id` when the job already
 *   exists (the client then offers `PUT .../{id}/` with the same body). Which fields make two jobs
 *   "the same" is not shown: here, the same instance, endpoint, method, day and hour.
 * - `GET` answers a bare list of jobs with `min_of_the_hour` beside the fields sent (the client
 *   sends no minute: here it is the minute of `start_time`).
 * - `HOURLY` has no day and no hour, `DAILY` an hour and no day, `WEEKLY` both (the client's
 *   validate_frequency_values); hours and days are UTC, day 0 is Sunday.
 * - Scopes (the client's scope table): reads `instance_read`, writes `instance_write`.
 *
 * Running: on the simulator's clock, a job's due occurrence makes its call through the
 * simulator's own routes (HTTP to its own loopback address, with the owner's key, header
 * `x-vast-scheduled-job`),
 * as the service would: the call is in the request log and has its effects (a bid change stops an
 * outbid instance). Due jobs run before each API request is handled, on `POST
 * /_sim/scheduled-jobs/run` and once a second on a timer; occurrences missed in between run once
 * (the latest), as a cron that catches up.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { SimContext } from "../context";
import { requirePermission } from "../http/auth";
import { apiError, invalidArgs, notFound, show } from "../http/errors";
import { bodyOf, idParam, type Body } from "../http/validate";
import type { ScheduledJobRecord } from "../store/types";

const FREQUENCIES = ["HOURLY", "DAILY", "WEEKLY"] as const;
const METHODS = ["GET", "POST", "PUT", "DELETE"] as const;
const HOUR = 3600;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
/** 1970-01-04, the first Sunday of the epoch, in Unix seconds. */
const FIRST_SUNDAY = 3 * DAY;
/** Header that marks a call the service made for a scheduled job. */
export const SCHEDULED_JOB_HEADER = "x-vast-scheduled-job";

function jobs(ctx: SimContext): { nextId: number; jobs: ScheduledJobRecord[] } {
  if (!ctx.store.data.scheduledJobs) ctx.store.data.scheduledJobs = { nextId: 1, jobs: [] };
  return ctx.store.data.scheduledJobs;
}

/** A job in the vendor client's shape (`scheduled_jobs_fields`). */
export function scheduledJobView(j: ScheduledJobRecord): Record<string, unknown> {
  return {
    id: j.id,
    user_id: j.userId,
    instance_id: j.instanceId,
    api_endpoint: j.apiEndpoint,
    request_method: j.requestMethod,
    request_body: j.requestBody,
    start_time: j.startTime,
    end_time: j.endTime,
    day_of_the_week: j.dayOfTheWeek,
    hour_of_the_day: j.hourOfTheDay,
    min_of_the_hour: j.minOfTheHour,
    frequency: j.frequency,
  };
}

function intOrNull(body: Body, field: string, max: number): number | null {
  const v = body[field];
  if (v === undefined || v === null || v === "*") return null;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > max) throw invalidArgs(`${field} must be 0-${max} or null (got ${show(v)})`);
  return v;
}

function timeOf(body: Body, field: string): number {
  const v = body[field];
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0) throw invalidArgs(`${field} must be a Unix time in seconds (got ${show(v)})`);
  return v;
}

type JobFields = Omit<ScheduledJobRecord, "id" | "userId" | "createdAt" | "lastRunAt" | "lastStatus" | "runs">;

function fieldsOf(ctx: SimContext, userId: number, body: Body): JobFields {
  const frequency = body.frequency;
  if (typeof frequency !== "string" || !(FREQUENCIES as readonly string[]).includes(frequency)) {
    throw invalidArgs(`frequency must be one of ${FREQUENCIES.join(", ")} (got ${show(frequency)})`);
  }
  const day = intOrNull(body, "day_of_the_week", 6);
  const hour = intOrNull(body, "hour_of_the_day", 23);
  if (frequency === "HOURLY" && (day !== null || hour !== null)) throw invalidArgs('For HOURLY jobs, day and hour must both be "*".');
  if (frequency === "DAILY" && (day !== null || hour === null)) throw invalidArgs('For DAILY jobs, day must be "*" and hour must have a value between 0-23.');
  if (frequency === "WEEKLY" && (day === null || hour === null)) throw invalidArgs("For WEEKLY jobs, day must have a value between 0-6 and hour must have a value between 0-23.");
  const startTime = timeOf(body, "start_time");
  const endTime = timeOf(body, "end_time");
  if (startTime >= endTime) throw invalidArgs(`start_time must be before end_time (got ${startTime} and ${endTime})`);
  const apiEndpoint = body.api_endpoint;
  if (typeof apiEndpoint !== "string" || !/^\/api\/v[01]\/[A-Za-z0-9_/.-]*$/.test(apiEndpoint)) {
    throw invalidArgs(`api_endpoint must be a path of the API such as /api/v0/instances/reboot/123/ (got ${show(apiEndpoint)})`);
  }
  const method = body.request_method;
  if (typeof method !== "string" || !(METHODS as readonly string[]).includes(method)) throw invalidArgs(`request_method must be one of ${METHODS.join(", ")} (got ${show(method)})`);
  const requestBody = body.request_body ?? {};
  if (typeof requestBody !== "object" || requestBody === null || Array.isArray(requestBody)) throw invalidArgs(`request_body must be an object (got ${show(requestBody)})`);
  const instanceId = body.instance_id;
  if (typeof instanceId !== "number" || !Number.isInteger(instanceId) || instanceId <= 0) throw invalidArgs(`instance_id must be an instance id (got ${show(instanceId)})`);
  if (!ctx.store.data.instances.some((i) => i.id === instanceId && i.userId === userId)) {
    throw notFound("no_such_instance", `Instance with that ID does not exist (${instanceId}).`);
  }
  return {
    instanceId,
    apiEndpoint,
    requestMethod: method as JobFields["requestMethod"],
    requestBody: requestBody as Record<string, unknown>,
    frequency: frequency as JobFields["frequency"],
    dayOfTheWeek: day,
    hourOfTheDay: hour,
    minOfTheHour: new Date(startTime * 1000).getUTCMinutes(),
    startTime,
    endTime,
  };
}

function own(ctx: SimContext, request: FastifyRequest<{ Params: { id: string } }>, userId: number): ScheduledJobRecord {
  const id = idParam(request.params.id, "scheduled job id");
  const job = jobs(ctx).jobs.find((j) => j.id === id && j.userId === userId);
  if (!job) throw notFound("not_found", `No scheduled job with id ${id} on this account`);
  return job;
}

/** The latest occurrence of `job` at or before `t` (Unix seconds), ignoring start and end. */
export function occurrenceAtOrBefore(job: Pick<ScheduledJobRecord, "frequency" | "dayOfTheWeek" | "hourOfTheDay" | "minOfTheHour">, t: number): number {
  const minute = job.minOfTheHour * 60;
  const [period, offset] =
    job.frequency === "HOURLY"
      ? [HOUR, minute]
      : job.frequency === "DAILY"
        ? [DAY, (job.hourOfTheDay ?? 0) * HOUR + minute]
        : [WEEK, FIRST_SUNDAY + (job.dayOfTheWeek ?? 0) * DAY + (job.hourOfTheDay ?? 0) * HOUR + minute];
  return Math.floor((t - offset) / period) * period + offset;
}

/** The occurrence due now and not yet run, if any. */
function dueOccurrence(job: ScheduledJobRecord, nowSec: number): number | undefined {
  const upTo = Math.min(nowSec, job.endTime);
  const t = occurrenceAtOrBefore(job, upTo);
  const after = job.lastRunAt ?? Math.max(job.startTime, job.createdAt) - 1;
  return t > after && t >= job.startTime && t <= job.endTime ? t : undefined;
}

/** Makes the job's call over HTTP to the simulator's own address (loopback), as the service would. */
async function callOwnRoute(app: FastifyInstance, job: ScheduledJobRecord, apiKey: string): Promise<number> {
  const address = app.server.address();
  if (!address || typeof address === "string") return 0;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  try {
    const res = await fetch(`http://${host}:${address.port}${job.apiEndpoint}`, {
      method: job.requestMethod,
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json", [SCHEDULED_JOB_HEADER]: String(job.id) },
      ...(job.requestMethod === "GET" ? {} : { body: JSON.stringify(job.requestBody) }),
      signal: AbortSignal.timeout(10_000),
    });
    await res.arrayBuffer().catch(() => undefined);
    return res.status;
  } catch {
    return 0;
  }
}

/** Simulators whose due jobs are being run now (a job's own call must not start another round). */
const running = new WeakSet<SimContext>();

/** Makes the calls of every job due on the simulator's clock; returns how many ran. */
export async function runDueJobs(app: FastifyInstance, ctx: SimContext): Promise<number> {
  if (running.has(ctx) || !ctx.store.data.scheduledJobs) return 0;
  running.add(ctx);
  let ran = 0;
  try {
    const nowSec = Math.floor(ctx.now() / 1000);
    for (const job of [...jobs(ctx).jobs].sort((a, b) => a.id - b.id)) {
      const at = dueOccurrence(job, nowSec);
      if (at === undefined) continue;
      // Marked before the call: a call that fails is not retried at the next request.
      job.lastRunAt = at;
      job.runs += 1;
      const key = ctx.store.primaryKeyOf(job.userId);
      if (!key) {
        job.lastStatus = 401;
      } else {
        job.lastStatus = await callOwnRoute(app, job, key.key);
      }
      ctx.store.changed();
      ran += 1;
    }
  } finally {
    running.delete(ctx);
  }
  return ran;
}

export function registerScheduledJobs(app: FastifyInstance, ctx: SimContext): void {
  app.addHook("preHandler", async (request) => {
    if (request.sim?.api && request.headers[SCHEDULED_JOB_HEADER] === undefined) await runDueJobs(app, ctx);
  });
  const timer = setInterval(() => void runDueJobs(app, ctx).catch(() => undefined), 1000);
  timer.unref();
  app.addHook("onClose", async () => clearInterval(timer));

  app.post("/_sim/scheduled-jobs/run", { config: { auth: "none" } }, async () => ({ ran: await runDueJobs(app, ctx) }));
  // Control: each job with when it last ran and the status its call got (the API does not show these).
  app.get("/_sim/scheduled-jobs", { config: { auth: "none" } }, () =>
    (ctx.store.data.scheduledJobs?.jobs ?? []).map((j) => ({ ...scheduledJobView(j), last_run_time: j.lastRunAt, last_status: j.lastStatus, runs: j.runs })),
  );

  app.get("/api/v0/commands/schedule_job/", (req) => {
    const userId = requirePermission(req, "instance_read").user.id;
    return jobs(ctx).jobs.filter((j) => j.userId === userId).map(scheduledJobView);
  });

  app.post("/api/v0/commands/schedule_job/", (req) => {
    const userId = requirePermission(req, "instance_write").user.id;
    const fields = fieldsOf(ctx, userId, bodyOf(req.body));
    const same = jobs(ctx).jobs.find(
      (j) =>
        j.userId === userId &&
        j.instanceId === fields.instanceId &&
        j.apiEndpoint === fields.apiEndpoint &&
        j.requestMethod === fields.requestMethod &&
        j.dayOfTheWeek === fields.dayOfTheWeek &&
        j.hourOfTheDay === fields.hourOfTheDay,
    );
    if (same) throw apiError(422, "job_exists", "Existing scheduled job found", { scheduled_job_id: same.id });
    const store = jobs(ctx);
    const job: ScheduledJobRecord = { id: store.nextId++, userId, ...fields, createdAt: Math.floor(ctx.now() / 1000), lastRunAt: null, lastStatus: null, runs: 0 };
    store.jobs.push(job);
    ctx.store.changed();
    return { success: true, msg: "Scheduled job created", scheduled_job_id: job.id };
  });

  // The vendor's client sends the whole job again (its update_scheduled_job sends the create's body).
  app.put<{ Params: { id: string } }>("/api/v0/commands/schedule_job/:id/", (req) => {
    const userId = requirePermission(req, "instance_write").user.id;
    const job = own(ctx, req, userId);
    const body = { ...scheduledJobView(job), ...bodyOf(req.body) };
    const fields = fieldsOf(ctx, userId, body);
    Object.assign(job, fields);
    ctx.store.changed();
    return { success: true, msg: "Scheduled job updated", scheduled_job: scheduledJobView(job) };
  });

  app.delete<{ Params: { id: string } }>("/api/v0/commands/schedule_job/:id/", (req) => {
    const userId = requirePermission(req, "instance_write").user.id;
    const job = own(ctx, req, userId);
    jobs(ctx).jobs = jobs(ctx).jobs.filter((j) => j !== job);
    ctx.store.changed();
    return { success: true, msg: `Scheduled job ${job.id} deleted` };
  });
}
