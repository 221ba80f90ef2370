/**
 * Taking over an instance rented outside the program (`importId`), through the Instance
 * provider against the simulator over real HTTP: no rental, declared in-place inputs applied,
 * replace-only mismatches refused with nothing changed, read rebuilding inputs, delete.
 */
import { CREATE_PATH, checked, count, instance, liveInstancesOf, rejection } from "./instance-support";
import { useKey } from "./account-resources-support";
import { FAST_INSTANCE_SETTINGS, useSimulator } from "../support/simulator";

const h = useSimulator({ providers: true, settings: FAST_INSTANCE_SETTINGS });

async function rentedOutside(extra: Record<string, unknown> = {}): Promise<number> {
  const { id } = await h.client.instances.create(700001, { image: "pytorch/pytorch", env: { A: "1" }, onstart: "echo hi", label: "outside", disk: 20, ...extra });
  await h.clearRequests();
  useKey(h, h.sim.apiKey); // a new plugin process: nothing cached
  return id;
}

describe("importId", () => {
  it("check: digits only, naming field, rule and value; offer and image not required with it", async () => {
    const r = await instance.check({}, { importId: "12a" });
    expect(r.failures).toEqual([{ property: "importId", reason: expect.stringMatching(/^importId: must be digits only .*"12a"/) }]);
    expect((await instance.check({}, { importId: "12" })).failures).toEqual([]);
  });

  it("takes over a matching instance: no rental, id = importId, imported, next diff empty", async () => {
    const id = await rentedOutside();
    const news = await checked({ importId: String(id), image: "pytorch/pytorch", env: { A: "1" }, onstart: "echo hi", label: "outside", diskGb: 20 });
    const created = await instance.create(news);
    expect(created.id).toBe(String(id));
    expect(created.outs).toMatchObject({ imported: true, instanceId: id, actualStatus: "running" });
    const log = await h.requests();
    expect(count(log, "PUT", CREATE_PATH)).toBe(0);
    expect(log.filter((r) => r.method !== "GET")).toEqual([]);
    expect(await instance.diff(created.id, created.outs, news)).toMatchObject({ changes: false });
    // a later change of importId or of offer inputs is recorded only
    const recorded = await checked({ ...news, importId: "999", offerId: 700002 });
    expect((await instance.diff(created.id, created.outs, recorded)).replaces).toEqual([]);
  });

  it("applies declared in-place inputs through the update path (label, image)", async () => {
    const id = await rentedOutside();
    const news = await checked({ importId: String(id), image: "nginx", env: { A: "1" }, label: "mine" });
    const created = await instance.create(news);
    const writes = (await h.requests()).filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);
    expect(writes).toEqual([`PUT /api/v0/instances/update_template/${id}/`, `PUT /api/v0/instances/${id}/`]);
    expect(created.outs).toMatchObject({ imported: true, lastUpdate: "in-place", imageInUse: "nginx:latest", label: "mine" });
    expect(liveInstancesOf(h)).toHaveLength(1);
  });

  it("attaches declared sshKeyIds at import (the service does not show them)", async () => {
    const key = await h.client.sshKeys.create("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIImportKey i@test");
    const id = await rentedOutside();
    await instance.create(await checked({ importId: String(id), sshKeyIds: [key.id] }));
    const writes = (await h.requests()).filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);
    expect(writes).toEqual([`POST /api/v0/instances/${id}/ssh/`]);
    expect(h.sim.state().instances[0].ssh_key_ids).toContain(key.id);
  });

  it("a replace-only mismatch fails clearly, naming each field and both values, and changes nothing", async () => {
    const id = await rentedOutside();
    const news = await checked({ importId: String(id), image: "nginx", diskGb: 50, bidPricePerHour: 0.3, label: "mine" });
    const error = await rejection(instance.create(news));
    expect(error.message).toMatch(new RegExp(`cannot import instance ${id}: .*diskGb: declared 50, the service shows 20; bidPricePerHour: declared 0.3, the service shows an on-demand rental\\. Nothing on the service was changed`));
    expect((await h.requests()).filter((r) => r.method !== "GET")).toEqual([]);
    expect(h.sim.state().instances[0]).toMatchObject({ label: "outside", image_uuid: "pytorch/pytorch:latest" });
  });

  it("an unknown id fails naming importId and the account; nothing is rented", async () => {
    await rentedOutside();
    const error = await rejection(instance.create(await checked({ importId: "424242", image: "x" })));
    expect(error.message).toMatch(/importId "424242" names no instance of the account user \d+/);
    expect(count(await h.requests(), "PUT", CREATE_PATH)).toBe(0);
  });

  it("read rebuilds the inputs the service shows when state has none; delete destroys it", async () => {
    const id = await rentedOutside({ price: 0.25 });
    const read = await instance.read(String(id), {});
    expect(read.inputs).toMatchObject({ image: "pytorch/pytorch:latest", env: { A: "1" }, onstart: "echo hi", label: "outside", diskGb: 20, targetState: "running", bidPricePerHour: 0.25 });
    await instance.delete(String(id), read.props!);
    expect(liveInstancesOf(h)).toHaveLength(0);
  });
});
