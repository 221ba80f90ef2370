/**
 * `ScheduledJob`: an API call the service makes itself at set times, between a start and an
 * end, with nobody running `pulumi up` (`/api/v0/commands/schedule_job/`, as the vendor's
 * client schedules bid changes and reboots).
 */
import { resourceClass, type ImportedOutput, type Inputs } from "../kit/declare";
import type { ImportArgs } from "../kit/resource";
import { SCHEDULED_JOB } from "./declare";

/** A ScheduledJob's inputs, each also an output of the same name. */
interface ScheduledJobFields {
  /** The instance the call acts on. */
  instanceId: number;
  /**
   * What the service does at each run: `reboot` (stop and start the container, keeping the
   * machine) or `changeBid` (set an interruptible instance's bid to `price`; a bid under the
   * machine's going price stops it until a winning bid starts it again).
   */
  action: "reboot" | "changeBid";
  /** The bid of `changeBid`, $/hour (0.001-32). */
  price?: number;
  /** `HOURLY` (no day, no hour), `DAILY` (an hour) or `WEEKLY` (a day and an hour). */
  frequency: "HOURLY" | "DAILY" | "WEEKLY";
  /** The day of a WEEKLY job, `monday`..`sunday`, in `timeZone`. */
  day?: string;
  /** The hour 0-23 of a DAILY or WEEKLY job, in `timeZone`. The service picks no minute of its own: the job runs at the start's minute. */
  hour?: number;
  /**
   * The IANA time zone of `day` and `hour` (default `UTC`). The service keeps UTC fields: they
   * are computed at the zone's offset at `start`, so after a daylight-saving change a job runs
   * an hour off local time until the next update (`dayOfWeekUtc`, `hourUtc` show the UTC slot).
   */
  timeZone?: string;
  /** ISO 8601: the first time the job may run (default: when it is created, kept as `startedAt`). */
  start?: string;
  /** ISO 8601: after this the service no longer runs the job. Required, as in the vendor's client (its default is 7 days). */
  end: string;
}

/** What the service shows of it. */
interface ScheduledJobComputed extends ImportedOutput {
  /** The service's numeric id of the job. */
  jobId: number;
  /** The path the service calls, such as `/api/v0/instances/reboot/123/`. */
  apiEndpoint: string;
  /** The UTC day the service runs a WEEKLY job on (0 = Sunday), null otherwise. */
  dayOfWeekUtc: number | null;
  /** The UTC hour the service runs a DAILY or WEEKLY job at, null for HOURLY. */
  hourUtc: number | null;
  /** The minute of the hour the service lists for the job. */
  minute: number | null;
  /** ISO 8601: the start sent (the create's time when `start` is left out). */
  startedAt: string;
  /** True when the create took over the same call at the same slot that already existed. */
  adopted: boolean;
}

/** Inputs of a `ScheduledJob` resource. Every input changes in place. */
export interface ScheduledJobArgs extends ImportArgs, Inputs<ScheduledJobFields> {}

/**
 * A scheduled API call of the service: it runs with no `pulumi up` running.
 *
 *   new vastai.ScheduledJob("nightly-reboot", {
 *     instanceId: box.instanceId, action: "reboot",
 *     frequency: "DAILY", hour: 3, timeZone: "Europe/Berlin", end: "2027-01-01T00:00:00Z",
 *   });
 *
 * Every input changes in place; deleting the resource cancels the job.
 */
export class ScheduledJob extends resourceClass<ScheduledJobArgs, ScheduledJobFields & ScheduledJobComputed>(SCHEDULED_JOB) {}
