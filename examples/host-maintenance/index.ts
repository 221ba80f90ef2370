/**
 * Host maintenance: one maintenance window over every machine in machines.txt (150 of them;
 * the provider schedules them 100 per call and cancels the window on `pulumi destroy`).
 * The renters of affected instances are notified by the service.
 *
 *   pulumi config set startTime 2030-07-01T02:00:00Z   # future, within a year
 *   pulumi up
 */
import * as fs from "fs";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { MaintenanceWindow, type MaintenanceCategory } from "pulumi-vastai";

const config = new pulumi.Config();
/** ISO 8601 with a time zone, or Unix seconds; must be in the future and within a year. */
const startTime = config.require("startTime");
/** Hours, at least 1. */
const durationHours = config.getNumber("durationHours") ?? 4;
const category = (config.get("category") ?? "power") as MaintenanceCategory;
/** Keep the window on the machines the service accepted when some are refused. */
const allowPartial = config.getBoolean("allowPartial") ?? false;

/** Machine ids from a list file: one per line, `#` starts a comment. */
function readMachineList(file: string): number[] {
  const ids: number[] = [];
  fs.readFileSync(file, "utf8")
    .split("\n")
    .forEach((raw, index) => {
      const line = raw.replace(/#.*/, "").trim();
      if (line === "") return;
      if (!/^\d+$/.test(line)) throw new Error(`${file} line ${index + 1}: "${line}" is not a machine id`);
      ids.push(Number(line));
    });
  return ids;
}

const machineIds = readMachineList(path.join(__dirname, config.get("machineList") ?? "machines.txt"));

const window = new MaintenanceWindow("hall-b-power", {
  machineIds,
  startTime,
  durationHours,
  category,
  allowPartial,
});

export const machines = machineIds.length;
export const scheduled = window.scheduledMachineIds.apply((ids) => ids.length);
export const refused = window.failedMachineIds;
export const rentersNotified = window.notificationsSent;
export const endsAt = window.endTime;
