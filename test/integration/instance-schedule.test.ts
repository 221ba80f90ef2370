/**
 * Issue 27 item 5, first bullet: Instance `schedule` (office hours), written and kept as the
 * service's own scheduled bid changes (instance/schedule.ts). The simulator runs the jobs on its
 * clock and the providers read the same injected clock: no real waits. "No engine call" means no
 * provider method runs between the clock moving and the status being read.
 */
import { providers } from "../../provider/providers";
import { setTiming, type Timing } from "../../provider/resources/kit";
import { drive } from "./account-resources-support";
import { checked, createChecked, instance, type Props } from "./instance-support";
import { FAST_INSTANCE_SETTINGS, useSimulator } from "../support/simulator";

/** Monday 2026-12-07 10:00 UTC, 11:00 in Berlin: on-hours. */
let clock = Date.parse("2026-12-07T10:00:00Z");
const h = useSimulator({ providers: true, settings: { ...FAST_INSTANCE_SETTINGS, liveCacheTtlMs: 0 }, simulator: { bootMs: 0, now: () => clock } });
let previous: Timing;
beforeAll(() => {
  previous = setTiming({ now: () => clock });
});
afterAll(() => setTiming(previous));
beforeEach(async () => {
  clock = Date.parse("2026-12-07T10:00:00Z");
  await h.control("POST", "/reset");
});

const WEEKDAYS = { days: ["mon", "tue", "wed", "thu", "fri"], start: "08:00", end: "20:00", timeZone: "Europe/Berlin" };
const declared = (extra: Props = {}): Props => ({ offerId: 700001, image: "alpine", label: "office", bidPricePerHour: 0.25, schedule: WEEKDAYS, ...extra });

const actual = async (id: string) => (await h.client.instances.get(Number(id)))?.actualStatus;
const jobsOf = async (id: string) => (await h.client.scheduledJobs.list()).filter((j) => j.instanceId === Number(id));
const writes = async () => (await h.requests()).filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);

describe("issue 27 item 5: Instance schedule (office hours by the service's scheduled bid changes)", () => {
  test("27.5 Monday to Friday 08:00-20:00 Berlin is 6 jobs: a DAILY stop at the losing bid and a WEEKLY start per day at the declared bid", async () => {
    const box = await createChecked(declared());
    const jobs = await jobsOf(box.id);
    expect(jobs).toHaveLength(6);
    const ids = box.outs.scheduleJobIds as Record<string, number>;
    expect(Object.keys(ids).sort()).toEqual(["start-fri", "start-mon", "start-thu", "start-tue", "start-wed", "stop"]);
    expect(jobs.map((j) => j.id).sort()).toEqual(Object.values(ids).sort());
    const stop = jobs.find((j) => j.id === ids.stop)!;
    expect(stop).toMatchObject({ frequency: "DAILY", hourUtc: 19, dayOfWeek: null, apiEndpoint: `/api/v0/instances/bid_price/${box.id}/` });
    expect(stop.requestBody.price).toBe(0.001);
    const starts = jobs.filter((j) => j.id !== ids.stop);
    expect(starts.map((j) => [j.frequency, j.dayOfWeek, j.hourUtc, j.requestBody.price]).sort()).toEqual([1, 2, 3, 4, 5].map((d) => ["WEEKLY", d, 7, 0.25]));
    // Jobs start at the hour of their first write (the service runs them at the start's minute).
    expect(box.outs).toMatchObject({ scheduleStartedAt: "2026-12-07T10:00:00.000Z", scheduleUntil: "2027-12-07T10:00:00.000Z", actualStatus: "running" });
    expect(jobs.every((j) => j.minute === 0)).toBe(true);
  });

  test("27.5 every day is 2 DAILY jobs", async () => {
    const box = await createChecked(declared({ schedule: { start: "08:00", end: "20:00", timeZone: "Europe/Berlin" } }));
    expect(Object.keys(box.outs.scheduleJobIds as object).sort()).toEqual(["start", "stop"]);
    expect((await jobsOf(box.id)).map((j) => [j.frequency, j.hourUtc]).sort()).toEqual([["DAILY", 19], ["DAILY", 7]]);
  });

  test("27.5 the service stops it at the end and starts it at the start with no engine call; a refresh and an up in the off-hours change nothing", async () => {
    const box = await createChecked(declared());
    expect(await actual(box.id)).toBe("running");
    // 20:00 Berlin: stopped by the stop job.
    clock = Date.parse("2026-12-07T19:00:00Z");
    expect(await actual(box.id)).toBe("stopped");

    // 22:00: pulumi up --refresh. onOutbid is the default "replace": the schedule's stop is not an outbid.
    clock = Date.parse("2026-12-07T21:00:00Z");
    await h.clearRequests();
    const read = await instance.read!(box.id, box.outs);
    expect(read.props).toMatchObject({ actualStatus: "stopped", scheduledOff: true, schedule: WEEKDAYS, bidPricePerHour: 0.25 });
    const diff = await instance.diff!(box.id, read.props as Props, await checked(declared()));
    expect(diff).toMatchObject({ changes: false });
    expect(await writes()).toEqual([]);
    expect(await actual(box.id)).toBe("stopped");

    // Friday 20:00 stops it; Saturday 08:00 does not start it; Monday 08:00 does.
    clock = Date.parse("2026-12-08T07:00:00Z");
    expect(await actual(box.id)).toBe("running");
    // (The simulator runs a missed occurrence once, as a cron that catches up: the clock steps through each.)
    clock = Date.parse("2026-12-11T07:00:00Z");
    expect(await actual(box.id)).toBe("running");
    clock = Date.parse("2026-12-11T19:00:00Z");
    expect(await actual(box.id)).toBe("stopped");
    clock = Date.parse("2026-12-12T07:30:00Z");
    expect(await actual(box.id)).toBe("stopped");
    clock = Date.parse("2026-12-14T07:00:00Z");
    expect(await actual(box.id)).toBe("running");
    expect((await h.client.instances.get(Number(box.id)))?.dphTotal).toBe(0.25);
  });

  test("27.5 an update in the off-hours (a new label, a new bid) sends no bid and does not start it; the new bid goes to the start jobs", async () => {
    const box = await createChecked(declared());
    clock = Date.parse("2026-12-07T21:00:00Z");
    const news = await checked(declared({ label: "office-2", bidPricePerHour: 0.3 }));
    const diff = await instance.diff!(box.id, box.outs, news);
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    await h.clearRequests();
    const updated = await instance.update!(box.id, box.outs, news);
    expect((await writes()).filter((w) => w.includes("bid_price"))).toEqual([]);
    expect(await actual(box.id)).toBe("stopped");
    expect(updated.outs).toMatchObject({ scheduledOff: true });
    const ids = box.outs.scheduleJobIds as Record<string, number>;
    const starts = (await jobsOf(box.id)).filter((j) => j.id !== ids.stop);
    expect(starts.map((j) => j.requestBody.price)).toEqual([0.3, 0.3, 0.3, 0.3, 0.3]);
    clock = Date.parse("2026-12-08T07:00:00Z");
    expect(await actual(box.id)).toBe("running");
    expect((await h.client.instances.get(Number(box.id)))?.dphTotal).toBe(0.3);
  });

  test("27.5 a job cancelled out of band: the refresh shows the day missing, the diff asks for an update, the update writes it again", async () => {
    const box = await createChecked(declared());
    const ids = box.outs.scheduleJobIds as Record<string, number>;
    await h.client.scheduledJobs.delete(ids["start-wed"]);
    const read = await instance.read!(box.id, box.outs);
    expect((read.props as Props).schedule).toEqual({ ...WEEKDAYS, days: ["mon", "tue", "thu", "fri"] });
    const news = await checked(declared());
    expect(await instance.diff!(box.id, read.props as Props, news)).toMatchObject({ changes: true, replaces: [] });
    await h.clearRequests();
    const updated = await instance.update!(box.id, read.props as Props, news);
    expect(await writes()).toEqual(["POST /api/v0/commands/schedule_job/"]);
    const now = (updated.outs as Props).scheduleJobIds as Record<string, number>;
    expect(now["start-wed"]).not.toBe(ids["start-wed"]);
    expect(await jobsOf(box.id)).toHaveLength(6);
    // The stop job cancelled: end shows null.
    await h.client.scheduledJobs.delete(ids.stop);
    const again = await instance.read!(box.id, updated.outs as Props);
    expect((again.props as Props).schedule).toEqual({ ...WEEKDAYS, end: null });
  });

  test("27.5 removing schedule cancels its jobs (in the off-hours it also sends the declared bid: no schedule means running); delete cancels them", async () => {
    const box = await createChecked(declared());
    clock = Date.parse("2026-12-07T21:00:00Z");
    const plain = await checked(declared({ schedule: undefined }));
    expect(await instance.diff!(box.id, box.outs, plain)).toMatchObject({ changes: true, replaces: [] });
    const updated = await instance.update!(box.id, box.outs, plain);
    expect(await jobsOf(box.id)).toEqual([]);
    expect(updated.outs).not.toHaveProperty("scheduleJobIds");
    expect(await actual(box.id)).toBe("running");

    clock = Date.parse("2026-12-08T10:00:00Z");
    const other = await createChecked(declared({ offerId: 700002, bidPricePerHour: 1 }));
    expect(await jobsOf(other.id)).toHaveLength(6);
    await instance.delete!(other.id, other.outs);
    expect(await jobsOf(other.id)).toEqual([]);
    expect(h.sim.state().instances.map((i) => i.id)).toEqual([Number(box.id)]);
  });

  test("27.5 a default end (a year after the first write) is renewed: 30 days before it a refresh shows it, the next up moves it a year on", async () => {
    const box = await createChecked(declared());
    expect(box.outs.scheduleUntil).toBe("2027-12-07T10:00:00.000Z");
    // 32 days before, a Friday in its on-hours (and in winter time again: the UTC slots are those written): nothing to do.
    clock = Date.parse("2027-11-05T12:00:00Z");
    const early = await instance.read!(box.id, box.outs);
    expect((early.props as Props).schedule).toEqual(WEEKDAYS);
    // 20 days before: the refresh shows the jobs' end, the diff asks for an update, which sends every job again.
    clock = Date.parse("2027-11-17T12:00:00Z");
    const late = await instance.read!(box.id, box.outs);
    expect((late.props as Props).schedule).toEqual({ ...WEEKDAYS, until: "2027-12-07T10:00:00.000Z" });
    const news = await checked(declared());
    expect(await instance.diff!(box.id, late.props as Props, news)).toMatchObject({ changes: true, replaces: [] });
    const updated = await instance.update!(box.id, late.props as Props, news);
    expect(updated.outs).toMatchObject({ scheduleUntil: "2028-11-16T12:00:00.000Z", scheduleStartedAt: "2026-12-07T10:00:00.000Z" });
    expect((await jobsOf(box.id)).map((j) => j.end)).toEqual(Array(6).fill("2028-11-16T12:00:00.000Z"));
    const after = await instance.read!(box.id, updated.outs as Props);
    expect((after.props as Props).schedule).toEqual(WEEKDAYS);
  });

  test("27.5 onOutbid rebid does not raise the bid of an instance its schedule stopped; at the losing bid in its on-hours the next up sends the declared bid", async () => {
    const rebid = declared({ onOutbid: "rebid", maxBidPricePerHour: 1, schedule: { start: "08:00", end: "20:00", timeZone: "Europe/Berlin" } });
    const box = await createChecked(rebid);
    clock = Date.parse("2026-12-07T21:00:00Z");
    expect(await actual(box.id)).toBe("stopped");
    const read = await instance.read!(box.id, box.outs);
    expect(await instance.diff!(box.id, read.props as Props, await checked(rebid))).toMatchObject({ changes: false });
    // The start job cancelled by hand: the morning passes with the instance stopped at the losing bid.
    const ids = box.outs.scheduleJobIds as Record<string, number>;
    await h.client.scheduledJobs.delete(ids.start);
    clock = Date.parse("2026-12-08T09:00:00Z");
    expect(await actual(box.id)).toBe("stopped");
    const late = await instance.read!(box.id, read.props as Props);
    expect(await instance.diff!(box.id, late.props as Props, await checked(rebid))).toMatchObject({ changes: true, replaces: [] });
    await h.clearRequests();
    const updated = await instance.update!(box.id, late.props as Props, await checked(rebid));
    expect((await writes()).filter((w) => w.includes("bid_price"))).toEqual([`PUT /api/v0/instances/bid_price/${box.id}/`]);
    expect(updated.outs).toMatchObject({ actualStatus: "running", pricePerHour: 0.25, scheduledOff: false });
    expect(await jobsOf(box.id)).toHaveLength(2);
  });

  test("27.5 created in its off-hours it is stopped at once by the losing bid, and started at the next start hour", async () => {
    clock = Date.parse("2026-12-07T22:00:00Z");
    const box = await createChecked(declared());
    expect(box.outs).toMatchObject({ actualStatus: "stopped", scheduledOff: true });
    clock = Date.parse("2026-12-08T07:00:00Z");
    expect(await actual(box.id)).toBe("running");
  });

  test("27.5 a job create whose answer is lost is found again by instance, endpoint and slot: no duplicate, its id recorded", async () => {
    await h.fault({ method: "POST", path: "/api/v0/commands/schedule_job/", drop: "after", times: 1 });
    const box = await createChecked(declared({ schedule: { start: "08:00", end: "20:00", timeZone: "Europe/Berlin" } }));
    const jobs = await jobsOf(box.id);
    expect(jobs).toHaveLength(2);
    expect(Object.values(box.outs.scheduleJobIds as object).sort()).toEqual(jobs.map((j) => j.id).sort());
  });

  test("27.5 schedule on an on-demand instance fails check, naming the field, the rule and the value", async () => {
    const { failures } = await instance.check({}, { offerId: 700001, image: "alpine", schedule: { start: "08:00", end: "20:00" } });
    expect(failures).toEqual([
      {
        property: "schedule",
        reason: expect.stringMatching(/^schedule: applies only to an interruptible instance \(give bidPricePerHour\).*no scheduled stop or start of an on-demand instance is evidenced \(got a schedule \{"start":"08:00","end":"20:00"\} without a bid\)$/),
      },
    ]);
  });

  test("27.5 Fleet refuses schedule: its members are rented on-demand", async () => {
    const fleet = drive(providers.fleet);
    const { failures } = await fleet.check({}, { count: 1, offer: {}, image: "alpine", schedule: { start: "08:00", end: "20:00" } });
    expect(failures).toEqual([{ property: "schedule", reason: expect.stringMatching(/^schedule: is not offered for a Fleet: its members are rented on-demand \(a Fleet takes no bid\)/) }]);
  });
});
