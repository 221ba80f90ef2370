/**
 * In-place updates that keep the machine, through Pulumi's own dynamic-provider plugin, from the
 * package as a user installs it, against the simulator: create, change image/env/onstart in
 * place (same instance, same machine), a refusal by the service (control API) fails clearly and
 * changes nothing, `updatePolicy: "replace"` replaces, delete; SSH keys attached and detached in
 * place; a private-registry login sent on create and replacing on change.
 */
import { PluginCallError } from "pulumi-vastai/testing";
import { createClient } from "../../provider/client";
import { useInstanceContract } from "./harness";

type Props = Record<string, unknown>;

const { fx, urn, liveIds, writesSinceLast } = useInstanceContract();

test("image, env and onstart change in place on the same machine; a refusal fails clearly; updatePolicy replace replaces; delete", async () => {
  const news: Props = { __provider: fx.provider, offerId: 700001, image: "pytorch/pytorch", env: { A: "1" }, onstart: "echo one" };
  const checked = await fx.plugin.check(urn("box"), {}, news);
  expect(checked.failures).toEqual([]);
  const created = await fx.plugin.create(urn("box"), checked.inputs);
  expect(created.properties).toMatchObject({ actualStatus: "running", imageInUse: "pytorch/pytorch:latest" });
  await writesSinceLast();

  // in place: one update_template call, same id and machine
  const changed = await fx.plugin.check(urn("box"), checked.inputs, { ...news, image: "nginx", env: { A: "2" }, onstart: "echo two" });
  expect(await fx.plugin.diff(urn("box"), created.id, created.properties, changed.inputs)).toEqual({ changes: "some", replaces: [], deleteBeforeReplace: false });
  const updated = await fx.plugin.update(urn("box"), created.id, created.properties, changed.inputs);
  expect(updated.properties).toMatchObject({
    instanceId: Number(created.id), machineId: created.properties.machineId, imageInUse: "nginx:latest", lastUpdate: "in-place", actualStatus: "running",
  });
  expect(await writesSinceLast()).toEqual([`PUT /api/v0/instances/update_template/${created.id}/`]);
  expect(fx.sim.state().instances[0]).toMatchObject({ template_updates: 1, onstart: "echo two" });
  // a refresh shows no drift: the next diff is empty
  const read = await fx.plugin.read(urn("box"), created.id, updated.properties, changed.inputs);
  expect(await fx.plugin.diff(urn("box"), created.id, read.properties, changed.inputs)).toMatchObject({ changes: "none" });

  // the machine refuses: the update fails saying so, nothing changes, and the state the engine
  // keeps makes the next diff fall back to a replacement
  await fx.control("POST", "/machines/30001/refuse-updates", { reason: "the host is draining" });
  const refusedNews = await fx.plugin.check(urn("box"), changed.inputs, { ...news, image: "redis" });
  const error = await fx.plugin.update(urn("box"), created.id, updated.properties, refusedNews.inputs).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(PluginCallError);
  expect((error as Error).message).toMatch(/the service refused the in-place update of image, env, onstart: the host is draining\. Nothing was changed\. The next pulumi up replaces the instance/);
  expect(fx.sim.state().instances[0]).toMatchObject({ template_updates: 1, image_uuid: "nginx:latest" });
  const kept = (error as PluginCallError).initFailure?.properties ?? {};
  expect(kept).toMatchObject({ image: "nginx", lastUpdate: "refused in place (the host is draining): the next up replaces" });
  // The replacement rents the same given offer, which the old instance holds: it goes first.
  expect(await fx.plugin.diff(urn("box"), created.id, kept, refusedNews.inputs)).toEqual({
    changes: "some", replaces: ["env", "image", "onstart"], deleteBeforeReplace: true,
  });

  // updatePolicy replace: the diff replaces; the replacement is a new rental
  const replacing = await fx.plugin.check(urn("box"), changed.inputs, { ...news, image: "redis", updatePolicy: "replace" });
  expect(await fx.plugin.diff(urn("box"), created.id, updated.properties, replacing.inputs)).toEqual({
    changes: "some", replaces: ["env", "image", "onstart"], deleteBeforeReplace: true,
  });
  // offerId is given: the same offer is rented again once the old instance let it go.
  await writesSinceLast();
  await fx.plugin.delete(urn("box"), created.id, updated.properties);
  const replacement = await fx.plugin.create(urn("box"), replacing.inputs);
  expect(await writesSinceLast()).toEqual([`DELETE /api/v0/instances/${created.id}/`, "PUT /api/v0/asks/700001/"]);
  expect(liveIds()).toEqual([replacement.id]);
  await fx.plugin.delete(urn("box"), replacement.id, replacement.properties);
  expect(liveIds()).toEqual([]);
});

test("sshKeyIds through the plugin: attached on create, changed in place (attach and detach), delete", async () => {
  await fx.control("POST", "/reset");
  const client = createClient({ apiKey: fx.sim.apiKey, apiUrl: fx.sim.url, runUrl: fx.sim.runUrl, pacing: false });
  const a = await client.sshKeys.create("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEXAMPLEexampleEXAMPLEexampleEXAMPLEexample a@example");
  const b = await client.sshKeys.create("ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQCexampleKEYexampleKEYexampleKEY b@example");
  await writesSinceLast();
  const news: Props = { __provider: fx.provider, offerId: 700001, image: "pytorch/pytorch", sshKeyIds: [a.id] };
  const { inputs } = await fx.plugin.check(urn("keys"), {}, news);
  const created = await fx.plugin.create(urn("keys"), inputs);
  expect(await writesSinceLast()).toEqual(["PUT /api/v0/asks/700001/", `POST /api/v0/instances/${created.id}/ssh/`]);
  const changed = await fx.plugin.check(urn("keys"), inputs, { ...news, sshKeyIds: [b.id] });
  expect(await fx.plugin.diff(urn("keys"), created.id, created.properties, changed.inputs)).toEqual({ changes: "some", replaces: [], deleteBeforeReplace: false });
  const updated = await fx.plugin.update(urn("keys"), created.id, created.properties, changed.inputs);
  expect(await writesSinceLast()).toEqual([`POST /api/v0/instances/${created.id}/ssh/`, `DELETE /api/v0/instances/${created.id}/ssh/${a.id}/`]);
  const keys = fx.sim.state().instances[0].ssh_key_ids as number[];
  expect(keys).toContain(b.id);
  expect(keys).not.toContain(a.id);
  await fx.plugin.delete(urn("keys"), created.id, updated.properties);
  expect(liveIds()).toEqual([]);
});

test("imageLogin through the plugin: sent as image_login on create, a change replaces, delete", async () => {
  await fx.control("POST", "/reset");
  await fx.takeRequests();
  const login = "-u me -p contract-reg-pass-51c2 ghcr.io";
  const news: Props = { __provider: fx.provider, offerId: 700001, image: "ghcr.io/me/private:1", imageLogin: login };
  const { inputs } = await fx.plugin.check(urn("private"), {}, news);
  const created = await fx.plugin.create(urn("private"), inputs);
  const create = (await fx.takeRequests()).find((r) => r.method === "PUT" && r.path === "/api/v0/asks/700001/");
  // Sent; the simulator's request log redacts it (the integration test, with logSecrets, sees the value).
  expect((create?.body as Props).image_login).toBe("[redacted]");
  expect(JSON.stringify(created.properties)).toContain(login); // the input in state: the class marks imageLogin secret
  const changed = await fx.plugin.check(urn("private"), inputs, { ...news, imageLogin: "-u me -p rotated-pass ghcr.io" });
  expect(await fx.plugin.diff(urn("private"), created.id, created.properties, changed.inputs)).toEqual({ changes: "some", replaces: ["imageLogin"], deleteBeforeReplace: true });
  const bad = await fx.plugin.check(urn("private"), inputs, { ...news, imageLogin: "me:contract-reg-pass-51c2" });
  expect(JSON.stringify(bad.failures)).toMatch(/imageLogin: must be/);
  expect(JSON.stringify(bad.failures)).not.toContain("contract-reg-pass-51c2");
  await fx.plugin.delete(urn("private"), created.id, created.properties);
  expect(liveIds()).toEqual([]);
});
