/**
 * Template through Pulumi's own dynamic-provider plugin, from the package as a user installs
 * it, against the simulator: check -> create -> read -> update -> delete. The edit changes
 * `hashId` and keeps the id; the registry password stays out of errors and out of every
 * request except the body field it belongs to.
 */
import type { LoggedRequest } from "pulumi-vastai/simulator";
import { PluginCallError, dynamicUrn } from "pulumi-vastai/testing";
import { testSmallLoader, useContract } from "./harness";

type Props = Record<string, unknown>;
const PASSWORD = "contract-registry-token-51c2";

// The password must be seen where the client sent it: the simulator logs secrets here.
const fx = useContract("template", { simulator: { logSecrets: true } });

/** Template calls since the log was last cleared; clears it. */
async function templateCalls(): Promise<LoggedRequest[]> {
  const log = await fx.takeRequests();
  return log.filter((r) => r.path.startsWith("/api/v0/template"));
}

const urn = (name: string) => dynamicUrn("dev", "proj", "Template", name);
const args = (): Props => ({
  __provider: fx.provider,
  name: "contract-trainer",
  image: "pytorch/pytorch",
  env: { MODE: "train all" },
  ports: [8888, "22:22"],
  dockerLoginUser: "robot",
  dockerLoginPass: PASSWORD,
});

testSmallLoader("template", "Template");

test("check names the property, the rule and the value, but never the password", async () => {
  const res = await fx.plugin.check(urn("bad"), {}, { ...args(), runtype: "bash", dockerLoginPass: 987654321 });
  expect(res.failures).toEqual([
    { property: "runtype", reason: 'runtype: must be one of ssh, jupyter, args (got "bash")' },
    { property: "dockerLoginPass", reason: "dockerLoginPass: must be a string" },
  ]);
});

test("create -> read -> update -> delete: the edit changes hashId and keeps the id", async () => {
  const checked = await fx.plugin.check(urn("t"), {}, args());
  expect(checked.failures).toEqual([]);
  expect(checked.inputs).toMatchObject({ tag: "latest", runtype: "args", recommendedDiskSpaceGb: 8, ports: ["8888:8888", "22:22"] });

  await templateCalls();
  const created = await fx.plugin.create(urn("t"), checked.inputs);
  expect(created.id).toMatch(/^\d+$/);
  expect(created.properties).toMatchObject({ templateId: Number(created.id), hashId: expect.any(String), adopted: false, __provider: fx.provider });
  const [post] = await templateCalls();
  expect(post.body).toMatchObject({ env: "-e MODE='train all' -p 8888:8888 -p 22:22", docker_login_pass: PASSWORD });

  const read = await fx.plugin.read(urn("t"), created.id, created.properties, checked.inputs);
  expect(read.id).toBe(created.id);
  expect(read.properties).toEqual(created.properties);
  expect(await fx.plugin.diff(urn("t"), created.id, read.properties, checked.inputs)).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });

  const edited = await fx.plugin.check(urn("t"), checked.inputs, { ...checked.inputs, desc: "now with a description" });
  expect(await fx.plugin.diff(urn("t"), created.id, read.properties, edited.inputs)).toEqual({ changes: "some", replaces: [], deleteBeforeReplace: false });
  await templateCalls();
  const updated = await fx.plugin.update(urn("t"), created.id, read.properties, edited.inputs);
  const [put] = await templateCalls();
  // The whole template, as the vendor's client sends an edit (issue 26 item 5).
  expect(put.body).toMatchObject({ hash_id: created.properties.hashId, name: "contract-trainer", image: "pytorch/pytorch", desc: "now with a description" });
  expect(updated.properties.templateId).toBe(Number(created.id));
  expect(updated.properties.hashId).toEqual(expect.any(String));
  expect(updated.properties.hashId).not.toBe(created.properties.hashId);
  const live = fx.sim.state().templates.find((t) => t.id === Number(created.id));
  expect(live).toMatchObject({ hash_id: updated.properties.hashId, desc: "now with a description" });

  const reread = await fx.plugin.read(urn("t"), created.id, updated.properties, edited.inputs);
  expect(reread.properties.hashId).toBe(updated.properties.hashId);
  expect(await fx.plugin.diff(urn("t"), created.id, reread.properties, edited.inputs)).toMatchObject({ changes: "none" });

  await fx.plugin.delete(urn("t"), created.id, updated.properties);
  expect(fx.sim.state().templates.some((t) => t.id === Number(created.id))).toBe(false);
  expect((await fx.plugin.read(urn("t"), created.id, updated.properties)).id).toBe("");
  await fx.plugin.delete(urn("t"), created.id, updated.properties); // already gone: success

  const log = await templateCalls();
  // The read of the deleted template searches for it, then once for the public recommended
  // templates to confirm that the key can see templates at all.
  expect(log.map((r) => `${r.method} ${r.status}`)).toEqual(["GET 200", "DELETE 200", "GET 200", "GET 200", "DELETE 404"]);
});

test("the password appears in no error and in no request outside its body field", async () => {
  await fx.control("DELETE", "/requests");
  await fx.control("POST", "/faults", { method: "POST", path: "/api/v0/template", status: 400, body: { error: "invalid_args", msg: `refused ${PASSWORD}` } });
  const checked = await fx.plugin.check(urn("s"), {}, args());
  const failure = await fx.plugin.create(urn("s"), checked.inputs).then(
    () => undefined,
    (e: unknown) => e as PluginCallError,
  );
  expect(failure).toBeInstanceOf(PluginCallError);
  expect(failure?.message).toContain("HTTP 400 invalid_args: refused <redacted>");
  expect(failure?.message).not.toContain(PASSWORD);

  const created = await fx.plugin.create(urn("s"), checked.inputs);
  await fx.plugin.read(urn("s"), created.id, created.properties, checked.inputs);
  await fx.plugin.delete(urn("s"), created.id, created.properties);
  const log = await templateCalls();
  expect(log.map((r) => r.method)).toEqual(["POST", "POST", "GET", "DELETE"]);
  for (const r of log) {
    const { docker_login_pass: _pass, ...body } = (r.body ?? {}) as Props;
    expect(JSON.stringify({ ...r, body })).not.toContain(PASSWORD);
  }
});
