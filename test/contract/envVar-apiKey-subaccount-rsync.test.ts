/**
 * The four account resources through Pulumi's own dynamic-provider plugin, with the package
 * installed from its packed tarball as a user's program has it: check, create, read, diff,
 * update and delete as the engine calls them, against the simulator.
 */
import { SEED } from "pulumi-vastai/simulator";
import { AuthenticationError, createClient, type VastClient } from "../../provider/client";
import { UNKNOWN_VALUE } from "pulumi-vastai/testing";
import { useAccountContract } from "./account-support";

jest.setTimeout(120_000);

const t = useAccountContract("envVar", { simulator: { bootMs: 0 } });
const { fx, urn, withProvider, up } = t;
let client: VastClient;
beforeAll(() => {
  client = t.client;
});

test("EnvVar: upper-cased name, value changed in place, presence read back, deleted", async () => {
  const u = urn("EnvVar", "token");
  const made = await up("envVar", "EnvVar", "token", { key: "hf_token", value: "first-value-123" });
  expect(made.id).toBe("HF_TOKEN");
  expect(made.properties).toMatchObject({ key: "HF_TOKEN", value: "first-value-123" });
  expect(await client.secrets.list()).toEqual({ HF_TOKEN: expect.stringMatching(/^\*+$/) });

  const preview = await fx.plugin.check(u, made.properties, withProvider("envVar", { key: UNKNOWN_VALUE, value: "x" }));
  expect(preview.failures).toEqual([]);
  const bad = await fx.plugin.check(u, made.properties, withProvider("envVar", { key: "9lives", value: "x" }));
  expect(bad.failures.map((f) => f.property)).toEqual(["key"]);

  const news = { ...made.inputs, value: "second-value-456" };
  expect(await fx.plugin.diff(u, made.id, made.properties, news)).toEqual({ changes: "some", replaces: [], deleteBeforeReplace: false });
  const updated = await fx.plugin.update(u, made.id, made.properties, news);
  expect(updated.properties).toMatchObject({ key: "HF_TOKEN", value: "second-value-456" });
  expect((await fx.plugin.read(u, made.id, updated.properties)).properties).toMatchObject({ value: "second-value-456" });

  await fx.plugin.delete(u, made.id, updated.properties);
  expect(await client.secrets.list()).toEqual({});
  expect((await fx.plugin.read(u, made.id, updated.properties)).id).toBe("");
});

test("ApiKey: the value is captured once, a new rotateOn replaces it, a deleted key gets 401", async () => {
  const u = urn("ApiKey", "ci");
  const made = await up("apiKey", "ApiKey", "ci", { name: "ci", permissions: { instances: "write" }, rotateOn: 1 });
  const key = made.properties.key as string;
  expect(key).toMatch(/^[0-9a-f]{64}$/);
  expect(made.properties.keyId).toBe(Number(made.id));
  const holder = createClient({ apiKey: key, apiUrl: fx.sim.url, pacing: false });
  await expect(holder.secrets.list()).resolves.toEqual({});

  expect((await fx.plugin.read(u, made.id, made.properties)).properties).toMatchObject({ key, name: "ci" });
  expect(await fx.plugin.diff(u, made.id, made.properties, { ...made.inputs, rotateOn: 2 })).toMatchObject({
    changes: "some",
    replaces: ["rotateOn"],
  });

  await fx.plugin.delete(u, made.id, made.properties);
  await expect(holder.secrets.list()).rejects.toBeInstanceOf(AuthenticationError);
  expect((await fx.plugin.read(u, made.id, made.properties)).id).toBe("");
});

test("SubaccountKeyRotation: one target only, new keys as outputs, the service's refusal quoted, delete a no-op", async () => {
  const u = urn("SubaccountKeyRotation", "bot");
  const both = await fx.plugin.check(u, {}, withProvider("subaccountKeyRotation", { subaccountUserId: 10002, all: true }));
  expect(both.failures).toEqual([
    { property: "subaccountUserId", reason: "subaccountUserId, all: give exactly one of subaccountUserId or all: true (both were given)" },
  ]);

  const [bot] = SEED.subaccounts;
  const made = await up("subaccountKeyRotation", "SubaccountKeyRotation", "bot", { subaccountUserId: bot.userId, triggers: "v1" });
  const keys = made.properties.regeneratedKeys as Array<{ userId: number; email: string; derivedKey: string }>;
  expect(keys.map((k) => [k.userId, k.email])).toEqual([[bot.userId, bot.email]]);
  await expect(createClient({ apiKey: bot.apiKey, apiUrl: fx.sim.url, pacing: false }).secrets.list()).rejects.toBeInstanceOf(AuthenticationError);
  expect(await fx.plugin.diff(u, made.id, made.properties, { ...made.inputs, triggers: "v2" })).toMatchObject({ replaces: ["triggers"] });

  await fx.plugin.delete(u, made.id, made.properties);
  await expect(createClient({ apiKey: keys[0].derivedKey, apiUrl: fx.sim.url, pacing: false }).secrets.list()).resolves.toEqual({});

  const inputs = (await fx.plugin.check(u, {}, withProvider("subaccountKeyRotation", { subaccountUserId: 99999 }))).inputs;
  await expect(fx.plugin.create(u, inputs)).rejects.toThrow(
    "SubaccountKeyRotation: regenerating the key of subaccount 99999 failed: PUT /api/v0/subaccounts/regenerate_keys/ failed: HTTP 404 not_found: Subaccount not found.",
  );
});

test("RsyncCopy: copy_direct between instances, connection fields for a local side, a refused path named, delete a no-op", async () => {
  const u = urn("RsyncCopy", "weights");
  const [src, dst] = [
    (await client.instances.create(SEED.offerIds[0], { image: "ubuntu:22.04" })).id,
    (await client.instances.create(SEED.offerIds[1], { image: "ubuntu:22.04" })).id,
  ];
  const made = await up("rsyncCopy", "RsyncCopy", "weights", { srcId: src, dstId: dst, srcPath: "/out/", dstPath: "/models/" });
  expect(made.properties).toMatchObject({ srcAddr: null, srcPort: null, dstAddr: null, dstPort: null });
  const local = await up("rsyncCopy", "RsyncCopy", "upload", { dstId: dst, srcPath: "./data/", dstPath: "/data/" });
  expect(local.properties).toMatchObject({ srcAddr: null, srcPort: null, dstAddr: expect.any(String), dstPort: expect.any(Number) });
  expect(await fx.plugin.diff(u, made.id, made.properties, { ...made.inputs, triggers: "again" })).toMatchObject({ replaces: ["triggers"] });
  expect((await fx.plugin.read(u, made.id, made.properties)).id).toBe(made.id);
  await fx.plugin.delete(u, made.id, made.properties);

  const inputs = (await fx.plugin.check(u, {}, withProvider("rsyncCopy", { srcId: src, dstId: dst, srcPath: "/out/", dstPath: "/m/`id`" }))).inputs;
  await expect(fx.plugin.create(u, inputs)).rejects.toThrow('RsyncCopy: dstPath "/m/`id`" was refused by the service: Invalid dst_path.');
});
