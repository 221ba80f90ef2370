/** Waiting for an instance to boot, against a simulator whose instances take time to start. */
import { PartialFailure } from "../../provider/resources/kit";
import { getClient } from "../../provider/context";
import { ONE_PATH, count, createChecked, liveInstancesOf, rejection } from "./instance-support";
import { FAST_INSTANCE_SETTINGS, useSimulator } from "../support/simulator";

describe("a boot of 150 ms", () => {
  const h = useSimulator({ simulator: { bootMs: 150 }, providers: true, settings: FAST_INSTANCE_SETTINGS, reset: false });
  beforeAll(async () => {
    await getClient().instances.list(); // load the HTTP stack before timing a boot
    await h.clearRequests();
  });

  it("waits until the instance is running, polling it directly", async () => {
    const started = Date.now();
    const { outs } = await createChecked({ offerId: 700001, image: "x" });
    expect(outs.actualStatus).toBe("running");
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    // At least one read that saw it still booting and the one that saw it running, all direct,
    // no list walks. (How many it sees booting depends on the machine's speed: the poll tightens
    // from 1/40 of the interval, and on a busy machine one late read can find it running.)
    const requests = await h.requests();
    expect(count(requests, "GET", ONE_PATH)).toBeGreaterThanOrEqual(2);
    expect(count(requests, "GET", /^\/api\/v1\/instances/)).toBe(0);
  });

  it("returns at once when waitForRunning is false", async () => {
    // Another offer: the test before rented 700001 (a rented offer is taken).
    const { outs } = await createChecked({ offerId: 700002, image: "x", waitForRunning: false });
    expect(outs.actualStatus).toBeNull();
    expect(outs.statusMsg).toBe("Provisioning");
  });
});

describe("a boot longer than the deadline", () => {
  const h = useSimulator({ simulator: { bootMs: 60_000 }, providers: true, settings: FAST_INSTANCE_SETTINGS, reset: false });

  it("reports a partial failure carrying the id when the instance is not running in time", async () => {
    const error = await rejection(createChecked({ offerId: 700001, image: "x", runningTimeoutMinutes: 0.002 }));
    expect(error).toBeInstanceOf(PartialFailure);
    const live = liveInstancesOf(h);
    expect(live).toHaveLength(1);
    expect(error.id).toBe(String(live[0].id));
    expect(error.message).toMatch(/was not running after 0\.\d+ minutes \(runningTimeoutMinutes; last status (none yet|loading)\)/);
    expect(error.properties).toMatchObject({ instanceId: live[0].id, marker: expect.any(String) });
  });
});
