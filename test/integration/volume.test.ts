/**
 * Volume and NetworkVolume through their providers against the simulator: renting from an
 * offer or filters, read-back, lost responses and killed runs adopted by the marker in the
 * service's name, deletion (and its refusal while an instance uses the volume), and an
 * Instance that links a Volume and keeps it across a replacement.
 */
import { VolumeInUseError } from "../../provider/client";
import { providers } from "../../provider/providers";
import { drive } from "./account-resources-support";
import { createChecked, instance, rejection, type Props } from "./instance-support";
import { FAST_INSTANCE_SETTINGS, useSimulator } from "../support/simulator";

const volume = drive(providers.volume);
const networkVolume = drive(providers.networkVolume);

const h = useSimulator({ providers: true, settings: FAST_INSTANCE_SETTINGS });

/** Volume offer 900001 is disk on machine 30001, where GPU offer 700001 runs. */
const LOCAL_OFFER = 900001;
const GPU_OFFER_SAME_MACHINE = 700001;
const GPU_OFFER_OTHER_MACHINE = 700002;

async function checkedVolume(news: Props, kind: "volume" | "networkVolume" = "volume", olds: Props = {}): Promise<Props> {
  const p = kind === "volume" ? volume : networkVolume;
  const { inputs, failures } = await p.check(olds, { __provider: "test", ...news });
  expect(failures).toEqual([]);
  return inputs as Props;
}

async function created(news: Props, kind: "volume" | "networkVolume" = "volume") {
  const p = kind === "volume" ? volume : networkVolume;
  const result = await p.create(await checkedVolume(news, kind));
  return { id: result.id, outs: result.outs as Props };
}

const liveVolumes = () => h.sim.state().volumes as Props[];
const identity = (name: string) => ({ __identity: `proj/dev/Volume/${name}`, __generation: 1 });

describe("Volume", () => {
  it("rents the given offer with the size and a name carrying the marker, and reads it back unchanged", async () => {
    const { id, outs } = await created({ offerId: LOCAL_OFFER, sizeGb: 50, name: "data", ...identity("data") });
    const marker = outs.nameMarker as string;
    expect(marker).toMatch(/^[0-9a-f]{16}$/);
    expect(outs).toMatchObject({
      volumeId: Number(id),
      serviceName: `data [${marker}]`,
      rentedOfferId: LOCAL_OFFER,
      machineId: 30001,
      clusterId: null,
      sizeGb: 50,
      attachedInstanceIds: [],
      status: "active",
    });
    expect(liveVolumes()).toEqual([expect.objectContaining({ id: Number(id), label: `data [${marker}]`, disk_space: 50, type: "local_volume" })]);
    const read = await volume.read(id, outs);
    expect(read.id).toBe(id);
    expect(read.inputs).toEqual({ offerId: LOCAL_OFFER, sizeGb: 50, name: "data", ...identity("data") });
  });

  it("defaults the size to 15 GB and, with filters, rents the cheapest offer with room for it", async () => {
    const { outs } = await created({ offer: { location: "US", maxPricePerGbMonth: 0.15 }, sizeGb: 600 });
    // US offers at most $0.15/GB/month: 900001 (500 GB free, too small) and 900004 (2000 GB).
    expect(outs.rentedOfferId).toBe(900004);
    expect(outs.pricePerGbMonth).toBe(0.12);
    expect((await checkedVolume({ offerId: LOCAL_OFFER })).sizeGb).toBe(15);
  });

  it("fails with a clear message when no offer matches", async () => {
    const e = await rejection(created({ offer: { maxPricePerGbMonth: 0.01 }, name: "cheap" }));
    expect(e.message).toMatch(/^Volume "cheap": renting the volume failed: no volume offer matches \{"maxPricePerGbMonth":0.01\} with 15 GB free; widen the filters or lower sizeGb/);
    expect(liveVolumes()).toEqual([]);
  });

  it("with filters, takes the next match when an offer is taken between search and rent", async () => {
    await h.fault({ method: "PUT", path: "/api/v0/volumes/", status: 404, body: { success: false, error: "no_such_ask", msg: "No volume offer by id 900003 is available." }, times: 1 });
    const { outs } = await created({ offer: { maxPricePerGbMonth: 0.1 } });
    // Cheapest verified first: 900003 ($0.05, refused once), then 900002 ($0.08).
    expect(outs.rentedOfferId).toBe(900002);
    expect(liveVolumes()).toHaveLength(1);
  });

  it("a lost create response is found by its marker and adopted: one volume, not two", async () => {
    await h.fault({ method: "PUT", path: "/api/v0/volumes/", drop: "after", times: 1 });
    const { id, outs } = await created({ offerId: LOCAL_OFFER, name: "data", ...identity("lost") });
    expect(liveVolumes().map((v) => v.id)).toEqual([Number(id)]);
    expect(outs.serviceName).toBe(`data [${outs.nameMarker as string}]`);
  });

  it("adopts the volume a killed run of the same create rented (same identity and generation)", async () => {
    const first = await created({ offerId: LOCAL_OFFER, name: "data", ...identity("killed") });
    // The state never saw `first`: the next run checks and creates the same resource again.
    const again = await created({ offerId: LOCAL_OFFER, name: "data", ...identity("killed") });
    expect(again.id).toBe(first.id);
    expect(liveVolumes()).toHaveLength(1);
  });

  it("a replacement (next generation) never adopts the volume it replaces", async () => {
    const old = await created({ offerId: LOCAL_OFFER, name: "data", ...identity("gen") });
    // check counts one generation above the stored one.
    const news = await checkedVolume({ offerId: LOCAL_OFFER, name: "data", __identity: "proj/dev/Volume/gen" }, "volume", old.outs);
    expect(news.__generation).toBe(2);
    const next = await volume.create(news);
    expect(next.id).not.toBe(old.id);
    expect(liveVolumes()).toHaveLength(2);
  });

  it("a read deletes the late landing of a lost create (same marker, another id, unused)", async () => {
    const { id, outs } = await created({ offerId: LOCAL_OFFER, name: "data", ...identity("late") });
    await h.client.volumes.create("local", { offerId: LOCAL_OFFER, sizeGb: 15, name: outs.serviceName as string });
    expect(liveVolumes()).toHaveLength(2);
    await volume.read(id, outs);
    expect(liveVolumes().map((v) => v.id)).toEqual([Number(id)]);
  });

  it("reports a volume deleted outside Pulumi as gone (empty id)", async () => {
    const { id, outs } = await created({ offerId: LOCAL_OFFER });
    await h.client.volumes.delete(Number(id));
    expect(await volume.read(id, outs)).toEqual({ id: "" });
  });

  it("every input change replaces it (the service cannot rename or resize a volume)", async () => {
    const { id, outs } = await created({ offerId: LOCAL_OFFER, sizeGb: 20, name: "a" });
    for (const change of [{ sizeGb: 30 }, { name: "b" }, { offerId: 900002 }]) {
      const news = await checkedVolume({ offerId: LOCAL_OFFER, sizeGb: 20, name: "a", ...change }, "volume", outs);
      const diff = await volume.diff(id, outs, news);
      expect(diff).toMatchObject({ changes: true, replaces: Object.keys(change) });
    }
    expect(await volume.diff(id, outs, await checkedVolume({ offerId: LOCAL_OFFER, sizeGb: 20, name: "a" }, "volume", outs))).toMatchObject({ changes: false });
  });

  it("deletes by id, sent in the JSON body (vendor document) and the query (vendor client); a second delete succeeds", async () => {
    const { id, outs } = await created({ offerId: LOCAL_OFFER });
    await h.clearRequests();
    await volume.delete(id, outs);
    const sent = (await h.requests()).find((r) => r.method === "DELETE");
    expect(sent).toMatchObject({ path: "/api/v0/volumes/", query: { id }, body: { id: Number(id) } });
    expect(liveVolumes()).toEqual([]);
    await expect(volume.delete(id, outs)).resolves.toBeUndefined();
  });
});

describe("Instance linked to a Volume", () => {
  const linked = (volumeId: unknown, offerId = GPU_OFFER_SAME_MACHINE) => ({
    offerId,
    image: "ubuntu:22.04",
    volume: { createNew: false, volumeId, mountPath: "/data" },
  });

  it("takes the Volume's id (a string) and the simulator attaches and shows it", async () => {
    const vol = await created({ offerId: LOCAL_OFFER, name: "data" });
    const inst = await createChecked(linked(vol.id));
    const shown = h.sim.state().instances.find((i) => String(i.id) === inst.id);
    expect(shown?.volume_info).toEqual({ create_new: false, volume_id: Number(vol.id), mount_path: "/data" });
    expect((await volume.read(vol.id, vol.outs)).props).toMatchObject({ attachedInstanceIds: [Number(inst.id)] });
  });

  it("survives an instance replacement: the new instance links the same volume, the data stays", async () => {
    const vol = await created({ offerId: LOCAL_OFFER, name: "data" });
    const old = await createChecked({ ...linked(vol.outs.volumeId), __identity: "proj/dev/Instance/gpu", __generation: 1 });
    await h.control("POST", `/instances/${old.id}/status`, { actual_status: "exited" });
    const news = (await instance.check(old.outs, { __provider: "test-provider", ...linked(vol.outs.volumeId), __identity: "proj/dev/Instance/gpu" })).inputs as Props;
    const diff = await instance.diff(old.id, old.outs, news);
    expect(diff.replaces?.length).toBeGreaterThan(0);
    // The same given offer (the volume's machine), which the old instance holds: the engine
    // deletes the old instance first, then creates the new one.
    expect(diff.deleteBeforeReplace).toBe(true);
    await instance.delete(old.id, old.outs);
    const replacement = await instance.create({ ...news, __generation: 2 });
    const live = liveVolumes();
    expect(live).toEqual([expect.objectContaining({ id: vol.outs.volumeId, instances: [expect.objectContaining({ id: Number(replacement.id) })] })]);
    expect(h.sim.state().instances.map((i) => i.id)).toEqual([Number(replacement.id)]);
  });

  it("refuses a local volume on an offer of another machine, naming the machine", async () => {
    const vol = await created({ offerId: LOCAL_OFFER });
    const e = await rejection(createChecked({ ...linked(vol.id, GPU_OFFER_OTHER_MACHINE), maxCreateAttempts: 1 }));
    expect(e.message).toMatch(/local volume on machine 30001; rent an offer on that machine/);
  });

  it("deleting a volume an instance still uses fails clearly, and succeeds once the instance is gone", async () => {
    const vol = await created({ offerId: LOCAL_OFFER, name: "data" });
    const inst = await createChecked(linked(vol.id));
    const e = await rejection(volume.delete(vol.id, vol.outs));
    expect(e.message).toContain(`Volume "data" (id ${vol.id}): deleting the volume failed: volume ${vol.id} is in use by instance(s) ${inst.id}`);
    expect(e.message).toBe(
      `Volume "data" (id ${vol.id}): deleting the volume failed: volume ${vol.id} is in use by instance(s) ${inst.id}: the service deletes a volume only when no instance uses it ` +
        `(it answered: Volume ${vol.id} is in use by instance(s) ${inst.id}; destroy them before deleting the volume.); destroy those instances, or link them to another volume, first`,
    );
    expect((e as Error & { cause?: unknown }).cause).toBeInstanceOf(VolumeInUseError);
    expect(liveVolumes()).toHaveLength(1);
    await instance.delete(inst.id, inst.outs);
    await volume.delete(vol.id, vol.outs);
    expect(liveVolumes()).toEqual([]);
  });
});

describe("NetworkVolume", () => {
  it("rents a network volume from filters, lists it as one, and deletes it", async () => {
    const { id, outs } = await created({ offer: { clusterId: 42 }, sizeGb: 100, name: "shared" }, "networkVolume");
    expect(outs).toMatchObject({ rentedOfferId: 950002, clusterId: 42, machineId: null, sizeGb: 100 });
    const put = (await h.requests()).find((r) => r.method === "PUT");
    expect(put).toMatchObject({ path: "/api/v0/network_volumes/", body: { id: 950002, size: 100, name: `shared [${outs.nameMarker as string}]` } });
    expect(liveVolumes()).toEqual([expect.objectContaining({ id: Number(id), type: "network_volume", cluster_id: 42 })]);
    expect((await networkVolume.read(id, outs)).inputs).toEqual({ offer: { clusterId: 42 }, sizeGb: 100, name: "shared" });
    await networkVolume.delete(id, outs);
    expect(liveVolumes()).toEqual([]);
  });

  it("refuses a machineId filter (network volumes are per cluster) and names the property", async () => {
    const { failures } = await networkVolume.check({}, { offer: { machineId: 30001 } });
    expect(failures).toEqual([expect.objectContaining({ property: "offer.machineId" })]);
    expect(failures?.[0].reason).toMatch(/machineId is not a property of offer; it takes .*clusterId/);
  });
});
