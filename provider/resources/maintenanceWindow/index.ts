/**
 * `MaintenanceWindow`: one maintenance window (start, duration, category) on any number of
 * the machines the account hosts. Renters of the machines are notified when it is scheduled.
 */
import * as pulumi from "@pulumi/pulumi";
import type { MaintenanceCategory } from "../../client/types-account";
import { ImportArgs, VastResource } from "../kit/resource";
import type { MaintenanceWindowStatus } from "./outputs";
import type { MachineResult } from "./service";

export type { MaintenanceCategory, MaintenanceWindowStatus };
/** The outcome of scheduling a maintenance window on one machine. */
export type MaintenanceMachineResult = MachineResult;

/** Inputs of a `MaintenanceWindow` resource. */
export interface MaintenanceWindowArgs extends ImportArgs {
  /**
   * Machines (hosted by this account) the window applies to; any number, duplicates ignored.
   * Scheduled 100 per call. Changing the list replaces the window.
   */
  machineIds: pulumi.Input<pulumi.Input<number>[]>;
  /**
   * Start: ISO 8601 date-time with a time zone (`2030-07-01T02:00:00Z`) or Unix seconds.
   * Must lie in the future and within one year when the window is created or replaced; a
   * window whose start has passed stays valid on later runs. Changing it replaces the window.
   */
  startTime: pulumi.Input<string | number>;
  /** Length in hours, at least 1; default 1. Changing it replaces the window. */
  durationHours?: pulumi.Input<number>;
  /** `power`, `internet`, `disk`, `gpu`, `software` or `other` (default). Changing it replaces the window. */
  category?: pulumi.Input<MaintenanceCategory>;
  /**
   * Keep the window on the machines that could be scheduled when others are refused (for
   * example `not_found`: not a machine of this account). Default false: any refused machine
   * fails the create and cancels what was scheduled. Changes apply in place.
   */
  allowPartial?: pulumi.Input<boolean>;
}

/**
 * A maintenance window on many machines.
 *
 *   new vastai.MaintenanceWindow("disk-swap", {
 *     machineIds: [50001, 50002],
 *     startTime: "2030-07-01T02:00:00Z",
 *     durationHours: 3,
 *     category: "disk",
 *   });
 *
 * The service cannot edit a window: changes of machines, start, duration or category
 * replace it, cancelling the old window first (the service is not documented to accept two
 * windows on one machine at once, and renters would be told of both). Destroying cancels
 * the window if it has not started; a started or past window needs nothing. A window
 * cancelled outside Pulumi before its start disappears from state on refresh; one that has
 * run stays in state and causes no change.
 */
export class MaintenanceWindow extends VastResource {
  /** The machines asked for, as given. */
  declare readonly machineIds: pulumi.Output<number[]>;
  declare readonly startTime: pulumi.Output<string | number>;
  declare readonly durationHours: pulumi.Output<number>;
  declare readonly category: pulumi.Output<MaintenanceCategory>;
  declare readonly allowPartial: pulumi.Output<boolean>;
  /** The service's window ids (one per scheduled machine), sorted. */
  declare readonly maintenanceIds: pulumi.Output<number[]>;
  /** Outcome per machine: `success`, `notificationsSent` on success, `error` and `msg` on failure. */
  declare readonly results: pulumi.Output<MaintenanceMachineResult[]>;
  /** Renters notified in all. */
  declare readonly notificationsSent: pulumi.Output<number>;
  /** Machines that have the window, sorted. */
  declare readonly scheduledMachineIds: pulumi.Output<number[]>;
  /** Machines the service refused (only with `allowPartial`), sorted. */
  declare readonly failedMachineIds: pulumi.Output<number[]>;
  /** Start, Unix seconds. */
  declare readonly startTimeUnix: pulumi.Output<number>;
  /** End, Unix seconds. */
  declare readonly endTimeUnix: pulumi.Output<number>;
  /** End, ISO 8601 (UTC). */
  declare readonly endTime: pulumi.Output<string>;
  /** `scheduled`, `inProgress` or `ended`, as of the last create, update or refresh. */
  declare readonly status: pulumi.Output<MaintenanceWindowStatus>;

  /** True when the resource took over an existing object (`importId`) instead of creating one. */
  declare readonly imported: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: MaintenanceWindowArgs, opts?: pulumi.CustomResourceOptions) {
    const outputs = {
      maintenanceIds: undefined,
      results: undefined,
      notificationsSent: undefined,
      scheduledMachineIds: undefined,
      failedMachineIds: undefined,
      startTimeUnix: undefined,
      endTimeUnix: undefined,
      endTime: undefined,
      status: undefined,
    };
    const inputs = { durationHours: undefined, category: undefined, allowPartial: undefined, ...args };
    super("maintenanceWindow", "MaintenanceWindow", name, { ...inputs, ...outputs, imported: undefined }, opts);
  }
}
