/**
 * What a ScheduledJob's inputs ask the service for: the call (the action on the instance) and
 * its UTC slot. The local day and hour become the service's UTC fields in the client
 * (`toUtcSlot`, at the zone's offset at the job's start).
 */
import { toUtcSlot, WEEKDAYS, type ScheduledJobInfo, type ScheduledJobInput } from "../../client";
import type { Props } from "../kit";

/** The actions a job may run: those the vendor's client schedules and the simulator serves. */
export const ACTIONS = ["reboot", "changeBid"] as const;
export type Action = (typeof ACTIONS)[number];

/** The call of an action on instance `id`, as the vendor's client schedules it. */
export function callOf(action: Action, instanceId: number, price: number | undefined): Pick<ScheduledJobInput, "apiEndpoint" | "requestMethod" | "requestBody"> {
  if (action === "reboot") return { apiEndpoint: `/api/v0/instances/reboot/${instanceId}/`, requestMethod: "PUT", requestBody: { instance_id: instanceId } };
  return { apiEndpoint: `/api/v0/instances/bid_price/${instanceId}/`, requestMethod: "PUT", requestBody: { client_id: "me", price, instance_id: instanceId } };
}

/** The job the inputs describe; `start` fills in when the inputs leave it out (the create's time). */
export function planOf(inputs: Props, start: string): ScheduledJobInput {
  const instanceId = Number(inputs.instanceId);
  const frequency = String(inputs.frequency) as ScheduledJobInput["frequency"];
  const timeZone = typeof inputs.timeZone === "string" ? inputs.timeZone : "UTC";
  const startAt = typeof inputs.start === "string" ? inputs.start : start;
  const day = typeof inputs.day === "string" ? WEEKDAYS.indexOf(inputs.day.toLowerCase() as (typeof WEEKDAYS)[number]) : null;
  const hour = typeof inputs.hour === "number" ? inputs.hour : null;
  const slot = frequency === "HOURLY" || hour === null ? { dayOfWeek: null, hourUtc: null } : toUtcSlot({ dayOfWeek: frequency === "WEEKLY" ? day : null, hour }, timeZone, new Date(startAt));
  return {
    instanceId,
    ...callOf(inputs.action as Action, instanceId, typeof inputs.price === "number" ? inputs.price : undefined),
    frequency,
    dayOfWeek: slot.dayOfWeek,
    hourUtc: frequency === "HOURLY" ? null : slot.hourUtc,
    start: startAt,
    end: String(inputs.end),
  };
}

const sameTime = (a: string | number | undefined, b: string | number | undefined) => a !== undefined && b !== undefined && Math.floor(new Date(a).getTime() / 1000) === Math.floor(new Date(b).getTime() / 1000);

/** Whether the listed job is what the plan asks for (body compared field by field). */
export function matches(job: ScheduledJobInfo, plan: ScheduledJobInput): boolean {
  return (
    job.instanceId === plan.instanceId &&
    job.apiEndpoint === plan.apiEndpoint &&
    job.requestMethod === plan.requestMethod &&
    job.frequency === plan.frequency &&
    job.dayOfWeek === (plan.dayOfWeek ?? null) &&
    job.hourUtc === (plan.hourUtc ?? null) &&
    sameTime(job.start, plan.start) &&
    sameTime(job.end, plan.end) &&
    JSON.stringify(job.requestBody.price ?? null) === JSON.stringify(plan.requestBody.price ?? null)
  );
}

/** The inputs a listed job stands for, in UTC (what a refresh shows when it differs from the declaration). */
export function inputsOfJob(job: ScheduledJobInfo): Props {
  const action: Action = job.apiEndpoint.includes("/bid_price/") ? "changeBid" : "reboot";
  return {
    instanceId: job.instanceId,
    action,
    ...(action === "changeBid" && typeof job.requestBody.price === "number" ? { price: job.requestBody.price } : {}),
    frequency: job.frequency,
    ...(job.frequency === "WEEKLY" && job.dayOfWeek !== null ? { day: WEEKDAYS[job.dayOfWeek] } : {}),
    ...(job.frequency !== "HOURLY" && job.hourUtc !== null ? { hour: job.hourUtc } : {}),
    timeZone: "UTC",
    start: job.start,
    end: job.end,
  };
}
