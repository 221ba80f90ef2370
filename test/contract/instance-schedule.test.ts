/**
 * Issue 27 item 5: Instance `schedule` through Pulumi's own dynamic-provider plugin, from the
 * package as a user installs it. The plugin reads the real clock, so the schedules below are set
 * around the current UTC hour: one whose on-hours are now, one whose on-hours are not.
 */
import { createClient, type VastClient } from "../../provider/client";
import { useInstanceContract } from "./harness";

type Props = Record<string, unknown>;

jest.setTimeout(120_000);

const { fx, urn, liveIds } = useInstanceContract();
let client: VastClient;
beforeAll(() => {
  client = createClient({ apiKey: fx.sim.apiKey, apiUrl: fx.sim.url, runUrl: fx.sim.runUrl, pacing: false });
});

/** The UTC hour the test started in, plus `offset` hours, as "HH:00" (read once: the hour may turn during the test). */
const HOUR = new Date().getUTCHours();
const hh = (offset: number) => `${String((HOUR + offset) % 24).padStart(2, "0")}:00`;
const jobsOf = async (id: string) => (await client.scheduledJobs.list()).filter((j) => j.instanceId === Number(id));

test("27.5 Instance schedule through the plugin: jobs written on create, drift read back and repaired, an off-hours instance left stopped, delete cancels", async () => {
  const onDemand = await fx.plugin.check(urn("od"), {}, { __provider: fx.provider, offerId: 700001, image: "alpine", schedule: { start: "08:00", end: "20:00" } });
  expect(onDemand.failures).toEqual([{ property: "schedule", reason: expect.stringMatching(/^schedule: applies only to an interruptible instance/) }]);

  // On-hours now: from this UTC hour for three hours, every day (2 DAILY jobs).
  const news: Props = { __provider: fx.provider, offerId: 700001, image: "alpine", bidPricePerHour: 0.5, schedule: { start: hh(0), end: hh(3), timeZone: "UTC" } };
  const { inputs, failures } = await fx.plugin.check(urn("office"), {}, news);
  expect(failures).toEqual([]);
  const made = await fx.plugin.create(urn("office"), inputs);
  expect(made.properties).toMatchObject({ actualStatus: "running", scheduledOff: false });
  const ids = made.properties.scheduleJobIds as Record<string, number>;
  expect(Object.keys(ids).sort()).toEqual(["start", "stop"]);
  expect((await jobsOf(made.id)).map((j) => j.id).sort()).toEqual(Object.values(ids).sort());

  // A job cancelled by hand: the refresh shows it, the diff asks for an update, the update writes it again.
  await client.scheduledJobs.delete(ids.stop);
  const read = await fx.plugin.read(urn("office"), made.id, made.properties, inputs);
  expect((read.inputs as Props).schedule).toEqual({ start: hh(0), end: null, timeZone: "UTC" });
  expect(await fx.plugin.diff(urn("office"), made.id, read.properties, inputs)).toEqual({ changes: "some", replaces: [], deleteBeforeReplace: false });
  const updated = await fx.plugin.update(urn("office"), made.id, read.properties, inputs);
  expect(await jobsOf(made.id)).toHaveLength(2);
  expect((updated.properties.scheduleJobIds as Record<string, number>).stop).not.toBe(ids.stop);

  // Off-hours now (on-hours start in two hours): stopped at once by the losing bid; the diff leaves it (no replacement under the default onOutbid).
  const later: Props = { __provider: fx.provider, offerId: 700002, image: "alpine", bidPricePerHour: 1, schedule: { start: hh(2), end: hh(5), timeZone: "UTC" } };
  const off = await fx.plugin.check(urn("later"), {}, later);
  const stopped = await fx.plugin.create(urn("later"), off.inputs);
  expect(stopped.properties).toMatchObject({ actualStatus: "stopped", scheduledOff: true, outbid: true });
  const reread = await fx.plugin.read(urn("later"), stopped.id, stopped.properties, off.inputs);
  expect(await fx.plugin.diff(urn("later"), stopped.id, reread.properties, off.inputs)).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });

  await fx.plugin.delete(urn("office"), made.id, updated.properties);
  await fx.plugin.delete(urn("later"), stopped.id, reread.properties);
  expect(liveIds()).toEqual([]);
  expect(await client.scheduledJobs.list()).toEqual([]);
});

test("33.6 an instance running in its off-hours through the plugin: the refresh shows offHoursRunning and the reason in schedule, the diff asks for an update", async () => {
  // Off-hours began at the start of the previous hour (more than the 30 minutes' grace ago); on-hours start in two hours.
  const news: Props = { __provider: fx.provider, offerId: 700003, image: "alpine", bidPricePerHour: 1, schedule: { start: hh(2), end: hh(23), timeZone: "UTC" } };
  const { inputs, failures } = await fx.plugin.check(urn("night"), {}, news);
  expect(failures).toEqual([]);
  const made = await fx.plugin.create(urn("night"), inputs);
  expect(made.properties).toMatchObject({ actualStatus: "stopped", scheduledOff: true });

  // The service keeps it running (what nothing checked before).
  await fetch(`${fx.sim.url}/_sim/instances/${made.id}/status`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ actual_status: "running" }) });
  const read = await fx.plugin.read(urn("night"), made.id, made.properties, inputs);
  const running = read.properties.offHoursRunning as Record<string, unknown>;
  // Since the later of the off-hours' start and the instance's own start (it was rented a moment ago).
  expect(running).toMatchObject({ hourlyCost: read.properties.hourlyCost });
  expect(Date.parse(running.since as string)).toBeGreaterThanOrEqual(Math.floor(Date.now() / 3_600_000 - 1) * 3_600_000);
  expect(running.hours as number).toBeGreaterThanOrEqual(0);
  expect(running.costUsd).toBe(Math.round((running.hourlyCost as number) * (running.hours as number) * 100) / 100);
  expect((read.inputs as Props).schedule).toMatchObject({ ...(news.schedule as Props), offHoursRunning: expect.stringMatching(/^running since .*not stopped by its schedule$/) });
  expect(await fx.plugin.diff(urn("night"), made.id, read.properties, inputs)).toMatchObject({ changes: "some", replaces: [] });

  await fx.plugin.delete(urn("night"), made.id, read.properties);
  expect(await client.scheduledJobs.list()).toEqual([]);
});
