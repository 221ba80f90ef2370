import type { Declaration } from "../kit/declaration";

/** The `ScheduledJob` resource, declared once for its class and its provider. */
export const SCHEDULED_JOB = {
  kind: "scheduledJob",
  type: "ScheduledJob",
  computed: ["jobId", "apiEndpoint", "dayOfWeekUtc", "hourUtc", "minute", "startedAt", "adopted"],
} as const satisfies Declaration;
