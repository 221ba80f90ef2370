import { SEED } from "pulumi-vastai/simulator";
import { ED25519_KEY, openSimulator, RSA_KEY } from "./simulator-support";
import { useSimulator } from "../support/simulator";

const h = useSimulator({ start: openSimulator });

describe("SSH keys", () => {
  it("creates a key and lists it as a bare array whose items carry `key`", async () => {
    const c = await h.call("POST", "/api/v0/ssh/", { ssh_key: ED25519_KEY });
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({
      success: true,
      key: { id: expect.any(Number), user_id: SEED.user.id, public_key: ED25519_KEY, deleted_at: null },
    });
    const list = await h.call("GET", "/api/v0/ssh/");
    expect(Array.isArray(list.body)).toBe(true);
    expect(list.body).toEqual([expect.objectContaining({ id: c.body.key.id, key: ED25519_KEY })]);
  });

  it("adds a new key to the account's running instances", async () => {
    const inst = await h.call("PUT", `/api/v0/asks/${SEED.offerIds[0]}/`, { image: "ubuntu:22.04" });
    const c = await h.call("POST", "/api/v0/ssh", { ssh_key: ED25519_KEY });
    expect(c.status).toBe(200);
    const state = await h.control("GET", "/_sim/state");
    expect(state.body.instances[0]).toMatchObject({ id: inst.body.new_contract, ssh_key_ids: [c.body.key.id] });
    expect(state.body.sshKeys).toEqual([expect.objectContaining({ id: c.body.key.id, user_id: SEED.user.id })]);
  });

  it("replaces the key text with PUT", async () => {
    const c = await h.call("POST", "/api/v0/ssh/", { ssh_key: ED25519_KEY });
    const u = await h.call("PUT", `/api/v0/ssh/${c.body.key.id}/`, { id: c.body.key.id, ssh_key: RSA_KEY });
    expect(u.status).toBe(200);
    expect((await h.call("GET", "/api/v0/ssh")).body[0].key).toBe(RSA_KEY);
  });

  it("answers a create without a key 400 no_ssh_key, as the vendor document", async () => {
    const r = await h.call("POST", "/api/v0/ssh/", {});
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, error: "no_ssh_key", msg: "No ssh key provided" });
  });

  it("deletes a key, and answers 400 no_ssh_key for an unknown id", async () => {
    const c = await h.call("POST", "/api/v0/ssh/", { ssh_key: ED25519_KEY });
    expect((await h.call("DELETE", `/api/v0/ssh/${c.body.key.id}`)).body).toEqual({ success: true });
    // Soft delete: the row stays in the list with deleted_at set.
    expect((await h.call("GET", "/api/v0/ssh/")).body).toEqual([expect.objectContaining({ id: c.body.key.id, deleted_at: expect.any(String) })]);
    const again = await h.call("DELETE", `/api/v0/ssh/${c.body.key.id}/`);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ success: false, error: "no_ssh_key" });
  });

  it("rejects text that is not an OpenSSH public key", async () => {
    const r = await h.call("POST", "/api/v0/ssh/", { ssh_key: "-----BEGIN OPENSSH PRIVATE KEY-----" });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: "invalid_args", msg: expect.stringContaining("ssh_key") });
    expect(r.body.msg).not.toContain("PRIVATE");
  });

  it("keeps each account's keys apart", async () => {
    await h.call("POST", "/api/v0/ssh/", { ssh_key: ED25519_KEY });
    const other = await h.call("GET", "/api/v0/ssh/", undefined, { key: SEED.unapprovedUser.apiKey });
    // An account without keys is answered 404, as the vendor document says.
    expect(other.status).toBe(404);
    expect(other.body).toMatchObject({ msg: "No SSH keys found for the user." });
  });
});

describe("secrets", () => {
  it("upper-cases names and lists masked values", async () => {
    expect((await h.call("POST", "/api/v0/secrets/", { key: "hf_token", value: "hf_abcdef123456" })).status).toBe(200);
    const r = await h.call("GET", "/api/v0/secrets/");
    expect(r.body.success).toBe(true);
    expect(r.body.secrets).toEqual({ HF_TOKEN: expect.stringMatching(/^\*+$/) });
    expect(r.text).not.toContain("hf_abcdef123456");
  });

  it("updates and deletes by name, and says Environment variable not found for an unknown one", async () => {
    await h.call("POST", "/api/v0/secrets/", { key: "A", value: "1" });
    expect((await h.call("PUT", "/api/v0/secrets/", { key: "a", value: "2" })).status).toBe(200);
    expect((await h.call("DELETE", "/api/v0/secrets/", { key: "A" })).status).toBe(200);
    expect((await h.call("GET", "/api/v0/secrets/")).body.secrets).toEqual({});
    for (const method of ["PUT", "DELETE"]) {
      const r = await h.call(method, "/api/v0/secrets/", { key: "A", value: "x" });
      expect(r.status).toBe(400);
      expect(r.body.msg).toBe("Environment variable not found");
    }
  });

  it("refuses the 17th variable", async () => {
    for (let i = 0; i < 16; i++) {
      expect((await h.call("POST", "/api/v0/secrets/", { key: `V${i}`, value: "x" })).status).toBe(200);
    }
    const r = await h.call("POST", "/api/v0/secrets/", { key: "V16", value: "x" });
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe("User has reached the limit of 16 environment variables.");
  });

  it("refuses a name that is not a variable name", async () => {
    const r = await h.call("POST", "/api/v0/secrets/", { key: "1 bad", value: "x" });
    expect(r.status).toBe(400);
    expect(r.body.msg).toContain("key");
  });
});
