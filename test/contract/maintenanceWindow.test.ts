/**
 * MaintenanceWindow through Pulumi's own dynamic-provider plugin, from the package as a user
 * installs it, against the simulator: check -> create -> read -> replace -> update -> delete,
 * with the simulator's windows and request log looked at after each step.
 */
import { SEED } from "pulumi-vastai/simulator";
import { PluginCallError, dynamicUrn } from "pulumi-vastai/testing";
import { testSmallLoader, useContract } from "./harness";

type Props = Record<string, unknown>;
const BATCH = "/api/v0/machines/maintenances/batch";
const DAY = 24 * 3600;

const fx = useContract("maintenanceWindow");

/** Batch calls (schedule or cancel) since the log was last cleared; clears it. */
async function batchCalls(method: "POST" | "DELETE"): Promise<Props[]> {
  const log = await fx.takeRequests();
  return log.filter((r) => r.method === method && r.path.replace(/\/$/, "") === BATCH).map((r) => r.body as Props);
}

function windows(): { machine_id: number; start_time: number }[] {
  return fx.sim.state().maintenances as never;
}

const urn = (name: string) => dynamicUrn("dev", "proj", "MaintenanceWindow", name);
const machineIds = SEED.hostedMachineIds.slice(0, 150);
const inDays = (days: number) => Math.floor(Date.now() / 1000) + days * DAY;

testSmallLoader("maintenanceWindow", "MaintenanceWindow");

test("a window over 150 machines is scheduled in two batches, read, replaced on a new start and cancelled", async () => {
  const start = inDays(2);
  const news = { __provider: fx.provider, machineIds, startTime: new Date(start * 1000).toISOString(), durationHours: 2, category: "gpu" };
  const checked = await fx.plugin.check(urn("w"), {}, news);
  expect(checked.failures).toEqual([]);
  expect(checked.inputs).toMatchObject({ durationHours: 2, category: "gpu", allowPartial: false });

  // create: two schedule calls of 100 and 50
  const created = await fx.plugin.create(urn("w"), checked.inputs);
  expect((await batchCalls("POST")).map((b) => (b.machine_ids as number[]).length)).toEqual([100, 50]);
  expect(windows()).toHaveLength(150);
  expect(windows().every((w) => w.start_time === start)).toBe(true);
  expect(created.properties).toMatchObject({ startTimeUnix: start, status: "scheduled", scheduledMachineIds: machineIds });
  expect(created.properties.maintenanceIds).toHaveLength(150);

  // read: nothing drifted
  const read = await fx.plugin.read(urn("w"), created.id, created.properties, checked.inputs);
  expect(read.id).toBe(created.id);
  expect(read.properties.maintenanceIds).toEqual(created.properties.maintenanceIds);
  expect(await fx.plugin.diff(urn("w"), created.id, read.properties, checked.inputs)).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });

  // replace: a new start deletes the old window first, then schedules the new one
  const moved = await fx.plugin.check(urn("w"), checked.inputs, { ...checked.inputs, startTime: start + 3600 });
  expect(moved.failures).toEqual([]);
  const diff = await fx.plugin.diff(urn("w"), created.id, read.properties, moved.inputs);
  expect(diff).toEqual({ changes: "some", replaces: ["startTime"], deleteBeforeReplace: true });
  await fx.plugin.delete(urn("w"), created.id, read.properties);
  expect((await batchCalls("DELETE")).map((b) => (b.maintenance_ids as number[]).length)).toEqual([100, 50]);
  expect(windows()).toEqual([]);
  const replaced = await fx.plugin.create(urn("w"), moved.inputs);
  expect(windows()).toHaveLength(150);
  expect(windows().every((w) => w.start_time === start + 3600)).toBe(true);
  expect(replaced.properties.maintenanceIds).not.toEqual(created.properties.maintenanceIds);

  // update in place: allowPartial only
  const partial = { ...moved.inputs, allowPartial: true };
  expect(await fx.plugin.diff(urn("w"), replaced.id, replaced.properties, partial)).toEqual({ changes: "some", replaces: [], deleteBeforeReplace: false });
  const updated = await fx.plugin.update(urn("w"), replaced.id, replaced.properties, partial);
  expect(updated.properties).toMatchObject({ allowPartial: true, maintenanceIds: replaced.properties.maintenanceIds });
  await batchCalls("POST");

  // delete cancels; a second delete of what is gone succeeds
  await fx.plugin.delete(urn("w"), replaced.id, updated.properties);
  expect(await batchCalls("DELETE")).toHaveLength(2);
  expect(windows()).toEqual([]);
  await fx.plugin.delete(urn("w"), replaced.id, updated.properties);
  expect((await fx.plugin.read(urn("w"), replaced.id, updated.properties)).id).toBe("");
}, 120_000);

test("a refused machine fails the create with its id and leaves nothing scheduled", async () => {
  const news = { __provider: fx.provider, machineIds: [...SEED.hostedMachineIds.slice(0, 3), SEED.foreignMachineId], startTime: inDays(1) };
  const checked = await fx.plugin.check(urn("bad"), {}, news);
  const error = (await fx.plugin.create(urn("bad"), checked.inputs).catch((e: unknown) => e)) as PluginCallError;
  expect(error).toBeInstanceOf(PluginCallError);
  expect(error.message).toContain(`${SEED.foreignMachineId} (not_found: No such machine id or not owned)`);
  expect(error.initFailure).toBeUndefined();
  expect(windows()).toEqual([]);
}, 60_000);

test("check judges the start only for a window about to be scheduled", async () => {
  const past = { __provider: fx.provider, machineIds: [SEED.hostedMachineIds[0]], startTime: inDays(-1), durationHours: 1, category: "other", allowPartial: false };
  const fresh = await fx.plugin.check(urn("old"), {}, past);
  expect(fresh.failures).toEqual([{ property: "startTime", reason: expect.stringMatching(/^startTime: must be in the future for a new window/) }]);
  expect((await fx.plugin.check(urn("old"), past, past)).failures).toEqual([]);
}, 60_000);
