/** MaintenanceWindow create against the simulator over HTTP: batching, refused machines, rollback. */
import { getClient } from "../../provider/context";
import { PartialFailure } from "../../provider/resources/kit";
import { SEED } from "pulumi-vastai/simulator";
import { BATCH_PATH, LIST_PATH, hostedIds, rejection, startWindowHarness } from "./maintenanceWindow-support";
import { useSimulator } from "../support/simulator";

const h = useSimulator({ start: startWindowHarness });

const NOT_OWNED = "No such machine id or not owned";

describe("MaintenanceWindow create", () => {
  it("schedules 150 machines in exactly two POSTs of 100 and 50 and records every window", async () => {
    const machineIds = hostedIds(150);
    const startTime = h.startIn(2);
    const { id, outs } = await h.provider.create({ machineIds, startTime, durationHours: 2, category: "disk", __provider: "p" });

    const posts = await h.calls("POST", BATCH_PATH);
    expect(posts.map((p) => (p.body as { machine_ids: number[] }).machine_ids.length)).toEqual([100, 50]);
    expect(posts.map((p) => p.body)).toEqual([
      { machine_ids: machineIds.slice(0, 100), sdate: startTime, duration: 2, maintenance_category: "disk" },
      { machine_ids: machineIds.slice(100), sdate: startTime, duration: 2, maintenance_category: "disk" },
    ]);
    // The window list is asked for at most 100 machines at a time too.
    for (const get of await h.calls("GET", LIST_PATH)) expect(JSON.parse(String(get.query.machine_ids)).length).toBeLessThanOrEqual(100);

    const live = h.windows();
    expect(live).toHaveLength(150);
    expect(live.every((w) => w.start_time === startTime)).toBe(true);
    expect(id).toMatch(/^mw-\d+-[0-9a-f]{12}$/);
    expect(outs.maintenanceIds).toEqual(live.map((w) => w.id).sort((a, b) => a - b));
    expect(outs.scheduledMachineIds).toEqual(machineIds);
    expect(outs.failedMachineIds).toEqual([]);
    expect(outs.results).toHaveLength(150);
    const perMachine = (outs.results as { notificationsSent: number }[]).reduce((s, r) => s + r.notificationsSent, 0);
    expect(outs.notificationsSent).toBe(perMachine);
    expect(perMachine).toBeGreaterThan(0);
    expect(outs).toMatchObject({ startTimeUnix: startTime, endTimeUnix: startTime + 7200, status: "scheduled", __provider: "p" });
  });

  it("schedules each machine once when ids repeat", async () => {
    const { outs } = await h.provider.create({ machineIds: [50001, 50002, 50001], startTime: h.startIn() });
    const [post] = await h.calls("POST", BATCH_PATH);
    expect((post.body as { machine_ids: number[] }).machine_ids).toEqual([50001, 50002]);
    expect(outs.maintenanceIds).toHaveLength(2);
  });

  it("fails naming a refused machine and the service's message, and leaves nothing scheduled", async () => {
    const machineIds = [...hostedIds(5), SEED.foreignMachineId];
    const error = await rejection(h.provider.create({ machineIds, startTime: h.startIn() }));
    expect(error.message).toContain(`1 of 6 machines could not be scheduled: ${SEED.foreignMachineId} (not_found: ${NOT_OWNED})`);
    expect(error.message).toContain("set allowPartial: true");
    expect(error.message).toContain("The 5 windows already scheduled were cancelled; nothing remains scheduled.");
    expect(error).not.toBeInstanceOf(PartialFailure);
    expect(h.windows()).toEqual([]);
  });

  it("reads a batch refused as a whole as a refusal of each of its machines", async () => {
    // 100 owned machines fill the first batch; the second holds only machines of others.
    const machineIds = [...hostedIds(100), SEED.foreignMachineId, 99999999];
    const error = await rejection(h.provider.create({ machineIds, startTime: h.startIn() }));
    expect(error.message).toMatch(/2 of 102 machines could not be scheduled: 30001, 99999999 \(not_found: .*No such machine id or not owned\)/);
    expect(h.windows()).toEqual([]);
  });

  it("keeps the window on the other machines with allowPartial and reports the refused one", async () => {
    const machineIds = [...hostedIds(3), SEED.foreignMachineId];
    const { outs } = await h.provider.create({ machineIds, startTime: h.startIn(), allowPartial: true });
    expect(outs.scheduledMachineIds).toEqual(hostedIds(3));
    expect(outs.failedMachineIds).toEqual([SEED.foreignMachineId]);
    expect(outs.results).toContainEqual({ machineId: SEED.foreignMachineId, success: false, error: "not_found", msg: NOT_OWNED });
    expect(h.windows().map((w) => w.machine_id).sort()).toEqual(hostedIds(3));
    expect(outs.maintenanceIds).toHaveLength(3);
  });

  it("fails with allowPartial when no machine at all could be scheduled", async () => {
    const error = await rejection(h.provider.create({ machineIds: [SEED.foreignMachineId], startTime: h.startIn(), allowPartial: true }));
    expect(error.message).toMatch(/none of the 1 machines could be scheduled: 30001 \(not_found:/);
    expect(error.message).toContain("Nothing was scheduled.");
    expect(h.windows()).toEqual([]);
  });

  it("does not count windows that were there before as its own", async () => {
    const startTime = h.startIn();
    const first = await h.provider.create({ machineIds: hostedIds(2), startTime });
    const second = await h.provider.create({ machineIds: hostedIds(2), startTime, allowPartial: true });
    expect(second.outs.maintenanceIds).toHaveLength(2);
    expect(second.outs.maintenanceIds).not.toEqual(first.outs.maintenanceIds);
  });

  it("(4) adopts the windows a killed run of the same resource scheduled, and destroy leaves none", async () => {
    const startTime = h.startIn();
    const inputs = { machineIds: hostedIds(120), startTime, __identity: "proj/dev/MaintenanceWindow/disks", __provider: "p" };
    // A killed run scheduled the first batch and never recorded it.
    await getClient().machines.scheduleMaintenance({ machineIds: hostedIds(100), startTime, durationHours: 1, category: "other" });
    const checked = (await h.provider.check({}, inputs)).inputs as Record<string, unknown>;
    const { id, outs } = await h.provider.create(checked);
    expect(h.windows()).toHaveLength(120);
    expect(outs.maintenanceIds).toHaveLength(120);
    const posts = await h.calls("POST", BATCH_PATH);
    // The killed run's call, then only the machines it had not reached.
    expect(posts.map((p) => (p.body as { machine_ids: number[] }).machine_ids)).toEqual([hostedIds(100), hostedIds(120).slice(100)]);
    await h.provider.delete(id, outs);
    expect(h.windows()).toEqual([]);
  });

  it("cancels a batch whose answer was lost and does not send it again", async () => {
    await h.fault({ method: "POST", path: BATCH_PATH, drop: "after" });
    const error = await rejection(h.provider.create({ machineIds: hostedIds(120), startTime: h.startIn() }));
    expect(error.message).toContain("scheduling stopped at a batch that failed as a whole (120 machines not confirmed)");
    expect(error.message).toContain("The 100 windows already scheduled were cancelled");
    expect(await h.calls("POST", BATCH_PATH)).toHaveLength(1);
    expect(h.windows()).toEqual([]);
  });

  it("keeps what it could not cancel in state when the rollback fails too, for a later delete", async () => {
    await h.fault({ method: "DELETE", path: BATCH_PATH, status: 500 });
    const inputs = { machineIds: [...hostedIds(3), SEED.foreignMachineId], startTime: h.startIn(), __provider: "p" };
    const error = await rejection(h.provider.create(inputs));
    expect(error).toBeInstanceOf(PartialFailure);
    expect(error.message).toContain("Cancelling the windows already scheduled failed too");
    const failure = error as unknown as PartialFailure;
    expect(failure.id).toMatch(/^mw-/);
    expect(failure.properties).toMatchObject({ __provider: "p", incompleteCreate: true, scheduledMachineIds: hostedIds(3) });
    expect(failure.properties.maintenanceIds).toEqual(h.windows().map((w) => w.id).sort((a, b) => a - b));
    expect(h.windows()).toHaveLength(3);

    // The next run replaces it, which first deletes what is left.
    expect((await h.provider.diff(failure.id, failure.properties, inputs)).replaces).toEqual(["machineIds"]);
    await h.provider.delete(failure.id, failure.properties);
    expect(h.windows()).toEqual([]);
  });
});
