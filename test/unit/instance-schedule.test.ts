/** Issue 27 item 5: the plan of an Instance schedule and its on-hours, without the service. */
import type { Instance } from "../../provider/client";
import { OFF_BID, isOnHours, planSchedule, scheduleState, type ScheduleInput } from "../../provider/resources/instance/schedule";

const window = { startedAt: "2026-12-07T10:00:00.000Z", until: "2027-12-07T10:00:00.000Z" };
const slots = (s: ScheduleInput, at: string) =>
  planSchedule(s, 7, 0.25, window, new Date(at)).map((j) => [j.role, j.input.frequency, j.input.dayOfWeek, j.input.hourUtc, j.input.requestBody.price]);

describe("issue 27 item 5: schedule plan and on-hours", () => {
  test("27.5 a local Monday 00:00 in Berlin is the service's Sunday 23:00 UTC in winter; the stop is DAILY at the losing bid", () => {
    expect(slots({ days: ["mon"], start: "00:00", end: "08:00", timeZone: "Europe/Berlin" }, "2026-12-07T10:00:00Z")).toEqual([
      ["stop", "DAILY", null, 7, OFF_BID],
      ["start-mon", "WEEKLY", 0, 23, 0.25],
    ]);
  });

  test("27.5 the UTC slots follow the zone's offset when written: 08:00 Berlin is 07:00 UTC in winter, 06:00 in summer", () => {
    const s: ScheduleInput = { start: "08:00", end: "20:00", timeZone: "Europe/Berlin" };
    expect(slots(s, "2026-12-07T10:00:00Z")).toEqual([["stop", "DAILY", null, 19, OFF_BID], ["start", "DAILY", null, 7, 0.25]]);
    expect(slots(s, "2027-07-07T10:00:00Z")).toEqual([["stop", "DAILY", null, 18, OFF_BID], ["start", "DAILY", null, 6, 0.25]]);
  });

  test("27.5 on-hours past midnight belong to the day they begin on", () => {
    const night: ScheduleInput = { days: ["fri"], start: "22:00", end: "06:00" };
    expect(isOnHours(night, Date.parse("2026-12-11T23:00:00Z"))).toBe(true); // Friday 23:00
    expect(isOnHours(night, Date.parse("2026-12-12T05:59:00Z"))).toBe(true); // Saturday 05:59
    expect(isOnHours(night, Date.parse("2026-12-12T06:00:00Z"))).toBe(false);
    expect(isOnHours(night, Date.parse("2026-12-10T23:00:00Z"))).toBe(false); // Thursday 23:00
    expect(isOnHours(night, Date.parse("2026-12-11T21:59:00Z"))).toBe(false);
  });

  test("27.5 stopped by its schedule: the losing bid in the off-hours is 'off', in the on-hours 'late', any other bid neither", () => {
    const s = { schedule: { days: ["mon", "tue", "wed", "thu", "fri"], start: "08:00", end: "20:00", timeZone: "Europe/Berlin" } };
    const at = (dphTotal: number) => ({ isBid: true, dphTotal, actualStatus: "stopped", intendedStatus: "running" }) as unknown as Instance;
    expect(scheduleState(s, at(OFF_BID), Date.parse("2026-12-07T21:00:00Z"))).toBe("off");
    expect(scheduleState(s, at(OFF_BID), Date.parse("2026-12-12T10:00:00Z"))).toBe("off"); // Saturday
    expect(scheduleState(s, at(OFF_BID), Date.parse("2026-12-07T10:00:00Z"))).toBe("late");
    expect(scheduleState(s, at(0.25), Date.parse("2026-12-07T21:00:00Z"))).toBeUndefined();
    expect(scheduleState({}, at(OFF_BID), Date.parse("2026-12-07T21:00:00Z"))).toBeUndefined();
  });
});
