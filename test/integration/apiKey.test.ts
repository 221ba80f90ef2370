/** ApiKey through its provider against the simulator: the value shown once, scopes, deletion. */
import { AuthenticationError, PermissionDeniedError } from "../../provider/client";
import { providers } from "../../provider/providers";
import { drive } from "./account-resources-support";
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
  const { id, outs } = await created({ name: "ci", permissions: { instances: "write", user: "read" } });
  expect(outs).toEqual({
    name: "ci",
    permissions: { instances: "write", user: "read" },
    key: expect.stringMatching(/^[0-9a-f]{64}$/),
    keyId: Number(id),
  });
  await expect(h.clientWith({ apiKey: outs.key as string }).instances.list()).resolves.toEqual([]);
});

it("the key carries only the scopes it was given, and a refresh reads them back", async () => {
  const { id, outs } = await created({ name: "read-only", permissions: { instances: "read" } });
  const sent = (await h.requests()).find((r) => r.method === "POST" && r.path === "/api/v0/auth/apikeys/");
  expect((sent?.body as { permissions: unknown }).permissions).toEqual({ api: { instance_read: {} } });
  expect((await apiKey.read(id, outs)).inputs).toEqual({ name: "read-only", permissions: { instances: "read" } });
  const scoped = h.clientWith({ apiKey: outs.key as string });
  const e = await scoped.copy.rsync({ srcId: 1, dstId: 2, srcPath: "/a", dstPath: "/b" }).catch((x) => x);
  expect(e).toBeInstanceOf(PermissionDeniedError);
});

it("refuses at check a permission it does not know, rather than let the service judge it", async () => {
  const news = { name: "odd", permissions: { custom_flag: "yes" } };
  const { failures } = await apiKey.check({}, news);
  expect(failures?.map((f) => f.property)).toEqual(["permissions"]);
  expect(failures?.[0].reason).toMatch(/custom_flag/);
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

describe("keys nobody holds the value of", () => {
  const identity = { __identity: "proj/dev/ApiKey/ci" };
  const made = async () => (await h.client.apiKeys.list()).filter((k) => k.name?.startsWith("ci"));

  it("(4) a key a killed run made is deleted before the next run creates the one it keeps", async () => {
    const { inputs } = await apiKey.check({}, { name: "ci", ...identity });
    const first = await apiKey.create(inputs as Record<string, unknown>);
    // The killed run: the key exists, its value and id never reached state.
    const again = await apiKey.create(inputs as Record<string, unknown>);
    const live = await made();
    expect(live.map((k) => String(k.id))).toEqual([again.id]);
    expect(again.id).not.toBe(first.id);
    expect(live[0].name).toBe(`ci [${String((again.outs as Record<string, unknown>).nameMarker)}]`);
  });

  it("(5) a key whose lost create landed after the look-up window is deleted by the next read", async () => {
    const { id, outs } = await created({ name: "ci", ...identity });
    const marker = String(outs.nameMarker);
    // The late landing of a lost create of this resource.
    await h.client.apiKeys.create({ name: `ci [${marker}]` });
    expect(await made()).toHaveLength(2);
    const read = await apiKey.read(id, outs);
    expect(read.id).toBe(id);
    expect((read.props as Record<string, unknown>).name).toBe("ci");
    expect((await made()).map((k) => String(k.id))).toEqual([id]);
  });

  it("(4) another resource's keys are left alone", async () => {
    const other = await created({ name: "ci", __identity: "proj/prod/ApiKey/ci" });
    await created({ name: "ci", ...identity });
    expect((await h.client.apiKeys.list()).map((k) => String(k.id))).toContain(other.id);
  });
});
