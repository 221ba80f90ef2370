/** Lookups of the account's scheduled jobs (`GET /api/v0/commands/schedule_job/`). */
import * as pulumi from "@pulumi/pulumi";
import type { ScheduledJobInfo } from "../client";
import { LookupOptions, clientOf } from "./common";

/** Which scheduled jobs `getScheduledJobs` returns. */
export interface ScheduledJobsArgs {
  /** Only the jobs of this instance. */
  instanceId?: number;
}

/** The account's scheduled jobs (UTC slots, ISO times), optionally those of one instance. */
export async function getScheduledJobs(args: ScheduledJobsArgs = {}, options?: LookupOptions): Promise<ScheduledJobInfo[]> {
  const jobs = await clientOf(options).scheduledJobs.list();
  return args.instanceId === undefined ? jobs : jobs.filter((j) => j.instanceId === args.instanceId);
}

/** `getScheduledJobs` as an Output; `instanceId` may be an Output (an Instance's `instanceId`). */
export function getScheduledJobsOutput(args: { instanceId?: pulumi.Input<number> } = {}, options?: LookupOptions): pulumi.Output<ScheduledJobInfo[]> {
  return pulumi.output(args.instanceId).apply((instanceId) => getScheduledJobs({ instanceId }, options));
}
