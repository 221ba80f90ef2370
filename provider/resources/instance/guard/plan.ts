/**
 * What the in-machine guard of an Instance does without anyone running `pulumi`: stop or destroy
 * its own instance after an idle period (`autostop`) or at a deadline (`expiresAt`), with the
 * restricted key the service injects into every container (`CONTAINER_API_KEY`, which can only
 * start, stop or destroy that one instance; `CONTAINER_ID` holds the instance id).
 *
 * The provider turns a plan into the instance's start command (`guard/script.ts`); the plan's
 * fields are already checked (check rejects bad values) and in the units below.
 */

/** What the guard does to its own instance when a rule fires. */
export type GuardAction = "stop" | "destroy";

export interface AutostopPlan {
  /** Minutes the instance must stay idle before the action; a whole number >= 1. */
  idleMinutes: number;
  /** The GPUs count as idle while every GPU's utilization is below this percent (0-100). */
  gpuUtilBelowPercent: number;
  action: GuardAction;
  /**
   * Whether an established connection to the container's SSH port (22) counts as activity, so a
   * logged-in user keeps the instance up while the GPUs idle. Optional; default true.
   */
  sshKeepsAwake?: boolean;
}

export interface GuardPlan {
  autostop?: AutostopPlan;
  /** Deadline as an ISO-8601 UTC time (`2026-11-29T06:00:00Z`); the guard acts at or after it. */
  expiresAt?: string;
  /** What the guard does at the deadline. */
  expireAction?: GuardAction;
  /** The service's base URL as the provider is configured (the guard calls `<apiUrl>/api/v0/instances/<id>/`). */
  apiUrl: string;
}
