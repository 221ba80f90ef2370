import { outputsOf, statusAt, windowId } from "../../provider/resources/maintenanceWindow/outputs";
import { describeFailures, scheduleFailure } from "../../provider/resources/maintenanceWindow/rollback";
import { batches, unixOf } from "../../provider/resources/maintenanceWindow/service";
import type { WindowPlan } from "../../provider/resources/maintenanceWindow/inputs";

const START = Date.parse("2030-06-01T00:00:00Z") / 1000;
const plan: WindowPlan = { machineIds: [50001, 50002, 30001], startUnix: START, durationHours: 1.5, category: "disk", allowPartial: false };
const refused = { machineId: 30001, success: false, error: "not_found", msg: "No such machine id or not owned" };

describe("MaintenanceWindow outputs", () => {
  it("totals notifications, splits machines and derives the end", () => {
    const results = [
      { machineId: 50002, success: true, notificationsSent: 2 },
      refused,
      { machineId: 50001, success: true, notificationsSent: 1 },
    ];
    const outs = outputsOf(plan, results, [7, 5], START * 1000 - 1);
    expect(outs).toMatchObject({
      maintenanceIds: [5, 7],
      notificationsSent: 3,
      scheduledMachineIds: [50001, 50002],
      failedMachineIds: [30001],
      startTimeUnix: START,
      endTimeUnix: START + 5400,
      endTime: "2030-06-01T01:30:00.000Z",
      status: "scheduled",
    });
    expect((outs.results as { machineId: number }[]).map((r) => r.machineId)).toEqual([30001, 50001, 50002]);
  });

  it("reports the window as scheduled, in progress, then ended by the clock", () => {
    expect(statusAt(plan, (START - 1) * 1000)).toBe("scheduled");
    expect(statusAt(plan, START * 1000)).toBe("inProgress");
    expect(statusAt(plan, (START + 5400) * 1000)).toBe("ended");
  });

  it("gives the same id for the same window and another for other machines", () => {
    expect(windowId(plan)).toBe(windowId({ ...plan, allowPartial: true }));
    expect(windowId(plan)).toMatch(new RegExp(`^mw-${START}-[0-9a-f]{12}$`));
    expect(windowId({ ...plan, machineIds: [50001] })).not.toBe(windowId(plan));
  });
});

describe("MaintenanceWindow failures", () => {
  it("groups refused machines by the service's error and message", () => {
    const other = { machineId: 99, success: false, error: "busy", msg: "Try later" };
    expect(describeFailures([refused, { ...refused, machineId: 30002 }, other, { machineId: 1, success: true }])).toBe(
      "30001, 30002 (not_found: No such machine id or not owned); 99 (busy: Try later)",
    );
  });

  it("names at most 20 machines per reason", () => {
    const many = Array.from({ length: 23 }, (_, i) => ({ ...refused, machineId: i + 1 }));
    expect(describeFailures(many)).toMatch(/^1, 2, .*, 20 and 3 more \(not_found/);
  });

  it("fails the create for a refused machine unless allowPartial, and always when none is scheduled", () => {
    const some = { results: [refused, { machineId: 50001, success: true }, { machineId: 50002, success: true }], unsent: [] };
    expect(scheduleFailure(plan, some)).toMatch(/^1 of 3 machines could not be scheduled: 30001 \(not_found: No such machine id or not owned\)\. Remove them/);
    expect(scheduleFailure({ ...plan, allowPartial: true }, some)).toBeUndefined();
    const none = { results: plan.machineIds.map((machineId) => ({ ...refused, machineId })), unsent: [] };
    expect(scheduleFailure({ ...plan, allowPartial: true }, none)).toMatch(/^none of the 3 machines could be scheduled/);
  });
});

describe("MaintenanceWindow helpers", () => {
  it("cuts lists into batches of 100", () => {
    const ids = Array.from({ length: 250 }, (_, i) => i);
    expect(batches(ids).map((b) => b.length)).toEqual([100, 100, 50]);
    expect(batches([])).toEqual([]);
  });

  it("reads timestamps sent as numbers, numeric text or dates", () => {
    expect(unixOf(START)).toBe(START);
    expect(unixOf(String(START))).toBe(START);
    expect(unixOf("2030-06-01T00:00:00Z")).toBe(START);
    expect(unixOf(null)).toBeUndefined();
    expect(unixOf("soon")).toBeUndefined();
  });
});
