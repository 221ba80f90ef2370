/**
 * Issue 33 item 5: an Instance with `volume: { createNew: true }`, through Pulumi's own
 * dynamic-provider plugin against the simulator. The volume the instance created goes with it
 * on delete, unless `keepOnDestroy`; a volume delete that fails leaves the state entry (with the
 * volume's id) and an error naming the volume, and the next destroy finishes the job.
 */
import { dynamicUrn } from "pulumi-vastai/testing";
import { useContract } from "./harness";

type Props = Record<string, unknown>;

const fx = useContract("instance-volume-destroy", { simulator: { bootMs: 0 }, config: { "vastai:pollIntervalMs": "5", "vastai:lostResponseLookups": "2" } });

const urn = (name: string) => dynamicUrn("dev", "proj", "Instance", name);
const liveVolumes = () => fx.sim.state().volumes as Props[];

async function created(name: string, volume: Props) {
  const news: Props = { __provider: fx.serialized.instance, __identity: `proj/dev/Instance/${name}`, offerId: 700001, image: "ubuntu:22.04", volume };
  const checked = await fx.plugin.check(urn(name), {}, news);
  expect(checked.failures).toEqual([]);
  return fx.plugin.create(urn(name), checked.inputs);
}

test("33.5 destroying an Instance deletes the volume it created (its id an output)", async () => {
  const made = await created("gpu", { createNew: true, volumeId: 900001, size: 20, mountPath: "/data" });
  expect(liveVolumes()).toHaveLength(1);
  expect(made.properties.createdVolumeId).toBe(liveVolumes()[0].id);
  await fx.plugin.delete(urn("gpu"), made.id, made.properties);
  expect(liveVolumes()).toEqual([]);
});

test("33.5 with keepOnDestroy the volume stays after the instance's destroy; keepOnDestroy on a linked volume fails check", async () => {
  const made = await created("kept", { createNew: true, volumeId: 900001, size: 20, mountPath: "/data", keepOnDestroy: true });
  await fx.plugin.delete(urn("kept"), made.id, made.properties);
  expect(liveVolumes().map((v) => v.id)).toEqual([made.properties.createdVolumeId]);
  expect(fx.sim.state().instances).toEqual([]);

  const linked = await fx.plugin.check(urn("linked"), {}, { __provider: fx.serialized.instance, offerId: 700001, image: "ubuntu:22.04", volume: { createNew: false, volumeId: 1, mountPath: "/data", keepOnDestroy: true } });
  expect(linked.failures.map((f) => f.reason).join("\n")).toMatch(/keepOnDestroy: is only used when createNew is true/);
});

test("33.5 a volume delete that fails names the volume and keeps the entry; the next destroy deletes it", async () => {
  const made = await created("retry", { createNew: true, volumeId: 900001, size: 20, mountPath: "/data" });
  const volumeId = made.properties.createdVolumeId as number;
  await fx.control("POST", "/faults", { method: "DELETE", path: "/api/v0/volumes/", status: 500, times: 100 });
  const failure = await fx.plugin.delete(urn("retry"), made.id, made.properties).then(
    () => "no failure",
    (e: Error) => e.message,
  );
  expect(failure).toContain(`Instance ${made.id} is destroyed, but deleting volume ${volumeId} of instance ${made.id} failed`);
  expect(failure).toContain(`vastai delete volume ${volumeId}`);
  // One sentence ends where the next begins: the service's message keeps no period of its own before ours.
  expect(failure).not.toMatch(/\.\./);
  expect(fx.sim.state().instances).toEqual([]);
  expect(liveVolumes().map((v) => v.id)).toContain(volumeId);

  await fx.control("DELETE", "/faults");
  await fx.plugin.delete(urn("retry"), made.id, made.properties);
  expect(liveVolumes().map((v) => v.id)).not.toContain(volumeId);
});

test("33.5 setting keepOnDestroy later is an in-place update (no replacement), and the delete then keeps the volume", async () => {
  const made = await created("later", { createNew: true, volumeId: 900001, size: 20, mountPath: "/data" });
  const volume = { createNew: true, volumeId: 900001, size: 20, mountPath: "/data", keepOnDestroy: true };
  const checked = await fx.plugin.check(urn("later"), made.properties, { __provider: fx.serialized.instance, __identity: "proj/dev/Instance/later", offerId: 700001, image: "ubuntu:22.04", volume });
  expect(checked.failures).toEqual([]);
  expect(await fx.plugin.diff(urn("later"), made.id, made.properties, checked.inputs)).toMatchObject({ changes: "some", replaces: [] });
  const updated = await fx.plugin.update(urn("later"), made.id, made.properties, checked.inputs);
  expect(updated.properties.createdVolumeId).toBe(made.properties.createdVolumeId);
  await fx.plugin.delete(urn("later"), made.id, updated.properties);
  expect(liveVolumes().map((v) => v.id)).toContain(made.properties.createdVolumeId);
});

test("33.5 an entry of an earlier version (no createdVolumeId): the delete finds the volume by its instance; a failing listing fails the delete before anything is destroyed", async () => {
  const made = await created("legacy", { createNew: true, volumeId: 900001, size: 20, mountPath: "/data" });
  const volumeId = made.properties.createdVolumeId as number;
  const { createdVolumeId: _recorded, ...legacy } = made.properties;

  await fx.control("POST", "/faults", { method: "GET", path: "/api/v0/volumes/", status: 500, times: 100 });
  await expect(fx.plugin.delete(urn("legacy"), made.id, legacy)).rejects.toThrow(/500/);
  expect(fx.sim.state().instances.map((i) => String(i.id))).toContain(made.id);
  expect(liveVolumes().map((v) => v.id)).toContain(volumeId);
  await fx.control("DELETE", "/faults");

  // Found by the instance using it, but its delete fails: the command is named, not a rerun (nothing ties it to the entry once the instance is gone).
  await fx.control("POST", "/faults", { method: "DELETE", path: "/api/v0/volumes/", status: 500, times: 100 });
  const failure = await fx.plugin.delete(urn("legacy"), made.id, legacy).then(
    () => "no failure",
    (e: Error) => e.message,
  );
  await fx.control("DELETE", "/faults");
  expect(failure).toContain(`delete it with \`vastai delete volume ${volumeId}\``);
  expect(failure).not.toContain("run the destroy again");
});
