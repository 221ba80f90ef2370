/** SSH keys, secrets, API keys and subaccount keys over HTTP, with the spec's error rows. */
import { SEED } from "pulumi-vastai/simulator";
import { AuthenticationError, BadRequestError, NotFoundError, PermissionDeniedError } from "../../provider/client";
import { useSimulator } from "../support/simulator";

const h = useSimulator();

const KEY_A = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKeyAlpha alpha@test";
const KEY_B = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKeyBravo bravo@test";

describe("SSH keys", () => {
  it("creates, lists, updates and deletes a key", async () => {
    const created = await h.client.sshKeys.create(KEY_A);
    expect(created).toMatchObject({ id: expect.any(Number), publicKey: KEY_A, userId: SEED.user.id });
    expect((await h.client.sshKeys.list()).map((k) => [k.id, k.publicKey])).toEqual([[created.id, KEY_A]]);
    await h.client.sshKeys.update(created.id, KEY_B);
    expect((await h.client.sshKeys.list()).map((k) => k.publicKey)).toEqual([KEY_B]);
    await expect(h.client.sshKeys.delete(created.id)).resolves.toEqual({ alreadyGone: false });
    expect(await h.client.sshKeys.list()).toEqual([]);
  });

  it("treats deleting an unknown key (400 no_ssh_key) as already gone", async () => {
    await expect(h.client.sshKeys.delete(987654)).resolves.toEqual({ alreadyGone: true });
  });

  it("passes the service's refusal of a malformed key", async () => {
    const e = await h.client.sshKeys.create("not a key").catch((x) => x);
    expect(e).toBeInstanceOf(BadRequestError);
    expect(e.message).toMatch(/^POST \/api\/v0\/ssh\/ failed: HTTP 400 invalid_args: ssh_key must be an OpenSSH public key/);
  });
});

describe("secrets", () => {
  it("adds, lists masked, updates and deletes a secret; values never come back", async () => {
    await h.client.secrets.add("hf_token", "hf-secret-value-123");
    await h.client.secrets.add("OTHER", "x");
    const listed = await h.client.secrets.list();
    expect(listed).toEqual({ HF_TOKEN: expect.stringMatching(/^\*+$/), OTHER: expect.stringMatching(/^\*+$/) });
    await h.client.secrets.update("HF_TOKEN", "another-secret-value");
    await expect(h.client.secrets.delete("HF_TOKEN")).resolves.toEqual({ alreadyGone: false });
    await expect(h.client.secrets.delete("HF_TOKEN")).resolves.toEqual({ alreadyGone: true });
    expect(Object.keys(await h.client.secrets.list())).toEqual(["OTHER"]);
  });

  it("reports the per-account limit of 16 with the service's message", async () => {
    for (let i = 0; i < 16; i++) await h.client.secrets.add(`S${i}`, "v");
    const e = await h.client.secrets.add("S16", "v").catch((x) => x);
    expect(e).toBeInstanceOf(BadRequestError);
    expect(e.serverMessage).toBe("User has reached the limit of 16 environment variables.");
  });

  it("refuses to update an unknown secret", async () => {
    await expect(h.client.secrets.update("NOPE", "x")).rejects.toMatchObject({ status: 400, serverMessage: "Environment variable not found" });
  });
});

describe("API keys", () => {
  it("creates a scoped key whose value works once, lists it without the value, and deletes it", async () => {
    const created = await h.client.apiKeys.create({ name: "ci", scopes: ["instance_write", "instance_read"] });
    expect(created).toMatchObject({ id: expect.any(Number), key: expect.any(String), scopes: ["instance_read", "instance_write"] });
    const listed = await h.client.apiKeys.list();
    expect(listed.find((k) => k.id === created.id)).toMatchObject({ name: "ci", scopes: ["instance_read", "instance_write"] });
    expect(JSON.stringify(listed)).not.toContain(created.key);
    const scoped = h.clientWith({ apiKey: created.key });
    await expect(scoped.instances.list()).resolves.toEqual([]);
    await expect(h.client.apiKeys.delete(created.id)).resolves.toEqual({ alreadyGone: false });
    await expect(h.client.apiKeys.delete(created.id)).resolves.toEqual({ alreadyGone: true });
    const e = await scoped.instances.list().catch((x) => x);
    expect(e).toBeInstanceOf(AuthenticationError);
    expect(e.message).not.toContain(created.key);
  });

  it("refuses to delete the primary key", async () => {
    const primary = (await h.client.apiKeys.list()).find((k) => k.raw.primary === true);
    expect(primary).toBeDefined();
    await expect(h.client.apiKeys.delete(primary!.id)).rejects.toMatchObject({ status: 400, serverMessage: "The primary API key cannot be deleted" });
  });
});

describe("current user", () => {
  it("reads the account behind the key, for calls that need the user id", async () => {
    const me = await h.client.users.current();
    expect(me).toMatchObject({ id: SEED.user.id, email: SEED.user.email, username: SEED.user.username });
    const t = await h.client.autoscaler.templates(me.id);
    expect(t.autoscaler.length).toBeGreaterThan(0);
  });
});

describe("subaccount keys (spec: Errors, regenerate_keys)", () => {
  const [sub1, sub2] = SEED.subaccounts;

  it("regenerates one subaccount key: the new value works, the old one gets 401 at once", async () => {
    const keys = await h.client.subaccounts.regenerateKeys({ subaccountUserId: sub1.userId });
    expect(keys).toEqual([{ userId: sub1.userId, email: sub1.email, derivedKey: expect.any(String) }]);
    expect(keys[0].derivedKey).not.toBe(sub1.apiKey);
    await expect(h.clientWith({ apiKey: keys[0].derivedKey }).instances.list()).resolves.toEqual([]);
    await expect(h.clientWith({ apiKey: sub1.apiKey }).instances.list()).rejects.toBeInstanceOf(AuthenticationError);
  });

  it("regenerates every subaccount key with {all: true}", async () => {
    const keys = await h.client.subaccounts.regenerateKeys({ all: true });
    expect(keys.map((k) => k.userId).sort()).toEqual([sub1.userId, sub2.userId].sort());
  });

  it("400 when neither field is given", async () => {
    const e = await h.client.subaccounts.regenerateKeys({} as never).catch((x) => x);
    expect(e).toBeInstanceOf(BadRequestError);
    expect(e.serverMessage).toBe("Must specify subaccount_user_id or regenerate_all");
  });

  it("400 when subaccount_user_id is not an integer", async () => {
    const e = await h.client.subaccounts.regenerateKeys({ subaccountUserId: "abc" as never }).catch((x) => x);
    expect(e).toBeInstanceOf(BadRequestError);
    expect(e.serverMessage).toBe("subaccount_user_id must be a valid integer");
  });

  it("403 for an account not approved for subaccounts", async () => {
    const e = await h.clientWith({ apiKey: SEED.unapprovedUser.apiKey }).subaccounts.regenerateKeys({ all: true }).catch((x) => x);
    expect(e).toBeInstanceOf(PermissionDeniedError);
    expect(e.serverMessage).toBe("Only subaccount approved accounts may use this API");
  });

  it("404 for an unknown subaccount", async () => {
    const e = await h.client.subaccounts.regenerateKeys({ subaccountUserId: 999999 }).catch((x) => x);
    expect(e).toBeInstanceOf(NotFoundError);
    expect(e.serverMessage).toBe("Subaccount not found");
  });

  it("404 for a subaccount without an active key", async () => {
    const e = await h.client.subaccounts.regenerateKeys({ subaccountUserId: SEED.subaccountWithoutKey.userId }).catch((x) => x);
    expect(e).toBeInstanceOf(NotFoundError);
    expect(e.serverMessage).toBe("Active subaccount key not found to regenerate");
  });

  it("hides a derived key from later error messages", async () => {
    const [k] = await h.client.subaccounts.regenerateKeys({ subaccountUserId: sub2.userId });
    await h.fault({ method: "GET", path: "/api/v0/secrets", status: 400, body: { error: "invalid_args", msg: `leaked ${k.derivedKey}` } });
    const e = await h.client.secrets.list().catch((x) => x);
    expect(e.message).not.toContain(k.derivedKey);
    expect(e.message).toContain("leaked <redacted>");
  });
});
