/**
 * Volume and NetworkVolume through Pulumi's own dynamic-provider plugin, from the package as a
 * user installs it, against the simulator: check -> create -> read -> replace on a size change
 * -> delete; an Instance that links a Volume's id and keeps it across its own replacement; a
 * volume in use refused with a clear error.
 */
import { dynamicUrn } from "pulumi-vastai/testing";
import { testSmallLoader, useContract } from "./harness";

type Props = Record<string, unknown>;

const fx = useContract("volume", { simulator: { bootMs: 0 }, config: { "vastai:pollIntervalMs": "5", "vastai:lostResponseLookups": "2" } });

const urn = (type: string, name: string) => dynamicUrn("dev", "proj", type, name);
const identity = (type: string, name: string) => `proj/dev/${type}/${name}`;
const liveVolumes = () => fx.sim.state().volumes as Props[];

async function writes(): Promise<string[]> {
  return (await fx.takeRequests()).filter((r) => r.method !== "GET" && !r.path.includes("/search")).map((r) => `${r.method} ${r.path} ${r.status}`);
}

testSmallLoader("volume", "Volume");
testSmallLoader("networkVolume", "NetworkVolume");

test("Volume: create -> read -> replace when the size changes -> delete", async () => {
  const news: Props = { __provider: fx.provider, __identity: identity("Volume", "data"), offer: { location: "US", maxPricePerGbMonth: 0.15 }, sizeGb: 50, name: "data" };
  const checked = await fx.plugin.check(urn("Volume", "data"), {}, news);
  expect(checked.failures).toEqual([]);
  const created = await fx.plugin.create(urn("Volume", "data"), checked.inputs);
  const marker = created.properties.nameMarker as string;
  expect(created.properties).toMatchObject({ volumeId: Number(created.id), rentedOfferId: 900001, machineId: 30001, sizeGb: 50, serviceName: `data [${marker}]` });
  expect(await writes()).toEqual(["PUT /api/v0/volumes/ 200"]);

  const read = await fx.plugin.read(urn("Volume", "data"), created.id, created.properties, checked.inputs);
  expect(read.id).toBe(created.id);
  expect(await fx.plugin.diff(urn("Volume", "data"), created.id, read.properties, checked.inputs)).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });

  const bigger = await fx.plugin.check(urn("Volume", "data"), read.properties, { ...news, sizeGb: 80 });
  expect(await fx.plugin.diff(urn("Volume", "data"), created.id, read.properties, bigger.inputs)).toEqual({ changes: "some", replaces: ["sizeGb"], deleteBeforeReplace: false });
  const replacement = await fx.plugin.create(urn("Volume", "data"), bigger.inputs);
  expect(replacement.id).not.toBe(created.id);
  expect(replacement.properties.nameMarker).not.toBe(marker);
  await fx.plugin.delete(urn("Volume", "data"), created.id, read.properties);
  expect(liveVolumes()).toEqual([expect.objectContaining({ id: Number(replacement.id), disk_space: 80 })]);

  expect((await fx.plugin.read(urn("Volume", "data"), created.id, read.properties)).id).toBe("");
  await fx.plugin.delete(urn("Volume", "data"), created.id, read.properties); // already gone: success
  await fx.plugin.delete(urn("Volume", "data"), replacement.id, replacement.properties);
  expect(liveVolumes()).toEqual([]);
  await fx.takeRequests();
}, 30_000);

test("NetworkVolume: create from an offer id -> read -> delete", async () => {
  const provider = fx.serialized.networkVolume;
  const checked = await fx.plugin.check(urn("NetworkVolume", "shared"), {}, { __provider: provider, __identity: identity("NetworkVolume", "shared"), offerId: 950002, sizeGb: 100 });
  expect(checked.failures).toEqual([]);
  const created = await fx.plugin.create(urn("NetworkVolume", "shared"), checked.inputs);
  expect(created.properties).toMatchObject({ clusterId: 42, machineId: null, sizeGb: 100, serviceName: `volume [${created.properties.nameMarker as string}]` });
  const read = await fx.plugin.read(urn("NetworkVolume", "shared"), created.id, created.properties, checked.inputs);
  expect(await fx.plugin.diff(urn("NetworkVolume", "shared"), created.id, read.properties, checked.inputs)).toMatchObject({ changes: "none" });
  await fx.plugin.delete(urn("NetworkVolume", "shared"), created.id, read.properties);
  expect(liveVolumes()).toEqual([]);
  expect(await writes()).toEqual(["PUT /api/v0/network_volumes/ 200", "DELETE /api/v0/volumes/ 200"]);
}, 30_000);

test("an Instance linked to a Volume's id keeps the volume across its replacement; the volume cannot go while in use", async () => {
  const vol = await fx.plugin.create(
    urn("Volume", "keep"),
    (await fx.plugin.check(urn("Volume", "keep"), {}, { __provider: fx.provider, __identity: identity("Volume", "keep"), offerId: 900001, name: "keep" })).inputs,
  );
  const instanceProvider = fx.serialized.instance;
  // The program passes `volume.id` (a string): the link works as with the numeric volumeId.
  const news: Props = { __provider: instanceProvider, __identity: identity("Instance", "gpu"), offerId: 700001, image: "ubuntu:22.04", volume: { createNew: false, volumeId: vol.id, mountPath: "/data" } };
  const checked = await fx.plugin.check(urn("Instance", "gpu"), {}, news);
  expect(checked.failures).toEqual([]);
  const first = await fx.plugin.create(urn("Instance", "gpu"), checked.inputs);
  expect(fx.sim.state().instances).toEqual([expect.objectContaining({ id: Number(first.id), volume_info: { create_new: false, volume_id: Number(vol.id), mount_path: "/data" } })]);

  // Deleting the volume now is refused by the service, with an error that says why and what to do.
  const refused = await fx.plugin.delete(urn("Volume", "keep"), vol.id, vol.properties).then(
    () => undefined,
    (e: Error) => e,
  );
  expect(refused?.message).toContain(`Volume "keep" (id ${vol.id}): deleting the volume failed: volume ${vol.id} is in use by instance(s) ${first.id}`);
  expect(refused?.message).toMatch(/destroy those instances, or link them to another volume, first/);
  expect(liveVolumes()).toHaveLength(1);

  // The instance dies: the next diff replaces it; the replacement links the same volume.
  await fx.control("POST", `/instances/${first.id}/status`, { actual_status: "exited" });
  const again = await fx.plugin.check(urn("Instance", "gpu"), first.properties, news);
  const diff = await fx.plugin.diff(urn("Instance", "gpu"), first.id, first.properties, again.inputs);
  expect(diff.replaces).toEqual(["actualStatus"]);
  // The same given offerId is held by the dead instance until it goes: delete first, as the engine does.
  expect(diff.deleteBeforeReplace).toBe(true);
  await fx.plugin.delete(urn("Instance", "gpu"), first.id, first.properties);
  const second = await fx.plugin.create(urn("Instance", "gpu"), again.inputs);
  expect(liveVolumes()).toEqual([expect.objectContaining({ id: Number(vol.id), instances: [expect.objectContaining({ id: Number(second.id) })] })]);
  const volRead = await fx.plugin.read(urn("Volume", "keep"), vol.id, vol.properties);
  expect(volRead.properties).toMatchObject({ attachedInstanceIds: [Number(second.id)] });

  // Destroy in dependency order: the instance, then the volume.
  await fx.plugin.delete(urn("Instance", "gpu"), second.id, second.properties);
  await fx.plugin.delete(urn("Volume", "keep"), vol.id, volRead.properties);
  expect(liveVolumes()).toEqual([]);
}, 30_000);

test("check failures name the property, the rule and the value", async () => {
  const { failures } = await fx.plugin.check(urn("Volume", "bad"), {}, { __provider: fx.provider, offerId: 900001, sizeGb: 2.5, nme: "x" });
  expect(failures).toEqual([
    { property: "sizeGb", reason: "sizeGb: must be a whole number (got 2.5)" },
    { property: "nme", reason: expect.stringMatching(/nme is not a Volume property; did you mean name\?/) },
  ]);
});
