/**
 * SSH keys of an instance over real HTTP against the simulator: attach on create and on
 * change (the key's public text, as the vendor's client sends it), detach removed keys
 * (`DELETE /api/v0/instances/{id}/ssh/{ssh_key_id}/`), the endpoint's scope and 404.
 */
import { NotFoundError } from "../../provider/client";
import { ED25519_KEY, RSA_KEY } from "./simulator-support";
import { checked, createChecked, instance, rejection } from "./instance-support";
import { FAST_INSTANCE_SETTINGS, useSimulator } from "../support/simulator";

const h = useSimulator({ providers: true, settings: FAST_INSTANCE_SETTINGS });
const args = { offerId: 700001, image: "pytorch/pytorch" };
const keysOf = (id: string | number) => h.sim.state().instances.find((i) => i.id === Number(id))!.ssh_key_ids as number[];
const sshWrites = async () => (await h.requests()).filter((r) => r.method !== "GET" && /\/ssh\//.test(r.path)).map((r) => [r.method, r.path, r.body]);

describe("detach endpoint (client and simulator)", () => {
  it("detaches an attached key; a key not attached is the service's 404; instance_write needed", async () => {
    const key = await h.client.sshKeys.create(ED25519_KEY);
    const { id } = await h.client.instances.create(700001, { image: "ubuntu" });
    await h.client.instances.attachSshKey(id, ED25519_KEY);
    expect(keysOf(id)).toContain(key.id);
    await h.client.instances.detachSshKey(id, key.id);
    expect(keysOf(id)).not.toContain(key.id);
    const again = await h.client.instances.detachSshKey(id, key.id).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(NotFoundError);
    expect((again as NotFoundError).fromService).toBe(true);
    const reader = await h.client.apiKeys.create({ name: "reader", scopes: ["instance_read"] });
    const res = await fetch(`${h.sim.url}/api/v0/instances/${id}/ssh/${key.id}/`, { method: "DELETE", headers: { authorization: `Bearer ${reader.key}` } });
    expect(res.status).toBe(403);
  });
});

describe("the Instance provider attaches and detaches sshKeyIds", () => {
  it("attaches declared keys on create, attaches added and detaches removed keys in place", async () => {
    const a = await h.client.sshKeys.create(ED25519_KEY);
    const b = await h.client.sshKeys.create(RSA_KEY);
    await h.clearRequests();
    const { id, outs } = await createChecked({ ...args, sshKeyIds: [a.id] });
    expect(await sshWrites()).toEqual([["POST", `/api/v0/instances/${id}/ssh/`, { ssh_key: ED25519_KEY }]]);
    expect(keysOf(id)).toContain(a.id);
    const news = await checked({ ...args, sshKeyIds: [String(b.id)] });
    expect(await instance.diff(id, outs, news)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    await h.clearRequests();
    await instance.update(id, outs, news);
    expect(await sshWrites()).toEqual([
      ["POST", `/api/v0/instances/${id}/ssh/`, { ssh_key: RSA_KEY }],
      ["DELETE", `/api/v0/instances/${id}/ssh/${a.id}/`, null],
    ]);
    expect(keysOf(id)).toContain(b.id);
    expect(keysOf(id)).not.toContain(a.id);
  });

  it("a key already detached outside the program is fine; an id the account does not have fails clearly", async () => {
    const a = await h.client.sshKeys.create(ED25519_KEY);
    const { id, outs } = await createChecked({ ...args, sshKeyIds: [a.id] });
    await h.client.instances.detachSshKey(Number(id), a.id);
    await instance.update(id, outs, await checked({ ...args, sshKeyIds: [] }));
    const error = await rejection(instance.update(id, outs, await checked({ ...args, sshKeyIds: [a.id, 987654] })));
    expect(error.message).toMatch(new RegExp(`Instance ${id}: sshKeyIds: key 987654 is not an SSH key of the account \\(its keys: ${a.id}\\)`));
  });
});
