/**
 * What a ScheduledJob's inputs ask the service for: the call (the action on the instance) and
 * its UTC slot. The local day and hour become the service's UTC fields in the client
 * (`toUtcSlot`, at the zone's offset at the job's start).
 */
import { toUtcSlot, WEEKDAYS, type ScheduledJobInfo, type ScheduledJobInput } from "../../client";
import type { Props } from "../kit";
import { callOf, type Action } from "../kit/scheduled-calls";

export { ACTIONS, callOf, matches, type Action } from "../kit/scheduled-calls";

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
