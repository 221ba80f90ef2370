/**
 * The Template provider object (as `providers.template`) against the simulator over HTTP:
 * the full lifecycle, what each call sends (from the simulator's request log), drift on read,
 * adoption on create, and deletes of templates that are already gone.
 */
import { providers } from "pulumi-vastai";
import type { LoggedRequest } from "./client-support";
import { useSimulator } from "../support/simulator";

type Props = Record<string, unknown>;
const provider = providers.template as Required<typeof providers.template>;
const PASSWORD = "registry-token-7f3a9c";
const PROVIDER = "serialized-provider-text";

const h = useSimulator({ providers: true });

const args = {
  __provider: PROVIDER,
  name: "trainer",
  image: "pytorch/pytorch",
  tag: "2.4.0",
  env: { MODE: "train all", TOKEN_FILE: "/run/it's" },
  ports: [8888, "22:22"],
  runtype: "ssh",
  sshDirect: true,
  dockerLoginRepo: "registry.example.com",
  dockerLoginUser: "robot",
  dockerLoginPass: PASSWORD,
  extraFilters: { gpu_ram: { gte: 24000 } },
};

async function checked(news: Props): Promise<Props> {
  const res = await provider.check({}, news);
  expect(res.failures).toEqual([]);
  return res.inputs;
}

async function created(news: Props = args) {
  const inputs = await checked(news);
  const res = await provider.create(inputs);
  return { inputs, id: res.id, outs: res.outs as Props };
}

const templateCalls = async (method: string): Promise<LoggedRequest[]> =>
  (await h.requests()).filter((r) => r.method === method && r.path.startsWith("/api/v0/template"));

/** Edit a template behind the provider's back, as another tool would. */
async function editOutOfBand(hashId: string, body: Props): Promise<void> {
  const res = await fetch(`${h.sim.url}/api/v0/template/`, {
    method: "PUT",
    headers: { authorization: `Bearer ${h.sim.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ hash_id: hashId, ...body }),
  });
  expect(res.status).toBe(200);
}

describe("Template lifecycle over HTTP", () => {
  it("creates a template with every input converted, and returns its numeric id and hash", async () => {
    const { id, outs } = await created();
    expect(id).toMatch(/^\d+$/);
    expect(outs).toMatchObject({ templateId: Number(id), hashId: expect.any(String), adopted: false, creatorId: h.sim.userId });
    expect(outs.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    const [post] = await templateCalls("POST");
    expect(post.body).toEqual({
      name: "trainer",
      image: "pytorch/pytorch",
      tag: "2.4.0",
      env: `-e MODE='train all' -e TOKEN_FILE="/run/it's" -p 8888:8888 -p 22:22`,
      runtype: "ssh",
      ssh_direct: true,
      use_ssh: true,
      docker_login_repo: "registry.example.com",
      docker_login_user: "robot",
      docker_login_pass: PASSWORD,
      extra_filters: { gpu_ram: { gte: 24000 } },
      private: true,
      recommended_disk_space: 8,
    });
    expect(outs.envFlags).toBe((post.body as Props).env);
  });

  it("reads a template back with no diff against the program's inputs", async () => {
    const { inputs, id, outs } = await created();
    const read = await provider.read(id, outs);
    expect(read.id).toBe(id);
    // The plugin adds __provider to what read returns.
    expect({ ...read.props, __provider: PROVIDER }).toEqual(outs);
    expect(await provider.diff(id, read.props, inputs)).toMatchObject({ changes: false });
    expect(await provider.diff(id, { ...read.inputs, ...read.props }, inputs)).toMatchObject({ changes: false });
  });

  it("edits with the whole template (26.5): the hash changes, the id stays", async () => {
    const { inputs, id, outs } = await created();
    const news = await checked({ ...args, desc: "fine-tuning", env: { MODE: "eval" } });
    await h.clearRequests();
    const updated = (await provider.update(id, outs, news)).outs as Props;
    const [put] = await templateCalls("PUT");
    expect(put.body).toMatchObject({ hash_id: outs.hashId, name: "trainer", image: "pytorch/pytorch", desc: "fine-tuning", env: "-e MODE=eval -p 8888:8888 -p 22:22", runtype: "ssh" });
    expect(updated.templateId).toBe(Number(id));
    expect(updated.hashId).not.toBe(outs.hashId);
    const read = await provider.read(id, updated);
    expect(read.props).toMatchObject({ hashId: updated.hashId, desc: "fine-tuning", env: { MODE: "eval" } });
    expect(await provider.diff(id, read.props as Props, news)).toMatchObject({ changes: false });
    expect(inputs.dockerLoginPass).toBe(PASSWORD);
  });

  it("sends the service default for an input that was removed", async () => {
    const { id, outs } = await created({ ...args, desc: "temporary", onstart: "echo hi" });
    await h.clearRequests();
    await provider.update(id, outs, await checked(args)); // desc and onstart removed
    const [put] = await templateCalls("PUT");
    expect(put.body).toMatchObject({ hash_id: outs.hashId, name: "trainer", desc: "", onstart: "" });
  });

  it("sends the registry password only when it changed", async () => {
    const { id, outs } = await created();
    await h.clearRequests();
    const second = (await provider.update(id, outs, await checked({ ...args, readme: "# use" }))).outs as Props;
    expect((await templateCalls("PUT"))[0].body).not.toHaveProperty("docker_login_pass");
    await h.clearRequests();
    await provider.update(id, second, await checked({ ...args, readme: "# use", dockerLoginPass: "registry-token-new01" }));
    expect((await templateCalls("PUT"))[0].body).toMatchObject({ hash_id: second.hashId, name: "trainer", docker_login_pass: "registry-token-new01" });
  });

  it("shows a change made outside the program on read (drift), and the next update restores it", async () => {
    const { inputs, id, outs } = await created();
    await editOutOfBand(outs.hashId as string, { desc: "edited elsewhere", env: "-e MODE=other -p 22:22" });
    const read = await provider.read(id, outs);
    expect(read.props).toMatchObject({ desc: "edited elsewhere", env: { MODE: "other" }, ports: ["22:22"] });
    expect((read.props as Props).hashId).not.toBe(outs.hashId);
    expect(read.inputs).toMatchObject({ dockerLoginPass: PASSWORD });
    const diff = await provider.diff(id, read.props as Props, inputs);
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    await h.clearRequests();
    const restored = (await provider.update(id, read.props as Props, inputs)).outs as Props;
    expect((await templateCalls("PUT"))[0].body).toMatchObject({
      hash_id: (read.props as Props).hashId,
      desc: "",
      env: `-e MODE='train all' -e TOKEN_FILE="/run/it's" -p 8888:8888 -p 22:22`,
    });
    expect(restored.hashId).toBe(outs.hashId); // same content, same hash
  });

  it("edits with the live hash when the one in state is stale (edited without a refresh)", async () => {
    const { id, outs } = await created();
    await editOutOfBand(outs.hashId as string, { readme: "changed elsewhere" });
    const updated = (await provider.update(id, outs, await checked({ ...args, desc: "mine" }))).outs as Props;
    const puts = await templateCalls("PUT");
    expect(puts.map((p) => p.status)).toEqual([200, 404, 200]);
    expect(updated.templateId).toBe(Number(id));
    // The whole template is sent (26.5): the readme edited elsewhere goes back to the program's (none).
    const after = (await provider.read(id, updated)).props as Props;
    expect(after).toMatchObject({ desc: "mine", hashId: updated.hashId });
    expect(after.readme ?? "").toBe("");
  });

  it("deletes by numeric id, and treats a template already gone as deleted", async () => {
    const { id, outs } = await created();
    await h.clearRequests();
    await provider.delete(id, outs);
    const [del] = await templateCalls("DELETE");
    expect(del.body).toEqual({ template_id: Number(id) });
    expect(await provider.read(id, outs)).toEqual({ id: "" });
    await expect(provider.delete(id, outs)).resolves.toBeUndefined();
    expect((await templateCalls("DELETE")).map((r) => r.status)).toEqual([200, 404]);
  });

  it("on a delete refused at HTTP 200, succeeds only if the template is really gone", async () => {
    const { id, outs } = await created();
    const refusal = { method: "DELETE", path: "/api/v0/template", status: 200, body: { success: false, msg: "Template not found" } };
    await h.fault(refusal);
    await expect(provider.delete(id, outs)).rejects.toThrow("success=false: Template not found");
    await provider.delete(id, outs);
    await h.fault(refusal);
    await expect(provider.delete(id, outs)).resolves.toBeUndefined();
  });

  it("adopts the existing template when the same content is created again", async () => {
    const first = await created();
    const second = await created();
    expect(second.id).toBe(first.id);
    expect(second.outs).toMatchObject({ templateId: first.outs.templateId, hashId: first.outs.hashId, adopted: true });
    expect(h.sim.state().templates.filter((t) => t.name === "trainer")).toHaveLength(1);
  });
});

describe("Template secrets over HTTP", () => {
  it("keeps the registry password out of error messages, even when the service echoes it", async () => {
    await h.fault({ method: "POST", path: "/api/v0/template", status: 400, body: { error: "invalid_args", msg: `bad login ${PASSWORD}` } });
    const inputs = await checked(args);
    const error = await provider.create(inputs).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toContain("HTTP 400 invalid_args: bad login <redacted>");
    expect(error?.message).not.toContain(PASSWORD);
  });

  it("sends the password only in the docker_login_pass field of create and edit bodies", async () => {
    const { id, outs } = await created();
    const updated = (await provider.update(id, outs, await checked({ ...args, dockerLoginPass: `${PASSWORD}-2` }))).outs as Props;
    await provider.read(id, updated);
    await provider.delete(id, updated);
    const log = await h.requests();
    expect(log.length).toBeGreaterThanOrEqual(4);
    const carriers = log.filter((r) => JSON.stringify(r).includes(PASSWORD));
    expect(carriers.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /api/v0/template/", "PUT /api/v0/template/"]);
    for (const r of carriers) {
      const { docker_login_pass: _pass, ...rest } = r.body as Props;
      expect(JSON.stringify({ ...r, body: rest })).not.toContain(PASSWORD);
    }
  });
});
