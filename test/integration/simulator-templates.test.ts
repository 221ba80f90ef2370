import { SEED } from "pulumi-vastai/simulator";
import { openSimulator } from "./simulator-support";
import { useSimulator } from "../support/simulator";

const h = useSimulator({ start: openSimulator });

const base = {
  name: "trainer",
  image: "pytorch/pytorch",
  tag: "2.4.0",
  env: "-e MODEL=small -p 8080:8080",
  docker_login_repo: "",
  docker_login_user: "",
  docker_login_pass: "",
};

function search(filters: unknown) {
  return h.call("GET", `/api/v0/template/?select_filters=${encodeURIComponent(JSON.stringify(filters))}`);
}

describe("template create", () => {
  it("returns the template with a numeric id and a hash_id, recommended_disk_space 8 by default", async () => {
    const r = await h.call("POST", "/api/v0/template/", base);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      success: true,
      template: { id: expect.any(Number), hash_id: expect.stringMatching(/^[0-9a-f]{32}$/), name: "trainer", recommended_disk_space: 8, runtype: "args" },
    });
    expect(r.body.template).not.toHaveProperty("docker_login_pass");
  });

  it("answers identical content with success false, Existing Template Found and the same template", async () => {
    const first = await h.call("POST", "/api/v0/template/", base);
    const again = await h.call("POST", "/api/v0/template", { ...base });
    expect(again.status).toBe(200);
    expect(again.body.success).toBe(false);
    expect(again.body.msg).toMatch(/^Existing Template Found/);
    expect(again.body.template).toMatchObject({ id: first.body.template.id, hash_id: first.body.template.hash_id });
    const state = await h.control("GET", "/_sim/state");
    expect(state.body.templates.filter((t: { name: string }) => t.name === "trainer")).toHaveLength(1);
  });

  it.each([
    [{ ...base, name: undefined }, "name"],
    [{ ...base, image: "" }, "image"],
    [{ ...base, runtype: "vnc" }, "runtype"],
    [{ ...base, env: "-e A='unterminated" }, "env"],
    [{ ...base, recommended_disk_space: -1 }, "recommended_disk_space"],
  ])("rejects an invalid body naming the field %#", async (body, field) => {
    const r = await h.call("POST", "/api/v0/template/", body);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: "invalid_args", msg: expect.stringContaining(field) });
  });

  it("creates a template from name and image alone, without the registry login fields (vendor document)", async () => {
    const r = await h.call("POST", "/api/v0/template/", { name: "minimal", image: "ubuntu" });
    expect(r.status).toBe(200);
    expect(r.body.template).toMatchObject({ name: "minimal", image: "ubuntu", docker_login_repo: "" });
  });
});

describe("template edit", () => {
  it("changes hash_id, keeps id and keeps the fields not sent", async () => {
    const c = await h.call("POST", "/api/v0/template/", base);
    const e = await h.call("PUT", "/api/v0/template/", { hash_id: c.body.template.hash_id, tag: "2.5.0" });
    expect(e.status).toBe(200);
    expect(e.body).toMatchObject({ success: true, hash_id: expect.any(String) });
    expect(e.body.hash_id).not.toBe(c.body.template.hash_id);
    expect(e.body.template).toMatchObject({ id: c.body.template.id, hash_id: e.body.hash_id, tag: "2.5.0", env: base.env });
  });

  it("answers 404 for a hash_id that an edit replaced", async () => {
    const c = await h.call("POST", "/api/v0/template/", base);
    await h.call("PUT", "/api/v0/template/", { hash_id: c.body.template.hash_id, desc: "x" });
    const stale = await h.call("PUT", "/api/v0/template", { hash_id: c.body.template.hash_id, desc: "y" });
    expect(stale.status).toBe(404);
  });

  it("refuses edits by someone other than the creator", async () => {
    const [pub] = (await search({ id: { eq: SEED.publicTemplates[0].id } })).body.templates;
    const r = await h.call("PUT", "/api/v0/template/", { hash_id: pub.hash_id, desc: "mine now" });
    expect(r.status).toBe(401);
  });
});

describe("template search", () => {
  it("finds public templates with eq, in, gt and neq filters", async () => {
    expect((await search({ name: { eq: "Ubuntu SSH" } })).body.templates).toHaveLength(1);
    const ids = SEED.publicTemplates.map((t) => t.id);
    expect((await search({ id: { in: ids.slice(0, 2) } })).body.templates).toHaveLength(2);
    expect((await search({ count_created: { gt: 3500 } })).body.templates.map((t: { id: number }) => t.id)).toEqual([ids[0]]);
    const r = await search({ recommended: { eq: true }, id: { neq: ids[0] } });
    expect(r.body).toMatchObject({ success: true, templates_found: ids.length - 1 });
    expect(r.body.templates[0]).toEqual(expect.objectContaining({ hash_id: expect.any(String), name: expect.any(String) }));
  });

  it("shows private templates to their creator only", async () => {
    await h.call("POST", "/api/v0/template/", { ...base, name: "secret-recipe", private: true });
    expect((await search({ name: { eq: "secret-recipe" } })).body.templates).toHaveLength(1);
    const other = await h.call("GET", `/api/v0/template/?select_filters=${encodeURIComponent('{"name":{"eq":"secret-recipe"}}')}`, undefined, {
      key: SEED.unapprovedUser.apiKey,
    });
    expect(other.body.templates ?? []).toEqual([]);
  });

  it("answers a filter mistake with an empty result, not an error", async () => {
    const r = await search({ name: { like: "x" } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: false, msg: "No templates found" });
  });

  it("rejects select_filters that is not JSON", async () => {
    const r = await h.call("GET", "/api/v0/template?select_filters=%7Bnope");
    expect(r.status).toBe(400);
    expect(r.body.msg).toContain("select_filters");
  });
});

describe("template delete", () => {
  it("deletes by numeric id", async () => {
    const c = await h.call("POST", "/api/v0/template/", base);
    const d = await h.call("DELETE", "/api/v0/template/", { template_id: c.body.template.id });
    expect(d.body).toEqual({ success: true });
    expect((await search({ id: { eq: c.body.template.id } })).body.templates ?? []).toEqual([]);
  });

  it("refuses a hash_id in place of the numeric id", async () => {
    const c = await h.call("POST", "/api/v0/template/", base);
    const d = await h.call("DELETE", "/api/v0/template/", { template_id: c.body.template.hash_id });
    expect(d.status).toBe(400);
    expect(d.body.msg).toContain("template_id");
  });

  it("answers 404 for an unknown id and 401 for a template of another creator", async () => {
    expect((await h.call("DELETE", "/api/v0/template/", { template_id: 424242 })).status).toBe(404);
    const r = await h.call("DELETE", "/api/v0/template/", { template_id: SEED.publicTemplates[0].id });
    expect(r.status).toBe(401);
    expect(r.body.msg).toBe("Templates can ONLY be Deleted by their Creator");
  });

  it("refuses while another user still runs an instance from it", async () => {
    const c = await h.call("POST", "/api/v0/template/", base);
    const other = SEED.subaccounts[0].apiKey;
    const inst = await h.call("PUT", `/api/v0/asks/${SEED.offerIds[0]}/`, { template_hash_id: c.body.template.hash_id }, { key: other });
    expect(inst.status).toBe(200);
    const d = await h.call("DELETE", "/api/v0/template/", { template_id: c.body.template.id });
    expect(d.status).toBe(400);
    expect(d.body.msg).toBe("Cannot Delete Template. Other Users are still using it.");
  });
});
