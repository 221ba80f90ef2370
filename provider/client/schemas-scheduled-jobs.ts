/** Wire forms of scheduled jobs (`/api/v0/commands/schedule_job/`); public types: types-scheduled-jobs.ts. */
import { z } from "zod";
import { anyNumber, anyRecord, anyString, idNumber, mapped } from "./schema-helpers";
import type { ScheduledJobInfo } from "./types-scheduled-jobs";

const slot = z.unknown().optional().transform((v) => (typeof v === "number" && Number.isInteger(v) ? v : typeof v === "string" && /^\d+$/.test(v) ? Number(v) : null));

function isoOfSeconds(v: number | undefined): string | undefined {
  return v === undefined ? undefined : new Date(Math.round(v * 1000)).toISOString();
}

export const scheduledJobSchema: z.ZodType<ScheduledJobInfo> = mapped(
  {
    id: idNumber,
    instance_id: idNumber,
    api_endpoint: z.string(),
    request_method: anyString,
    request_body: anyRecord,
    frequency: anyString,
    day_of_the_week: slot,
    hour_of_the_day: slot,
    min_of_the_hour: slot,
    start_time: anyNumber,
    end_time: anyNumber,
  },
  (j, raw): ScheduledJobInfo => ({
    id: j.id,
    instanceId: j.instance_id,
    apiEndpoint: j.api_endpoint,
    requestMethod: j.request_method ?? "",
    requestBody: j.request_body ?? {},
    frequency: j.frequency ?? "",
    dayOfWeek: j.day_of_the_week,
    hourUtc: j.hour_of_the_day,
    minute: j.min_of_the_hour,
    start: isoOfSeconds(j.start_time),
    end: isoOfSeconds(j.end_time),
    raw,
  }),
);

/** The vendor's client reads a bare list; a `{scheduled_jobs: [...]}` or `{results: [...]}` wrapper is read too. */
export const scheduledJobListResponse: z.ZodType<ScheduledJobInfo[]> = z.union([
  z.array(scheduledJobSchema),
  z.looseObject({ scheduled_jobs: z.array(scheduledJobSchema) }).transform((r) => r.scheduled_jobs),
  z.looseObject({ results: z.array(scheduledJobSchema) }).transform((r) => r.results),
]);

/** A create's answer: the vendor's client reads only the status; an id, when sent, is kept. */
export const scheduledJobCreateResponse: z.ZodType<{ id: number | undefined }> = z
  .unknown()
  .transform((v) => {
    const r = v && typeof v === "object" ? (v as Record<string, unknown>) : {};
    const id = r.scheduled_job_id ?? r.id ?? (r.scheduled_job as Record<string, unknown> | undefined)?.id;
    return { id: typeof id === "number" && Number.isInteger(id) ? id : typeof id === "string" && /^\d+$/.test(id) ? Number(id) : undefined };
  });
