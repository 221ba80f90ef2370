/**
 * Issue 27 item 5 (what the evidence supports): office hours for an interruptible Instance,
 * carried out by the service's scheduled bid changes with nobody running `pulumi up`, and a
 * reconcile during the off-hours that does not undo the stop (`onOutbid: "keep"`,
 * docs/hosting.md: ScheduledJob, "Office hours and expiry"). Simulator clock injected; no real waits.
 */
import { providers } from "../../provider/providers";
import { drive } from "./account-resources-support";
import { checked, createChecked, instance } from "./instance-support";
import { FAST_INSTANCE_SETTINGS, useSimulator } from "../support/simulator";

const job = drive(providers.scheduledJob);
/** Monday 2026-12-07, 07:00 in Berlin (06:00 UTC). */
let clock = Date.parse("2026-12-07T06:00:00Z");
const h = useSimulator({ providers: true, settings: FAST_INSTANCE_SETTINGS, simulator: { bootMs: 0, now: () => clock } });

async function scheduled(news: Record<string, unknown>) {
  const { inputs, failures } = await job.check({}, news);
  expect(failures).toEqual([]);
  return job.create(inputs as Record<string, unknown>);
}

const actual = async (id: string) => (await h.client.instances.get(Number(id)))?.actualStatus;

test("27.5 office hours 08:00-20:00 Berlin: the service stops and starts the instance; an up in the off-hours changes nothing", async () => {
  const declared = { offerId: 700001, image: "alpine", label: "office", bidPricePerHour: 0.25, onOutbid: "keep" };
  const box = await createChecked(declared);
  const instanceId = Number(box.id);
  const hours = { frequency: "DAILY", timeZone: "Europe/Berlin", start: "2026-12-07T00:00:00Z", end: "2027-06-30T00:00:00Z" };
  await scheduled({ instanceId, action: "changeBid", price: 0.001, hour: 20, ...hours });
  await scheduled({ instanceId, action: "changeBid", price: 0.25, hour: 8, ...hours });
  // 08:00 Berlin is 07:00 UTC: the morning bid is the declared one, the instance already runs.
  clock = Date.parse("2026-12-07T12:00:00Z");
  expect(await actual(box.id)).toBe("running");

  // 20:00 Berlin (19:00 UTC): the losing bid stops it. No engine call was made.
  clock = Date.parse("2026-12-07T19:00:00Z");
  expect(await actual(box.id)).toBe("stopped");

  // An up at 22:00: the declaration and the schedule agree, nothing is sent.
  clock = Date.parse("2026-12-07T21:00:00Z");
  await h.clearRequests();
  const diff = await instance.diff(box.id, box.outs, await checked(declared));
  expect(diff.changes).toBe(false);
  expect((await h.requests()).filter((r) => r.method !== "GET" && !r.path.includes("schedule_job"))).toEqual([]);
  expect(await actual(box.id)).toBe("stopped");

  // 08:00 Berlin the next day: the winning bid starts it again.
  clock = Date.parse("2026-12-08T07:00:00Z");
  expect(await actual(box.id)).toBe("running");
});
