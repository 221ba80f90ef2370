/** ApiKey through its provider against the simulator: the value shown once, scopes, deletion. */
import { AuthenticationError, PermissionDeniedError } from "../../provider/client";
import { providers } from "../../provider/providers";
import { drive, failureOf } from "./account-resources-support";
import { useSimulator } from "../support/simulator";

const apiKey = drive(providers.apiKey);

const h = useSimulator({ providers: true });

async function created(news: Record<string, unknown>) {
  const { inputs, failures } = await apiKey.check({}, news);
  expect(failures).toEqual([]);
  const result = await apiKey.create(inputs as Record<string, unknown>);
  return { id: result.id, outs: result.outs as Record<string, unknown> };
}

it("captures the key value shown once, and the key works", async () => {
  const { id, outs } = await created({ name: "ci", permissions: { manage_instances: true, manage_billing: false } });
  expect(outs).toEqual({
    name: "ci",
    permissions: { manage_instances: true, manage_billing: false },
    key: expect.stringMatching(/^[0-9a-f]{64}$/),
    keyId: Number(id),
  });
  await expect(h.clientWith({ apiKey: outs.key as string }).instances.list()).resolves.toEqual([]);
});

it("the key carries only the permissions it was given", async () => {
  const { outs } = await created({ name: "read-only", permissions: { manage_instances: false } });
  const scoped = h.clientWith({ apiKey: outs.key as string });
  const e = await scoped.copy.rsync({ srcId: 1, dstId: 2, srcPath: "/a", dstPath: "/b" }).catch((x) => x);
  expect(e).toBeInstanceOf(PermissionDeniedError);
});

it("passes flags it does not know to the service, which judges them", async () => {
  const news = { name: "odd", permissions: { custom_flag: "yes" } };
  expect((await apiKey.check({}, news)).failures).toEqual([]);
  const message = await failureOf(apiKey.create(news));
  expect(message).toMatch(/^ApiKey "odd": creating the key failed: POST \/api\/v0\/auth\/apikeys\/ failed: HTTP 400 invalid_permissions: permissions.custom_flag is not known/);
});

it("read keeps the value from state and sees the key's name and permissions", async () => {
  const { id, outs } = await created({ name: "ci", rotateOn: "2025-06" });
  const read = await apiKey.read(id, outs);
  expect(read).toEqual({ id, props: outs, inputs: { name: "ci", rotateOn: "2025-06" } });
});

it("reports a key deleted outside Pulumi as gone (empty id)", async () => {
  const { id, outs } = await created({ name: "ci" });
  await h.client.apiKeys.delete(Number(id));
  expect(await apiKey.read(id, outs)).toEqual({ id: "" });
});

it("a deleted key stops working at once (401)", async () => {
  const { id, outs } = await created({ name: "short-lived" });
  const holder = h.clientWith({ apiKey: outs.key as string });
  await expect(holder.secrets.list()).resolves.toEqual({});
  await apiKey.delete(id, outs);
  const e = await holder.secrets.list().catch((x) => x);
  expect(e).toBeInstanceOf(AuthenticationError);
  expect(e.message).toMatch(/^GET \/api\/v0\/secrets\/ failed: HTTP 401 unauthorized: Invalid API key: it is unknown, was deleted or was reset\./);
  expect(e.message).not.toContain(outs.key);
  expect((await h.client.apiKeys.list()).map((k) => k.id)).not.toContain(Number(id));
});

it("deleting a key that is already gone succeeds", async () => {
  const { id, outs } = await created({ name: "ci" });
  await apiKey.delete(id, outs);
  await expect(apiKey.delete(id, outs)).resolves.toBeUndefined();
});

it("a new rotateOn replaces the key: the new value works and the old one is refused", async () => {
  const old = await created({ name: "ci", rotateOn: 1 });
  const news = (await apiKey.check(old.outs, { name: "ci", rotateOn: 2 })).inputs as Record<string, unknown>;
  expect(await apiKey.diff(old.id, old.outs, news)).toMatchObject({ changes: true, replaces: ["rotateOn"] });
  // What the engine does for a replacement: create the new key, then delete the old one.
  const next = await apiKey.create(news);
  await apiKey.delete(old.id, old.outs);
  expect(next.outs.key).not.toBe(old.outs.key);
  await expect(h.clientWith({ apiKey: next.outs.key }).secrets.list()).resolves.toEqual({});
  await expect(h.clientWith({ apiKey: old.outs.key as string }).secrets.list()).rejects.toBeInstanceOf(AuthenticationError);
});
