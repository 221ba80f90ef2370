import { SEED } from "pulumi-vastai/simulator";
import { openSimulator } from "./simulator-support";
import { useSimulator } from "../support/simulator";

const h = useSimulator({ start: openSimulator });

describe("bearer authentication", () => {
  it("rejects a request without an Authorization header with 401", async () => {
    const r = await h.call("GET", "/api/v0/instances/", undefined, { key: null });
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ success: false, error: "unauthorized" });
  });

  it("rejects an unknown key with 401", async () => {
    const r = await h.call("GET", "/api/v0/users/current/", undefined, { key: "not-a-key-of-anyone" });
    expect(r.status).toBe(401);
  });

  it("accepts the default key and reports the default account", async () => {
    const r = await h.call("GET", "/api/v0/users/current/");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: SEED.user.id, email: SEED.user.email });
    expect(h.sim.userId).toBe(SEED.user.id);
  });

  it("uses the key given to startSimulator", async () => {
    const other = await openSimulator({ apiKey: "custom-key-123" });
    try {
      expect(other.sim.apiKey).toBe("custom-key-123");
      expect((await other.call("GET", "/api/v0/users/current/")).status).toBe(200);
      expect((await other.call("GET", "/api/v0/users/current/", undefined, { key: SEED.apiKey })).status).toBe(401);
    } finally {
      await other.close();
    }
  });
});

describe("API keys", () => {
  it("creates a key whose value is shown once and then works", async () => {
    const c = await h.call("POST", "/api/v0/auth/apikeys/", { name: "ci" });
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ success: true, id: expect.any(Number), key: expect.any(String) });
    const list = await h.call("GET", "/api/v0/auth/apikeys/");
    const item = list.body.apikeys.find((k: { id: number }) => k.id === c.body.id);
    expect(item).toMatchObject({ name: "ci", key: null });
    expect((await h.call("GET", "/api/v0/users/current/", undefined, { key: c.body.key })).status).toBe(200);
  });

  it("stops a deleted key at once with 401", async () => {
    const c = await h.call("POST", "/api/v0/auth/apikeys", { name: "temp" });
    const d = await h.call("DELETE", `/api/v0/auth/apikeys/${c.body.id}/`);
    // The service acknowledges with a bare JSON string, not an object.
    expect(d.status).toBe(200);
    expect(d.body).toBe("Successfully Deleted API Key");
    expect((await h.call("GET", "/api/v0/users/current/", undefined, { key: c.body.key })).status).toBe(401);
    const list = await h.call("GET", "/api/v0/auth/apikeys/");
    expect(list.body.apikeys.map((k: { id: number }) => k.id)).not.toContain(c.body.id);
  });

  it("refuses to delete the primary key with 400", async () => {
    const list = await h.call("GET", "/api/v0/auth/apikeys/");
    const primary = list.body.apikeys.find((k: { primary: boolean }) => k.primary);
    const d = await h.call("DELETE", `/api/v0/auth/apikeys/${primary.id}`);
    expect(d.status).toBe(400);
    expect(d.body.msg).toMatch(/primary/);
    expect((await h.call("GET", "/api/v0/users/current/")).status).toBe(200);
  });

  it("answers 404 for deleting a key id that does not exist", async () => {
    expect((await h.call("DELETE", "/api/v0/auth/apikeys/999999/")).status).toBe(404);
  });

  it("rejects permissions outside the service's scope form", async () => {
    const r = await h.call("POST", "/api/v0/auth/apikeys/", { name: "x", permissions: { manage_instances: "yes" } });
    expect(r.status).toBe(400);
    expect(r.body.msg).toContain("permissions.manage_instances");
  });
});

describe("scoped keys", () => {
  async function scoped(permissions: Record<string, unknown>): Promise<string> {
    const r = await h.call("POST", "/api/v0/auth/apikeys/", { name: "scoped", permissions });
    expect(r.body.permissions).toEqual(permissions);
    return r.body.key;
  }

  it("gives a key without user_read an empty template search", async () => {
    const full = await h.call("GET", "/api/v0/template/");
    expect(full.body.templates.length).toBeGreaterThan(0);
    const key = await scoped({ api: { instance_read: {}, instance_write: {} } });
    const r = await h.call("GET", "/api/v0/template/", undefined, { key });
    expect(r.status).toBe(200);
    expect(r.body.templates ?? []).toEqual([]);
  });

  it("refuses instance writes to a key without instance_write", async () => {
    const created = await h.call("PUT", `/api/v0/asks/${SEED.offerIds[0]}/`, { image: "ubuntu:22.04" });
    const key = await scoped({ api: { user_read: {}, instance_read: {} } });
    const create = await h.call("PUT", `/api/v0/asks/${SEED.offerIds[0]}/`, { image: "ubuntu:22.04" }, { key });
    expect(create.status).toBe(403);
    expect(create.body.msg).toContain("instance_write");
    const label = await h.call("PUT", `/api/v0/instances/${created.body.new_contract}/`, { label: "x" }, { key });
    expect(label.status).toBe(403);
    const del = await h.call("DELETE", `/api/v0/instances/${created.body.new_contract}/`, {}, { key });
    expect(del.status).toBe(403);
    const state = await h.control("GET", "/_sim/state");
    expect(state.body.instances).toHaveLength(1);
    expect(state.body.instances[0].label).toBeNull();
  });

  it("lets a key with instance_write create instances", async () => {
    const key = await scoped({ api: { instance_write: {} } });
    const r = await h.call("PUT", `/api/v0/asks/${SEED.offerIds[0]}/`, { image: "ubuntu:22.04" }, { key });
    expect(r.status).toBe(200);
    expect(r.body.new_contract).toEqual(expect.any(Number));
  });

  it("refuses flat flags such as manage_instances, which the service does not know", async () => {
    const r = await h.call("POST", "/api/v0/auth/apikeys/", { name: "flat", permissions: { manage_instances: true } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: "invalid_permissions", msg: expect.stringContaining("permissions.manage_instances is not known") });
  });

  it("refuses the earnings chart to a key without billing_read", async () => {
    const key = await scoped({ api: { instance_read: {}, instance_write: {}, user_read: {} } });
    const r = await h.call("GET", "/api/v1/user/earnings/chart", undefined, { key });
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ error: "forbidden", msg: expect.stringContaining("billing_read") });
  });

  it("refuses a scope the service does not have with 400 invalid_permissions, naming the scopes", async () => {
    const r = await h.call("POST", "/api/v0/auth/apikeys/", { name: "x", permissions: { api: { instance_admin: {} } } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: "invalid_permissions", msg: expect.stringContaining("instance_read, instance_write, user_read") });
  });

  it("lists a scoped key's scopes as rights (JSON text), as the service does", async () => {
    const permissions = { api: { machine_read: {}, misc: {} } };
    const c = await h.call("POST", "/api/v0/auth/apikeys/", { name: "hosting", permissions });
    const list = await h.call("GET", "/api/v0/auth/apikeys/");
    const item = list.body.apikeys.find((k: { id: number }) => k.id === c.body.id);
    expect(JSON.parse(item.rights)).toEqual(permissions);
    expect(item.user_id).toBe(SEED.user.id);
  });
});

describe("PUT /api/v0/subaccounts/regenerate_keys", () => {
  const [subA, subB] = SEED.subaccounts;

  it("regenerates one subaccount key; the old key stops at once and the new one works", async () => {
    const r = await h.call("PUT", "/api/v0/subaccounts/regenerate_keys", { subaccount_user_id: subA.userId });
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.regenerated_keys).toEqual([{ user_id: subA.userId, email: subA.email, derived_key: expect.any(String) }]);
    expect((await h.call("GET", "/api/v0/users/current", undefined, { key: subA.apiKey })).status).toBe(401);
    const me = await h.call("GET", "/api/v0/users/current", undefined, { key: r.body.regenerated_keys[0].derived_key });
    expect(me.body.id).toBe(subA.userId);
    expect((await h.call("GET", "/api/v0/users/current", undefined, { key: subB.apiKey })).status).toBe(200);
  });

  it("regenerates every subaccount that has an active key with regenerate_all", async () => {
    const r = await h.call("PUT", "/api/v0/subaccounts/regenerate_keys/", { regenerate_all: true });
    expect(r.status).toBe(200);
    expect(r.body.regenerated_keys.map((k: { user_id: number }) => k.user_id).sort()).toEqual([subA.userId, subB.userId]);
    expect((await h.call("GET", "/api/v0/users/current", undefined, { key: subB.apiKey })).status).toBe(401);
  });

  it.each([
    [{}, "Must specify subaccount_user_id or regenerate_all"],
    [{ regenerate_all: false }, "Must specify subaccount_user_id or regenerate_all"],
    [{ subaccount_user_id: "abc" }, "subaccount_user_id must be a valid integer"],
    [{ subaccount_user_id: 1.5 }, "subaccount_user_id must be a valid integer"],
  ])("answers 400 for %j", async (body, msg) => {
    const r = await h.call("PUT", "/api/v0/subaccounts/regenerate_keys", body);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: expect.any(String), msg });
  });

  it("answers 403 to an account not approved for subaccounts", async () => {
    const r = await h.call("PUT", "/api/v0/subaccounts/regenerate_keys", { regenerate_all: true }, { key: SEED.unapprovedUser.apiKey });
    expect(r.status).toBe(403);
    expect(r.body.msg).toBe("Only subaccount approved accounts may use this API");
  });

  it("answers 404 Subaccount not found for a user that is not a subaccount", async () => {
    const r = await h.call("PUT", "/api/v0/subaccounts/regenerate_keys", { subaccount_user_id: SEED.unapprovedUser.id });
    expect(r.status).toBe(404);
    expect(r.body.msg).toBe("Subaccount not found");
  });

  it("answers 404 when the subaccount has no active key", async () => {
    const r = await h.call("PUT", "/api/v0/subaccounts/regenerate_keys", {
      subaccount_user_id: String(SEED.subaccountWithoutKey.userId),
    });
    expect(r.status).toBe(404);
    expect(r.body.msg).toBe("Active subaccount key not found to regenerate");
  });
});
