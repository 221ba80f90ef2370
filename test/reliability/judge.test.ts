/**
 * The fault matrix's judge on a delete in steps (an Instance, then the volume it created),
 * against the simulator: an entry a failed delete kept may miss what the delete removed before
 * the failing step, and only that; its next delete must finish; an entry dropped while the
 * volume is live is a leak.
 */
import { getClient } from "../../provider/context";
import type { Entry } from "./support/drive";
import { createVia } from "./support/drive";
import { consistency, removedBeforeFailure } from "./support/judge";
import { profile } from "./support/profile";
import { Rig, startRig, type StateView } from "./support/rig";
import { SCENARIOS, SECRET_VALUES, type Scenario } from "./support/scenarios";

let rig: Rig;
beforeAll(async () => {
  rig = await startRig(profile(), { apiKey: SECRET_VALUES.apiKey });
});
afterAll(() => rig?.close());

const s = SCENARIOS.find((x) => x.name === "Instance created volume")!;

/** An Instance with its created volume, made without faults, and the seed state. */
async function made(): Promise<{ entry: Entry; baseline: StateView; volumeKey: string }> {
  await rig.reset();
  rig.freshClient();
  const baseline = await rig.liveState();
  const entry = await createVia(s.provider, s.inputs({}));
  expect(typeof entry.outs.createdVolumeId).toBe("number");
  return { entry, baseline, volumeKey: `volume ${String(entry.outs.createdVolumeId)}` };
}

async function judge(scenario: Scenario, entries: Entry[], baseline: StateView, failedDelete: boolean) {
  const state = await rig.liveState();
  return (await consistency(rig, scenario, entries, { state, baseline, before: baseline, failedDelete })).map((p) => `${p.kind}: ${p.detail}`);
}

test("the row claims its instance, then its volume, in the order its delete removes them", () => {
  expect(s.deletesInOrder).toBe(true);
  expect(s.claims({ id: "7", outs: { createdVolumeId: 9 } })).toEqual(["instance 7", "volume 9"]);
});

test("an entry kept after a failed volume delete, its instance gone and its volume live, is right; the judge's next delete removes the volume", async () => {
  const { entry, baseline, volumeKey } = await made();
  await getClient().instances.destroy(Number(entry.id));
  expect(await judge(s, [entry], baseline, true)).toEqual([]);
  expect(s.live(await rig.liveState(), baseline).map((o) => o.key)).not.toContain(volumeKey);
});

test("the same state is MISSING when the delete did not fail (only a failed delete keeps an entry)", async () => {
  const { entry, baseline } = await made();
  await getClient().instances.destroy(Number(entry.id));
  expect(await judge(s, [entry], baseline, false)).toEqual([`MISSING: ${s.name} instance ${entry.id} is in state but not live`]);
});

test("the entry dropped while its volume is live is a leak (ORPHAN)", async () => {
  const { entry, baseline, volumeKey } = await made();
  await getClient().instances.destroy(Number(entry.id));
  expect(await judge(s, [], baseline, true)).toEqual([`ORPHAN: ${s.name} ${volumeKey} is live but not in state`]);
});

test("a kept entry whose next delete leaves the volume is UNFINISHED", async () => {
  const { entry, baseline, volumeKey } = await made();
  await getClient().instances.destroy(Number(entry.id));
  const leaves: Scenario = { ...s, provider: { ...s.provider, delete: async () => {} } };
  expect(await judge(leaves, [entry], baseline, true)).toEqual([`UNFINISHED: ${s.name} ${volumeKey} is still live after the next delete of ${entry.id}`]);
});

test("only objects removed before the first live one are excused: not a volume gone while its instance lives, not an entry with nothing live", () => {
  const entry: Entry = { id: "7", outs: { createdVolumeId: 9 } };
  expect(removedBeforeFailure(s, entry, "instance 7", new Set(["volume 9"]))).toBe(true);
  expect(removedBeforeFailure(s, entry, "volume 9", new Set(["instance 7"]))).toBe(false);
  expect(removedBeforeFailure(s, entry, "instance 7", new Set())).toBe(false);
  expect(removedBeforeFailure(s, entry, "volume 9", new Set())).toBe(false);
});
