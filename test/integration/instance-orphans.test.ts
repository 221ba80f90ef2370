/**
 * Orphans of creates that never reached state: a run killed mid-create leaves an instance the
 * next run must adopt, not duplicate (trust issue item 4); a lost create whose instance lands
 * after the look-up window is swept by the next read (item 5).
 */
import { IDENTITY_KEY, identityMarker } from "../../provider/resources/kit";
import { MARKER_ENV } from "../../provider/resources/instance/inputs";
import { Props, checked, instance, liveInstancesOf } from "./instance-support";
import { FAST_INSTANCE_SETTINGS, useSimulator } from "../support/simulator";

const h = useSimulator({ providers: true, settings: FAST_INSTANCE_SETTINGS });

const markerOf = (live: Props) => (live.extra_env as [string, string][]).find(([k]) => k === MARKER_ENV)?.[1];
const identity = (name: string) => ({ [IDENTITY_KEY]: `proj/dev/Instance/${name}` });

/**
 * What a run killed after its create request reached the service leaves: the instance, with
 * the marker of that create in its environment, and nothing in state. (The plugin-kill column
 * of the fault matrix kills the real plugin; here the request is replayed as it was sent.)
 */
async function killedRun(inputs: Props): Promise<void> {
  await h.client.instances.create(700001, { image: "x", env: { [MARKER_ENV]: identityMarker(inputs) ?? "none" } });
}

it("(4) the next run adopts the instance a killed run left, instead of renting a second one", async () => {
  const inputs = await checked({ offerId: 700001, image: "x", ...identity("trainer") });
  await killedRun(inputs);
  expect(liveInstancesOf(h)).toHaveLength(1);
  const again = await checked({ offerId: 700001, image: "x", ...identity("trainer") });
  const { id } = await instance.create(again);
  const live = liveInstancesOf(h);
  expect(live.map((i) => String(i.id))).toEqual([id]);
});

it("(4) another resource or stack does not adopt it", async () => {
  await killedRun(await checked({ offerId: 700001, image: "x", ...identity("trainer") }));
  // Other offers: a rented offer is taken.
  await instance.create(await checked({ offerId: 700002, image: "x", [IDENTITY_KEY]: "proj/prod/Instance/trainer" }));
  await instance.create(await checked({ offerId: 700003, image: "x", ...identity("other") }));
  expect(new Set(liveInstancesOf(h).map(markerOf)).size).toBe(3);
});

it("(4) a replacement (create before delete) rents a new instance instead of adopting the one it replaces", async () => {
  const first = await checked({ offerId: 700001, image: "x", ...identity("trainer") });
  const created = await instance.create(first);
  // On another offer: the one it replaces holds 700001 until it is deleted.
  const replacement = await instance.check(created.outs as Props, { __provider: "test-provider", offerId: 700002, image: "y", ...identity("trainer") });
  const second = await instance.create(replacement.inputs as Props);
  expect(second.id).not.toBe(created.id);
  expect(liveInstancesOf(h)).toHaveLength(2);
});

it("(5) a lost create whose instance lands after the look-up window is destroyed by the next read", async () => {
  await h.fault({ method: "PUT", path: "/api/v0/asks/*", times: 1, drop: "before" });
  const { id, outs } = await instance.create(await checked({ offerId: 700001, image: "x", ...identity("trainer") }));
  const lost = (outs as Props).lostCreates as string[];
  expect(lost).toHaveLength(1);
  // The lost request lands late, carrying the marker it was sent with.
  await h.client.instances.create(700002, { image: "x", env: { [MARKER_ENV]: lost[0] } });
  expect(liveInstancesOf(h)).toHaveLength(2);
  await instance.read(id, outs as Props);
  expect(liveInstancesOf(h).map((i) => String(i.id))).toEqual([id]);
});
