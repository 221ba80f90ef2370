/**
 * Scheduled jobs (`/api/v0/commands/schedule_job/`): API calls the service makes itself at set
 * UTC times between a start and an end (the vendor's client schedules bid changes, reboots,
 * execute and cloud copy this way). The wire's Unix seconds and snake_case stop here.
 */
import type { RequestCore } from "../core";
import { ENDPOINTS } from "../endpoints";
import { VastApiError, VastValidationError, WriteNotSeenError } from "../errors";
import { acknowledgedResponse } from "../schemas";
import { scheduledJobCreateResponse, scheduledJobListResponse } from "../schemas-scheduled-jobs";
import { frequencyProblem, type ScheduledJobInfo, type ScheduledJobInput } from "../types-scheduled-jobs";
import type { DeleteResult } from "../types-templates";
import { deleteConfirmed, writeSeen } from "./confirm";

/** A scheduled job was made (the service answered its id) but reading it back failed. */
export class ScheduledJobUnreadError extends Error {
  constructor(
    readonly jobId: number,
    override readonly cause: Error,
  ) {
    super(`the service made scheduled job ${jobId}, but reading it back failed: ${cause.message}`);
    this.name = "ScheduledJobUnreadError";
  }
}

function seconds(value: string | number, field: string): number {
  const ms = typeof value === "number" ? value : Date.parse(value);
  if (!Number.isFinite(ms)) throw new VastValidationError(`scheduled job ${field} must be an ISO 8601 time (got ${JSON.stringify(value)})`);
  return Math.floor(ms / 1000);
}

/** The body the vendor's client sends for a create and, whole again, for an update. */
export function scheduledJobBody(input: ScheduledJobInput): Record<string, unknown> {
  const problem = frequencyProblem(input.frequency, input.dayOfWeek, input.hourUtc);
  if (problem) throw new VastValidationError(`scheduled job: ${problem}`);
  const start = seconds(input.start, "start");
  const end = seconds(input.end, "end");
  if (start >= end) throw new VastValidationError(`scheduled job start must be before its end (got ${new Date(start * 1000).toISOString()} and ${new Date(end * 1000).toISOString()})`);
  if (!/^\/api\/v[01]\//.test(input.apiEndpoint)) throw new VastValidationError(`scheduled job apiEndpoint must be a path of the API such as /api/v0/instances/reboot/1/ (got ${JSON.stringify(input.apiEndpoint)})`);
  return {
    start_time: start,
    end_time: end,
    api_endpoint: input.apiEndpoint,
    request_method: input.requestMethod,
    request_body: input.requestBody,
    day_of_the_week: input.dayOfWeek ?? null,
    hour_of_the_day: input.hourUtc ?? null,
    frequency: input.frequency,
    instance_id: input.instanceId,
  };
}

/** Whether a listed job is the one `input` describes (the same call at the same slot). */
export function sameJob(job: ScheduledJobInfo, input: ScheduledJobInput): boolean {
  return (
    job.instanceId === input.instanceId &&
    job.apiEndpoint === input.apiEndpoint &&
    job.requestMethod === input.requestMethod &&
    job.dayOfWeek === (input.dayOfWeek ?? null) &&
    job.hourUtc === (input.hourUtc ?? null)
  );
}

/** The scheduled-jobs area of the client. */
export class ScheduledJobsApi {
  constructor(private readonly core: RequestCore) {}

  /** Jobs of the account (a bare list on the wire). */
  list(): Promise<ScheduledJobInfo[]> {
    return this.core.request({ endpoint: ENDPOINTS.scheduledJobsList, schema: scheduledJobListResponse });
  }

  /**
   * Create a job and return it as listed. When the service says the job exists already (422,
   * as the vendor's client reads it), `existing: true` and the existing job are returned: the
   * caller decides whether to update it. Not resent if the response is lost.
   */
  async create(input: ScheduledJobInput): Promise<{ job: ScheduledJobInfo; existing: boolean }> {
    const body = scheduledJobBody(input);
    let id: number | undefined;
    let existing = false;
    try {
      id = (await this.core.request({ endpoint: ENDPOINTS.scheduledJobsCreate, body, schema: scheduledJobCreateResponse })).id;
    } catch (error) {
      if (!(error instanceof VastApiError && error.status === 422 && error.fromService)) throw error;
      existing = true;
    }
    let listed: ScheduledJobInfo[];
    try {
      listed = await this.list();
    } catch (error) {
      // The job exists: say which, so the caller can keep it rather than leave it unrecorded.
      if (id !== undefined) throw new ScheduledJobUnreadError(id, error as Error);
      throw error;
    }
    const job = (id !== undefined ? listed.find((j) => j.id === id) : undefined) ?? listed.filter((j) => sameJob(j, input)).sort((a, b) => b.id - a.id)[0];
    // The documented answer alone proves nothing: a job the service does not list was not made.
    if (!job) throw new WriteNotSeenError(`scheduled job for ${input.requestMethod} ${input.apiEndpoint}`, "create", ENDPOINTS.scheduledJobsCreate, "the service does not list it");
    return { job, existing };
  }

  /** Replace every field of job `id` (the vendor's client sends the whole job). */
  async update(id: number, input: ScheduledJobInput): Promise<void> {
    const body = scheduledJobBody(input);
    await this.core.request({ endpoint: ENDPOINTS.scheduledJobsUpdate, params: { id }, body, schema: acknowledgedResponse });
    // The documented answer alone proves nothing: the listed job must carry the terms sent.
    await writeSeen(`scheduled job ${id}`, "update", ENDPOINTS.scheduledJobsUpdate, async () => {
      const job = (await this.list()).find((j) => j.id === id);
      if (!job) return "reading it back shows no job of that id";
      const at = (iso: string | undefined) => (iso === undefined ? undefined : Math.floor(Date.parse(iso) / 1000));
      const same = sameJob(job, input) && job.frequency === body.frequency && at(job.start) === body.start_time && at(job.end) === body.end_time;
      return same ? null : "reading it back shows its old terms";
    });
  }

  /** Delete (cancel) job `id`; the service's own 404 resolves `{alreadyGone: true}`. */
  delete(id: number): Promise<DeleteResult> {
    return deleteConfirmed({
      what: `scheduled job ${id}`,
      // The documented answer alone proves nothing: the delete counts once a read shows it gone.
      readBack: true,
      run: () => this.core.request({ endpoint: ENDPOINTS.scheduledJobsDelete, params: { id }, schema: acknowledgedResponse }),
      stillThere: async () => (await this.list()).some((j) => j.id === id),
    });
  }
}
