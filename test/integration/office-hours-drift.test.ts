/**
 * Issue 33 item 6: office hours seen not to work. An instance with a `schedule` found running in
 * its off-hours (past the grace period after they begin) is reported by a refresh (output
 * `offHoursRunning`, the `schedule` input shown with the reason) and by the diff of an `up`,
 * with a warning giving the cost so far. Simulator and provider clocks injected; no real waits.
 */
import { setTiming, setWarningSink } from "../../provider/resources/kit";
import { OFF_HOURS_GRACE_MINUTES } from "../../provider/resources/instance/off-hours";
import { checked, createChecked, instance, type Props } from "./instance-support";
import { simControl } from "../support/control";
import { FAST_INSTANCE_SETTINGS, useSimulator } from "../support/simulator";

/** Monday 2026-12-07, 10:00 UTC: on-hours of 08:00-20:00 UTC. */
let clock = Date.parse("2026-12-07T10:00:00Z");
// Every read fresh from the service (no shared row kept between the steps of the clock).
const h = useSimulator({ providers: true, settings: { ...FAST_INSTANCE_SETTINGS, liveCacheTtlMs: 0 }, simulator: { bootMs: 0, now: () => clock } });
const warnings: string[] = [];
/** The warnings about off-hours (others, such as spend reads, are not this test's). */
const offHours = () => warnings.filter((m) => m.includes("off-hours"));
let restore: ReturnType<typeof setTiming>;
beforeEach(() => {
  restore = setTiming({ now: () => clock });
  setWarningSink((m) => warnings.push(m));
});
afterEach(() => {
  setTiming(restore);
  setWarningSink(undefined);
});

const declared = { offerId: 700001, image: "alpine", bidPricePerHour: 0.25, onOutbid: "keep", schedule: { start: "08:00", end: "20:00", timeZone: "UTC" } };

test("33.6 an instance its schedule did not stop: the refresh shows offHoursRunning and the reason in schedule, the diff of an up asks for an update, a warning gives the cost so far", async () => {
  clock = Date.parse("2026-12-07T10:00:00Z");
  const box = await createChecked(declared);
  const inputs = await checked(declared);
  expect(box.outs).toMatchObject({ actualStatus: "running", scheduledOff: false });

  // On-hours: nothing to report.
  clock = Date.parse("2026-12-07T12:00:00Z");
  const noon = await instance.read(box.id, box.outs);
  expect(noon.props).toMatchObject({ offHoursRunning: null, schedule: declared.schedule });

  // 20:00: the stop job runs, but the service refuses its 0.001 $/h bid and the instance keeps
  // running at the declared bid (what nothing checked before).
  clock = Date.parse("2026-12-07T20:05:00Z");
  await h.fault({ method: "PUT", path: `/api/v0/instances/bid_price/${box.id}`, status: 400, body: { success: false, error: "invalid_args", msg: "bid too low" }, times: 1 });
  expect(await simControl(h.sim.url, "POST", "/scheduled-jobs/run")).toEqual({ ran: 1 });
  expect(await simControl(h.sim.url, "GET", "/scheduled-jobs")).toEqual(expect.arrayContaining([expect.objectContaining({ hour_of_the_day: 20, last_status: 400 })]));
  // Within the grace period: not yet reported.
  expect(OFF_HOURS_GRACE_MINUTES).toBe(30);
  const early = await instance.read(box.id, box.outs);
  expect(early.props).toMatchObject({ offHoursRunning: null, schedule: declared.schedule });
  expect(offHours()).toEqual([]);

  // 22:30: two and a half hours into the off-hours.
  clock = Date.parse("2026-12-07T22:30:00Z");
  const late = await instance.read(box.id, box.outs);
  const props = late.props as Props;
  const hourly = props.hourlyCost as number;
  expect(hourly).toBeGreaterThanOrEqual(0.25);
  expect(props.actualStatus).toBe("running");
  expect(props.offHoursRunning).toEqual({ since: "2026-12-07T20:00:00.000Z", hours: 2.5, hourlyCost: hourly, costUsd: Math.round(hourly * 2.5 * 100) / 100 });
  expect((late.inputs as Props).schedule).toEqual({ ...declared.schedule, offHoursRunning: expect.stringMatching(/^running since 2026-12-07T20:00:00.000Z, about \$\d+\.\d\d so far: not stopped by its schedule$/) });
  expect(offHours()).toEqual([expect.stringMatching(new RegExp(`^Instance ${box.id} is running in its off-hours \\(since 2026-12-07T20:00:00.000Z, 2.5 h\\).*about \\$\\d+\\.\\d\\d so far at \\$${hourly}/h`))]);

  // An up without a refresh: its diff reads the row and asks for an update.
  expect((await instance.diff(box.id, box.outs, inputs)).changes).toBe(true);
  // After a refresh, the engine's diff names the input: the refreshed schedule differs from the declared one.
  expect((await instance.diff(box.id, late.props as Props, inputs)).changes).toBe(true);
});
