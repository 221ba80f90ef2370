/** The shared reader of scheduled jobs (kit/scheduled-calls.ts): a refresh of many ScheduledJob resources makes one list call. */
export { liveScheduledJobs } from "../kit/scheduled-calls";
