/**
 * The SshKey provider object (as `providers.sshKey`) against the simulator over HTTP: create,
 * read from the bare-array list with its `key` field, update in place by PUT, drift, delete
 * and delete of a key already gone.
 */
import { providers } from "pulumi-vastai";
import { useSimulator } from "../support/simulator";

type Props = Record<string, unknown>;
const provider = providers.sshKey as Required<typeof providers.sshKey>;
const PROVIDER = "serialized-provider-text";

// Generated with ssh-keygen; fingerprints from `ssh-keygen -lf`.
const ED25519 = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBDiByGF7pbRC6EslWLTI3W+yus8VMbdLZ5BgX54Hren vector@example";
const ED25519_FP = "SHA256:TEMLMqHL132GOj9CIlWzMMdYL7rv++Xncqbt4VhBAKQ";
const ECDSA = "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBLYQQlOcwCQXtK6hjjlrWhgUrTQbSgMsC9EonvGRd/wAj5hiLe+VVohVbaAUm7M9mCWiLIwyThtvvNiJMrBqldo= vector@example";
const ECDSA_FP = "SHA256:s3bzMl3Fqn+B+EOIu883zaDHDWtH9BWeKsg34VFdrng";

const h = useSimulator({ providers: true });

async function created(publicKey = ED25519) {
  const res = await provider.check({}, { __provider: PROVIDER, publicKey });
  expect(res.failures).toEqual([]);
  const { id, outs } = await provider.create(res.inputs);
  return { inputs: res.inputs, id, outs: outs as Props };
}

const sshCalls = async () => (await h.requests()).filter((r) => r.path.startsWith("/api/v0/ssh"));

describe("SshKey lifecycle over HTTP", () => {
  it("registers the key and returns its id, fingerprint and creation time", async () => {
    const { id, outs } = await created(`  ${ED25519}\n`);
    expect(id).toMatch(/^\d+$/);
    expect(outs).toMatchObject({ publicKey: ED25519, keyId: Number(id), fingerprint: ED25519_FP, keyType: "ssh-ed25519" });
    expect(outs.createdAt).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
    expect((await sshCalls()).map((r) => [r.method, r.path, r.body])).toEqual([["POST", "/api/v0/ssh/", { ssh_key: ED25519 }]]);
  });

  it("reads the key from the list (key text in `key`) with no diff", async () => {
    const { inputs, id, outs } = await created();
    const read = await provider.read(id, outs);
    expect(read).toEqual({ id, props: { ...outs, __provider: undefined }, inputs: { publicKey: ED25519 } });
    expect(await provider.diff(id, read.props, inputs)).toMatchObject({ changes: false });
  });

  it("updates a changed key in place with PUT on the same id", async () => {
    const { id, outs } = await created();
    await h.clearRequests();
    const news = (await provider.check(outs, { __provider: PROVIDER, publicKey: ECDSA })).inputs;
    expect(await provider.diff(id, outs, news)).toEqual({ changes: true, replaces: [], deleteBeforeReplace: undefined });
    const updated = (await provider.update(id, outs, news)).outs as Props;
    expect((await sshCalls()).map((r) => [r.method, r.path, r.body])).toEqual([["PUT", `/api/v0/ssh/${id}/`, { id: Number(id), ssh_key: ECDSA }]]);
    expect(updated).toMatchObject({ keyId: Number(id), publicKey: ECDSA, fingerprint: ECDSA_FP, keyType: "ecdsa-sha2-nistp256", createdAt: outs.createdAt });
    expect((await provider.read(id, updated)).props).toMatchObject({ publicKey: ECDSA, fingerprint: ECDSA_FP });
  });

  it("shows a key replaced outside the program on read (drift)", async () => {
    const { inputs, id, outs } = await created();
    const res = await fetch(`${h.sim.url}/api/v0/ssh/${id}/`, {
      method: "PUT",
      headers: { authorization: `Bearer ${h.sim.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ id: Number(id), ssh_key: ECDSA }),
    });
    expect(res.status).toBe(200);
    const read = await provider.read(id, outs);
    expect(read.props).toMatchObject({ publicKey: ECDSA, fingerprint: ECDSA_FP });
    expect(await provider.diff(id, read.props as Props, inputs)).toMatchObject({ changes: true, replaces: [] });
  });

  it("keeps the text in state when only the comment differs on the service", async () => {
    const { id, outs } = await created();
    const body = ED25519.split(" ").slice(0, 2).join(" ");
    await fetch(`${h.sim.url}/api/v0/ssh/${id}/`, {
      method: "PUT",
      headers: { authorization: `Bearer ${h.sim.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ id: Number(id), ssh_key: body }),
    });
    expect((await provider.read(id, outs)).props).toMatchObject({ publicKey: ED25519 });
  });

  it("deletes by id, reads a deleted key as gone, and deletes a key already gone without error", async () => {
    const { id, outs } = await created();
    await provider.delete(id, outs);
    expect(await provider.read(id, outs)).toEqual({ id: "" });
    await expect(provider.delete(id, outs)).resolves.toBeUndefined();
    const deletes = (await sshCalls()).filter((r) => r.method === "DELETE");
    expect(deletes.map((r) => [r.path, r.status])).toEqual([
      [`/api/v0/ssh/${id}/`, 200],
      [`/api/v0/ssh/${id}/`, 400],
    ]);
  });

  it("finds the key by listing when the create response is lost after the key was registered", async () => {
    await h.fault({ method: "POST", path: "/api/v0/ssh", drop: "after" });
    const { id, outs } = await created();
    expect(outs).toMatchObject({ keyId: Number(id), fingerprint: ED25519_FP });
    expect(h.sim.state().sshKeys.map((k) => k.id)).toEqual([Number(id)]);
  });
});

describe("SshKey orphans", () => {
  const identity = { __identity: "proj/dev/SshKey/deploy" };
  beforeAll(() => {
    process.env.VASTAI_POLL_INTERVAL_MS = "5";
    process.env.VASTAI_LOST_RESPONSE_LOOKUPS = "2";
  });
  afterAll(() => {
    delete process.env.VASTAI_POLL_INTERVAL_MS;
    delete process.env.VASTAI_LOST_RESPONSE_LOOKUPS;
  });
  const liveKeys = async () => h.client.sshKeys.list();

  it("(4) adopts the key a killed run registered instead of registering it again", async () => {
    await h.client.sshKeys.create(ED25519);
    const res = await provider.check({}, { __provider: PROVIDER, publicKey: ED25519, ...identity });
    const { id } = await provider.create(res.inputs);
    expect((await liveKeys()).map((k) => String(k.id))).toEqual([id]);
  });

  it("(4) a replacement (created before the old key is deleted) does not take over the key it replaces", async () => {
    const first = await provider.check({}, { __provider: PROVIDER, publicKey: ED25519, ...identity });
    const old = await provider.create(first.inputs);
    const next = await provider.check(old.outs as Props, { __provider: PROVIDER, publicKey: ED25519, ...identity });
    const made = await provider.create(next.inputs);
    expect(made.id).not.toBe(old.id);
    await provider.delete(old.id, old.outs as Props);
    expect((await liveKeys()).map((k) => String(k.id))).toEqual([made.id]);
  });

  it("(5) a key whose lost create landed after the look-up window is deleted by the next read", async () => {
    await h.fault({ method: "POST", path: "/api/v0/ssh", drop: "before" });
    const res = await provider.check({}, { __provider: PROVIDER, publicKey: ED25519, ...identity });
    const { id, outs } = await provider.create(res.inputs);
    expect((outs as Props).lostCreate).toBe(true);
    // The late landing of the lost request.
    await h.client.sshKeys.create(ED25519);
    expect(await liveKeys()).toHaveLength(2);
    await provider.read(id, outs as Props);
    expect((await liveKeys()).map((k) => String(k.id))).toEqual([id]);
  });
});
