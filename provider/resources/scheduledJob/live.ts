/** The shared reader of scheduled jobs: a refresh of many ScheduledJob resources makes one list call. */
import type { ScheduledJobInfo, VastClient } from "../../client";
import { getClient } from "../../context";
import { readerFor, type SharedList } from "../kit";

/** Scheduled jobs of the account, by id. */
export function liveScheduledJobs(client: VastClient = getClient()): SharedList<ScheduledJobInfo> {
  return readerFor<ScheduledJobInfo>(client, "scheduledJobs", (c) => ({
    fetchAll: () => c.scheduledJobs.list(),
    keyOf: (j) => String(j.id),
  }));
}
