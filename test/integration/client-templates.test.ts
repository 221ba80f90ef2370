/** Templates and offers over HTTP. */
import { SEED } from "pulumi-vastai/simulator";
import { AuthenticationError, DEFAULT_TEMPLATE_PRIVATE, VastOperationError, VastValidationError } from "../../provider/client";
import { formatEnvFlags } from "../../provider/client/wire/env";
import { CLI_DEFAULT_OFFER_FILTERS, MB_PER_GB } from "../../provider/client/wire/filters";
import { useSimulator } from "../support/simulator";

const h = useSimulator();

const base = { name: "it-template", image: "pytorch/pytorch", tag: "2.4.0", env: { MODE: "train all" }, ports: ["8888:8888"] };
const baseFlags = formatEnvFlags({ env: base.env, ports: base.ports });

describe("templates", () => {
  it("creates a template without the registry login fields the service does not require", async () => {
    const { template, existing } = await h.client.templates.create({ ...base, recommendedDiskSpace: 40, runtype: "ssh", sshDirect: true });
    expect(existing).toBe(false);
    expect(template).toMatchObject({ id: expect.any(Number), hashId: expect.any(String), name: "it-template", recommendedDiskSpace: 40, sshDirect: true, envFlags: baseFlags, env: base.env, ports: base.ports });
    const sent = (await h.requests()).find((r) => r.method === "POST" && r.path === "/api/v0/template/");
    expect(sent?.body).toMatchObject({ recommended_disk_space: 40, ssh_direct: true, env: baseFlags });
    expect(sent?.body).toMatchObject({ recommended_disk_space: 40, ssh_direct: true });
    expect(sent?.body).not.toHaveProperty("docker_login_repo");
    expect(sent?.body).not.toHaveProperty("docker_login_pass");
  });

  it("sends private as given, in both directions", async () => {
    const a = await h.client.templates.create({ ...base, name: "private-one", private: true });
    const b = await h.client.templates.create({ ...base, name: "public-one", private: false });
    expect([a.template.private, b.template.private]).toEqual([true, false]);
    expect(DEFAULT_TEMPLATE_PRIVATE).toBe(true);
  });

  it("adopts the existing template when the same content is created again", async () => {
    const first = await h.client.templates.create(base);
    const again = await h.client.templates.create(base);
    expect(again).toEqual({ template: expect.objectContaining({ id: first.template.id, hashId: first.template.hashId }), existing: true });
  });

  it("edits some fields: the hash changes, the id stays, the rest is kept", async () => {
    const { template } = await h.client.templates.create(base);
    const edited = await h.client.templates.edit(template.hashId, { desc: "new text" });
    expect(edited).toMatchObject({ id: template.id, desc: "new text", image: "pytorch/pytorch", tag: "2.4.0" });
    expect(edited.hashId).not.toBe(template.hashId);
  });

  it("searches by typed filters", async () => {
    const { template } = await h.client.templates.create(base);
    const byHash = await h.client.templates.search({ hashId: template.hashId });
    expect(byHash.map((t) => t.id)).toEqual([template.id]);
    const publicOnes = await h.client.templates.search({ id: { in: SEED.publicTemplates.map((t) => t.id) } });
    expect(publicOnes.map((t) => t.name).sort()).toEqual(SEED.publicTemplates.map((t) => t.name).sort());
  });

  it("reads 'No templates found' as an empty list", async () => {
    await expect(h.client.templates.search({ name: "no such template anywhere" })).resolves.toEqual([]);
  });

  it("refuses an unknown filter field before sending", async () => {
    await h.clearRequests();
    await expect(h.client.templates.search({ gpuName: "x" } as never)).rejects.toBeInstanceOf(VastValidationError);
    expect(await h.requests()).toHaveLength(0);
  });

  it("deletes by numeric id", async () => {
    const { template } = await h.client.templates.create(base);
    await h.client.templates.delete(template.id as number);
    await expect(h.client.templates.search({ id: template.id as number })).resolves.toEqual([]);
  });

  it("refuses to delete another creator's template (401 from the service)", async () => {
    const e = await h.client.templates.delete(SEED.publicTemplates[0].id).catch((x) => x);
    expect(e).toBeInstanceOf(AuthenticationError);
    expect(e.serverMessage).toBe("Templates can ONLY be Deleted by their Creator");
  });

  it("reports an edit that would duplicate another template as an operation failure", async () => {
    const a = await h.client.templates.create(base);
    const b = await h.client.templates.create({ ...base, name: "other" });
    const e = await h.client.templates.edit(b.template.hashId, { name: base.name }).catch((x) => x);
    expect(e).toBeInstanceOf(VastOperationError);
    expect(e.serverMessage).toContain(`Existing Template Found: ${a.template.hashId}`);
  });

  it("creates an instance from a template by hash", async () => {
    const { template } = await h.client.templates.create(base);
    const { id } = await h.client.instances.create(SEED.offerIds[0], { templateHashId: template.hashId, env: { EXTRA: "1" } });
    const inst = await h.client.instances.get(id);
    expect(inst?.templateHashId).toBe(template.hashId);
    expect(inst?.extraEnv).toEqual(expect.arrayContaining([["MODE", "train all"], ["EXTRA", "1"]]));
  });
});

describe("offers", () => {
  it("searches with typed filters, GB converted to MB, ordered and limited", async () => {
    const offers = await h.client.offers.search({ filters: { gpuRamGb: { gte: 24 }, ...CLI_DEFAULT_OFFER_FILTERS }, order: [["dphTotal", "asc"]], limit: 5 });
    expect(offers.length).toBeGreaterThan(0);
    expect(offers.length).toBeLessThanOrEqual(5);
    for (const o of offers) expect(o.gpuRamMb).toBeGreaterThanOrEqual(24 * MB_PER_GB);
    const prices = offers.map((o) => o.dphTotal as number);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    const sent = (await h.requests()).find((r) => r.path === "/api/v0/bundles/");
    expect(sent?.body).toMatchObject({ gpu_ram: { gte: 24000 }, order: [["dph_total", "asc"]], type: "on-demand", limit: 5 });
  });

  it("filters by GPU name with in", async () => {
    const names = [...new Set(SEED.offers.map((o) => (o as { gpuName: string }).gpuName))].slice(0, 2);
    const offers = await h.client.offers.search({ filters: { gpuName: { in: names } } });
    expect(offers.length).toBeGreaterThan(0);
    for (const o of offers) expect(names).toContain(o.gpuName);
  });

  it("accepts a bundle: the endpoint is disabled and answers {}", async () => {
    await expect(h.client.bundles.accept(SEED.offerIds[0], { price: 0.5, maxStart: 1, minDuration: 3600 })).resolves.toEqual({});
  });
});
