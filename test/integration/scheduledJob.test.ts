/**
 * Issue 27 item 3: ScheduledJob through its provider against the simulator over real HTTP, on
 * an injected simulator clock: the vendor client's shapes on the wire, local hours turned into
 * the service's UTC fields, updates in place, delete cancels, and a due job made by the service
 * itself (a bid change that stops an interruptible instance with nobody running `pulumi up`).
 */
import { providers } from "../../provider/providers";
import { getScheduledJobs, getScheduledJobsOutput } from "../../provider/lookups";
import { drive } from "./account-resources-support";
import { useSimulator } from "../support/simulator";

const job = drive(providers.scheduledJob);
type P = Record<string, unknown>;

/** 2026-12-07 is a Monday; 06:00 UTC. */
const T0 = Date.parse("2026-12-07T06:00:00Z");
let clock = T0;
const h = useSimulator({ providers: true, simulator: { now: () => clock } });
beforeEach(() => {
  clock = T0;
});

async function checked(news: P): Promise<P> {
  const { inputs, failures } = await job.check({}, news);
  expect(failures).toEqual([]);
  return inputs as P;
}

/** Offer 700001 (machine 30001, min_bid 0.19): an interruptible rental at 0.25 $/hour. */
async function spotInstance(): Promise<number> {
  const made = await h.client.instances.create(700001, { image: "alpine", price: 0.25 });
  return made.id;
}

const bidPaths = async () => (await h.requests()).filter((r) => r.method === "PUT" && /bid_price/.test(r.path));
const status = async (id: number) => {
  const row = await h.client.instances.get(id);
  return { actual: row?.actualStatus, intended: row?.intendedStatus };
};

describe("issue 27 item 3: ScheduledJob", () => {
  test("27.3 creates the job in the vendor client's shape, the local hour as the service's UTC fields", async () => {
    const instanceId = await spotInstance();
    await h.clearRequests();
    const inputs = await checked({ instanceId, action: "changeBid", price: 0.01, frequency: "WEEKLY", day: "monday", hour: 20, timeZone: "Europe/Berlin", start: "2026-12-07T00:00:00Z", end: "2027-03-01T00:00:00Z" });
    const { id, outs } = await job.create(inputs);
    const posted = (await h.requests()).filter((r) => r.method === "POST" && r.path.startsWith("/api/v0/commands/schedule_job"));
    expect(posted.map((r) => r.body)).toEqual([
      {
        start_time: Date.parse("2026-12-07T00:00:00Z") / 1000,
        end_time: Date.parse("2027-03-01T00:00:00Z") / 1000,
        api_endpoint: `/api/v0/instances/bid_price/${instanceId}/`,
        request_method: "PUT",
        request_body: { client_id: "me", price: 0.01, instance_id: instanceId },
        // 20:00 in Berlin in December (UTC+1) is 19:00 UTC.
        day_of_the_week: 1,
        hour_of_the_day: 19,
        frequency: "WEEKLY",
        instance_id: instanceId,
      },
    ]);
    expect(outs).toMatchObject({ jobId: Number(id), dayOfWeekUtc: 1, hourUtc: 19, minute: 0, adopted: false });
    const listed = await getScheduledJobs({ instanceId });
    expect(listed.map((j) => ({ id: j.id, frequency: j.frequency, hourUtc: j.hourUtc, start: j.start }))).toEqual([{ id: Number(id), frequency: "WEEKLY", hourUtc: 19, start: "2026-12-07T00:00:00.000Z" }]);
    const viaOutput = await new Promise((resolve) => getScheduledJobsOutput({ instanceId }).apply(resolve));
    expect((viaOutput as unknown[]).length).toBe(1);
  });

  test("27.3 a day wraps with the hour: Monday 01:00 in Tokyo is Sunday 16:00 UTC", async () => {
    const instanceId = await spotInstance();
    const { outs } = await job.create(await checked({ instanceId, action: "reboot", frequency: "WEEKLY", day: "monday", hour: 1, timeZone: "Asia/Tokyo", end: "2027-03-01T00:00:00Z" }));
    expect(outs).toMatchObject({ dayOfWeekUtc: 0, hourUtc: 16 });
  });

  test("27.3 the service makes the due call itself: the bid drops and the instance stops, no up running", async () => {
    const instanceId = await spotInstance();
    expect(await status(instanceId)).toEqual({ actual: "running", intended: "running" });
    await job.create(await checked({ instanceId, action: "changeBid", price: 0.01, frequency: "DAILY", hour: 20, timeZone: "UTC", start: "2026-12-07T00:00:00Z", end: "2027-03-01T00:00:00Z" }));
    await h.clearRequests();
    clock = Date.parse("2026-12-07T19:59:00Z");
    expect(await status(instanceId)).toEqual({ actual: "running", intended: "running" });
    expect(await bidPaths()).toEqual([]);
    clock = Date.parse("2026-12-07T20:00:00Z");
    const after = await status(instanceId);
    expect(after.actual).toBe("stopped");
    const calls = await bidPaths();
    expect(calls.map((c) => ({ path: c.path, body: c.body }))).toEqual([{ path: `/api/v0/instances/bid_price/${instanceId}/`, body: { client_id: "me", price: 0.01, instance_id: instanceId } }]);
    // One run per occurrence: later reads the same evening make no second call.
    clock = Date.parse("2026-12-07T23:00:00Z");
    await status(instanceId);
    expect(await bidPaths()).toHaveLength(1);
  });

  test("27.3 a job runs only between its start and end", async () => {
    const instanceId = await spotInstance();
    await job.create(await checked({ instanceId, action: "reboot", frequency: "HOURLY", start: "2026-12-07T08:00:00Z", end: "2026-12-07T10:30:00Z" }));
    const reboots = async () => (await h.requests()).filter((r) => r.method === "PUT" && /reboot/.test(r.path)).length;
    clock = Date.parse("2026-12-07T07:30:00Z");
    await status(instanceId);
    expect(await reboots()).toBe(0);
    for (const at of ["2026-12-07T08:00:00Z", "2026-12-07T09:00:00Z", "2026-12-07T10:00:00Z", "2026-12-07T11:00:00Z", "2026-12-07T12:00:00Z"]) {
      clock = Date.parse(at);
      await status(instanceId);
    }
    expect(await reboots()).toBe(3);
  });

  test("27.3 updates in place with the whole job; a read shows drift; delete cancels", async () => {
    const instanceId = await spotInstance();
    const first = await checked({ instanceId, action: "reboot", frequency: "DAILY", hour: 3, end: "2027-03-01T00:00:00Z" });
    const { id, outs } = await job.create(first);
    const news = await checked({ ...first, hour: 4 });
    expect(await job.diff(id, outs, news)).toMatchObject({ changes: true, replaces: [] });
    await h.clearRequests();
    const { outs: after } = await job.update(id, outs, news);
    const puts = (await h.requests()).filter((r) => r.method === "PUT" && r.path.startsWith("/api/v0/commands/schedule_job"));
    expect(puts.map((r) => [r.path, (r.body as P).hour_of_the_day, (r.body as P).api_endpoint])).toEqual([[`/api/v0/commands/schedule_job/${id}/`, 4, `/api/v0/instances/reboot/${instanceId}/`]]);
    expect(after).toMatchObject({ hourUtc: 4, jobId: Number(id) });

    // Changed by hand: the read shows the live slot in UTC.
    await h.client.scheduledJobs.update(Number(id), { instanceId, apiEndpoint: `/api/v0/instances/reboot/${instanceId}/`, requestMethod: "PUT", requestBody: { instance_id: instanceId }, frequency: "DAILY", hourUtc: 9, start: String(after.startedAt), end: "2027-03-01T00:00:00Z" });
    const read = await job.read(id, after as P);
    expect(read.inputs).toMatchObject({ hour: 9, timeZone: "UTC" });
    const unchanged = await job.read(id, { ...(after as P), hour: 9 });
    expect(unchanged.inputs).toMatchObject({ hour: 9 });

    await job.delete(id, after as P);
    expect(await getScheduledJobs()).toEqual([]);
    expect((await job.read(id, after as P)).id).toBe("");
  });

  test("27.3 the same call at the same slot already scheduled (a killed run's) is taken over", async () => {
    const instanceId = await spotInstance();
    const inputs = await checked({ instanceId, action: "changeBid", price: 0.3, frequency: "DAILY", hour: 8, end: "2027-03-01T00:00:00Z" });
    const first = await job.create(inputs);
    const second = await job.create({ ...inputs, price: 0.35 });
    expect(second.id).toBe(first.id);
    expect(second.outs).toMatchObject({ adopted: true });
    const [live] = await getScheduledJobs();
    expect(live.requestBody).toMatchObject({ price: 0.35 });
  });
});
