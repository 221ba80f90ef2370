/**
 * Scheduled calls of the service (`/api/v0/commands/schedule_job/`), shared by the resources that
 * write them: ScheduledJob (one job) and Instance's `schedule` (its office-hours jobs). The call
 * of an action, whether a listed job is what a plan asks for, the create that is never resent
 * after a lost answer, and the shared reader of the account's jobs.
 */
import { ResponseLostError, type ScheduledJobInfo, type ScheduledJobInput, type VastClient } from "../../client";
import { sameJob } from "../../client/areas/scheduled-jobs";
import { getClient } from "../../context";
import { lookUp } from "./create-once";
import { readerFor } from "./live/readers";
import type { SharedList } from "./live/shared-list";

/** The actions a job may run: those the vendor's client schedules and the simulator serves. */
export const ACTIONS = ["reboot", "changeBid"] as const;
export type Action = (typeof ACTIONS)[number];

/** The call of an action on instance `id`, as the vendor's client schedules it. */
export function callOf(action: Action, instanceId: number, price: number | undefined): Pick<ScheduledJobInput, "apiEndpoint" | "requestMethod" | "requestBody"> {
  if (action === "reboot") return { apiEndpoint: `/api/v0/instances/reboot/${instanceId}/`, requestMethod: "PUT", requestBody: { instance_id: instanceId } };
  return { apiEndpoint: `/api/v0/instances/bid_price/${instanceId}/`, requestMethod: "PUT", requestBody: { client_id: "me", price, instance_id: instanceId } };
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

/**
 * Sends the create. A create whose answer was lost is not resent: the job it made (the same call
 * at the same slot, on the same instance) is looked for over the look-up window and taken, so no
 * job is left running that no state holds. `existing`: the service said the job existed already.
 */
export async function scheduleOnce(client: VastClient, plan: ScheduledJobInput): Promise<{ job: ScheduledJobInfo; existing: boolean }> {
  try {
    return await client.scheduledJobs.create(plan);
  } catch (error) {
    if (!(error instanceof ResponseLostError)) throw error;
    const found = await lookUp(async () => (await client.scheduledJobs.list()).find((j) => sameJob(j, plan)));
    if (!found) throw error;
    return { job: found, existing: false };
  }
}

/** Scheduled jobs of the account, by id: a refresh of many resources makes one list call. */
export function liveScheduledJobs(client: VastClient = getClient()): SharedList<ScheduledJobInfo> {
  return readerFor<ScheduledJobInfo>(client, "scheduledJobs", (c) => ({
    fetchAll: () => c.scheduledJobs.list(),
    keyOf: (j) => String(j.id),
  }));
}
