/** MaintenanceWindow read, update and delete against the simulator over HTTP, with a movable clock. */
import { getClient, resetRuntime, setClientOptions } from "../../provider/context";
import { setTiming } from "../../provider/resources/kit";
import { cancelAndVerify, listWindows } from "../../provider/resources/maintenanceWindow/service";
import { BATCH_PATH, DAY, HOUR, LIST_PATH, hostedIds, startWindowHarness } from "./maintenanceWindow-support";
import { useSimulator } from "../support/simulator";

const h = useSimulator({ start: startWindowHarness });

type Props = Record<string, unknown>;

async function created(count: number, extra: Props = {}) {
  const inputs = { machineIds: hostedIds(count), startTime: h.startIn(), durationHours: 1, category: "other", allowPartial: false, __provider: "p", ...extra };
  const { id, outs } = await h.provider.create(inputs);
  await h.clearRequests();
  return { id, inputs, outs: outs as Props };
}

async function cancelByHand(ids: number[]) {
  await getClient().machines.cancelMaintenances(ids);
  await h.clearRequests();
}

describe("MaintenanceWindow read", () => {
  it("reports the windows still there, listing 100 machines per call", async () => {
    const { id, outs } = await created(150);
    const read = await h.provider.read(id, outs);
    expect(read.id).toBe(id);
    expect(read.props).toEqual(outs);
    expect(read.inputs).toEqual({ machineIds: hostedIds(150), startTime: outs.startTime, durationHours: 1, category: "other", allowPartial: false });
    const lists = await h.calls("GET", LIST_PATH);
    expect(lists.map((g) => JSON.parse(String(g.query.machine_ids)).length)).toEqual([100, 50]);
  });

  it("drops machines whose window was cancelled outside Pulumi, so the next run schedules them again", async () => {
    const { id, inputs, outs } = await created(4);
    const ids = outs.maintenanceIds as number[];
    await cancelByHand([ids[0]]);
    const read = await h.provider.read(id, outs);
    expect(read.id).toBe(id);
    expect(read.inputs?.machineIds).toEqual(hostedIds(4).slice(1));
    expect(read.props).toMatchObject({ maintenanceIds: ids.slice(1), scheduledMachineIds: hostedIds(4).slice(1) });
    // The program still asks for four machines: that is a replacement.
    expect((await h.provider.diff(id, read.props!, inputs)).replaces).toEqual(["machineIds"]);
  });

  it("returns an empty id when every window was cancelled outside Pulumi before the start", async () => {
    const { id, outs } = await created(3);
    await cancelByHand(outs.maintenanceIds as number[]);
    expect((await h.provider.read(id, outs)).id).toBe("");
  });

  it("keeps a window that has run in state, unchanged, without asking the service", async () => {
    const { id, inputs, outs } = await created(3);
    h.advance(DAY + 2 * HOUR);
    const read = await h.provider.read(id, outs);
    expect(read.id).toBe(id);
    expect(read.props).toEqual({ ...outs, status: "ended" });
    expect(read.inputs?.machineIds).toEqual(hostedIds(3));
    expect(await h.requests()).toEqual([]);
    // Later runs with the same program pass check and see no change.
    expect((await h.provider.check(inputs, inputs)).failures).toEqual([]);
    expect((await h.provider.diff(id, read.props!, inputs)).changes).toBe(false);
  });

  it("shows a window in progress as such", async () => {
    const { id, outs } = await created(1);
    h.advance(DAY + 60);
    expect((await h.provider.read(id, outs)).props?.status).toBe("inProgress");
  });
});

describe("MaintenanceWindow update", () => {
  it("changes allowPartial in place without calling the service", async () => {
    const { id, inputs, outs } = await created(2);
    const { outs: updated } = await h.provider.update(id, outs, { ...inputs, allowPartial: true });
    expect(updated).toEqual({ ...outs, allowPartial: true });
    expect(await h.requests()).toEqual([]);
  });
});

describe("MaintenanceWindow delete", () => {
  it("cancels the windows of 150 machines, 100 ids per call", async () => {
    const { id, outs } = await created(150);
    await h.provider.delete(id, outs);
    const deletes = await h.calls("DELETE", BATCH_PATH);
    expect(deletes.map((d) => (d.body as { maintenance_ids: number[] }).maintenance_ids.length)).toEqual([100, 50]);
    expect(h.windows()).toEqual([]);
  });

  it("succeeds for a window already cancelled, sending no cancel", async () => {
    const { id, outs } = await created(2);
    await cancelByHand(outs.maintenanceIds as number[]);
    await h.provider.delete(id, outs);
    expect(await h.calls("DELETE", BATCH_PATH)).toEqual([]);
  });

  it("counts a refusal for a window that is gone by then as cancelled", async () => {
    const { outs } = await created(2);
    const listed = await listWindows(getClient(), hostedIds(2));
    // Cancelled by someone else after the list was read.
    await cancelByHand([listed[0].id]);
    const outcome = await cancelAndVerify(getClient(), listed);
    expect(outcome).toEqual({ cancelled: [listed[1].id], refused: [] });
    expect(listed.map((w) => w.id)).toEqual(outs.maintenanceIds);
    expect(h.windows()).toEqual([]);
  });

  it("fails naming the windows the service refuses to cancel while they are still there", async () => {
    const { id, outs } = await created(2);
    const ids = outs.maintenanceIds as number[];
    const refusal = { success: false, results: ids.map((mid) => ({ success: false, maintenance_id: mid, msg: "Maintenance locked" })) };
    await h.fault({ method: "DELETE", path: BATCH_PATH, status: 200, body: refusal });
    await expect(h.provider.delete(id, outs)).rejects.toThrow(
      `MaintenanceWindow: the service refused to cancel 2 windows: ${ids[0]} (Maintenance locked), ${ids[1]} (Maintenance locked).`,
    );
    expect(h.windows()).toHaveLength(2);
    await h.provider.delete(id, outs);
    expect(h.windows()).toEqual([]);
  });

  it("leaves a window that has started alone and succeeds", async () => {
    const { id, outs } = await created(2);
    h.advance(DAY + 60);
    await h.provider.delete(id, outs);
    expect(await h.calls("DELETE", BATCH_PATH)).toEqual([]);
    expect(h.windows()).toHaveLength(2);
  });

  it("(13) judges the start by the service's clock: a local clock 4 hours fast still cancels", async () => {
    const { id, outs } = await created(2, { startTime: Math.floor(h.nowMs() / 1000) + 2 * HOUR });
    // This machine's clock, for the provider and its client, runs 4 hours ahead of the service's.
    const fast = () => h.nowMs() + 4 * HOUR * 1000;
    const previous = setTiming({ now: fast });
    resetRuntime();
    setClientOptions({ apiKey: h.sim.apiKey, apiUrl: h.sim.url, runUrl: h.sim.runUrl, pacing: false, now: fast });
    try {
      await h.provider.delete(id, outs);
    } finally {
      setTiming(previous);
      resetRuntime();
      setClientOptions({ apiKey: h.sim.apiKey, apiUrl: h.sim.url, runUrl: h.sim.runUrl, pacing: false, now: h.nowMs });
    }
    expect(await h.calls("DELETE", BATCH_PATH)).toHaveLength(1);
    expect(h.windows()).toEqual([]);
  });
});

describe("issue 23 item 12: the service's Date header is trusted only so far", () => {
  const yearAhead = () => new Date(h.nowMs() + 365 * DAY * 1000).toUTCString();

  it("23.12 a Date a year ahead does not make a destroy skip the cancel and succeed: it fails clearly, nothing cancelled", async () => {
    const { id, outs } = await created(2);
    await fetch(`${h.sim.url}/_sim/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ method: "GET", path: LIST_PATH, headers: { date: yearAhead() }, times: 10 }),
    });
    const error = await h.provider.delete(id, outs).then(() => undefined, (e: unknown) => e as Error);
    expect(error?.message).toMatch(/the service's Date header is \d+ minutes ahead of this machine's clock \(more than the 10 minutes trusted\)/);
    expect(error?.message).toMatch(/Nothing was cancelled/);
    expect(h.windows()).toHaveLength(2);
    await fetch(`${h.sim.url}/_sim/faults`, { method: "DELETE" });
    // With an honest Date the same destroy cancels.
    resetRuntime();
    setClientOptions({ apiKey: h.sim.apiKey, apiUrl: h.sim.url, runUrl: h.sim.runUrl, pacing: false, now: h.nowMs });
    await h.provider.delete(id, outs);
    expect(h.windows()).toEqual([]);
  });

  it("23.12 a Date 5 minutes ahead is trusted: a window that started by it is left alone", async () => {
    const { id, outs } = await created(1, { startTime: Math.floor(h.nowMs() / 1000) + 120 });
    await fetch(`${h.sim.url}/_sim/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ method: "GET", path: LIST_PATH, headers: { date: new Date(h.nowMs() + 5 * 60_000).toUTCString() }, times: 10 }),
    });
    try {
      await h.provider.delete(id, outs);
    } finally {
      await fetch(`${h.sim.url}/_sim/faults`, { method: "DELETE" });
    }
    expect(await h.calls("DELETE", BATCH_PATH)).toEqual([]);
  });
});
