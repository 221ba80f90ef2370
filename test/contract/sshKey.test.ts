/**
 * SshKey through Pulumi's own dynamic-provider plugin, from the package as a user installs
 * it, against the simulator: check -> create -> read -> update (PUT, same id) -> delete.
 */
import { dynamicUrn } from "pulumi-vastai/testing";
import { testSmallLoader, useContract } from "./harness";

const fx = useContract("sshKey");

// Generated with ssh-keygen; fingerprints from `ssh-keygen -lf`.
const ED25519 = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBDiByGF7pbRC6EslWLTI3W+yus8VMbdLZ5BgX54Hren vector@example";
const ED25519_FP = "SHA256:TEMLMqHL132GOj9CIlWzMMdYL7rv++Xncqbt4VhBAKQ";
const RSA =
  "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQDVBN4LXZFSHr/dykZ0fuokxAtAlxWqxEmEmSLhwzbdP+d4wuJ2ulvDCvQ01WvFUECGZoTg6rrY9TKysDLCqOIjYKS8Yy4jF42NLv7HS4jV2VAWEpypqfUMfGxOgrw732Q6ygUG9kUE5Q4Afh+bUMFZEtjhgyp2Sw8q5D2yjTVv4fHxidFZR6UkfzQT/sSMGVtA+DFQSXDuqiDgOHBj9j50WWvGTVlDj6T/91N4g79/mvdXXQzT+jpqzGgQKoLjUy0jmSQyuLs8l/neTfnBkWwU53F9nHW1kontXEpaw2dXukd9L/mJEFDHpfW35wKqTEOB3YmIG4NaZBWhrK8nlWS9 vector@example";
const RSA_FP = "SHA256:hSMYZ9F6nBSKfzReOEdhD+fpI+JzQ+SHX3pzULi4ypo";

async function sshCalls(): Promise<string[]> {
  const log = await fx.takeRequests();
  return log.filter((r) => r.path.startsWith("/api/v0/ssh")).map((r) => `${r.method} ${r.path} ${r.status}`);
}

const urn = (name: string) => dynamicUrn("dev", "proj", "SshKey", name);

testSmallLoader("sshKey", "SshKey");

test("check refuses a key whose body does not match its type", async () => {
  const body = ED25519.split(" ")[1];
  const res = await fx.plugin.check(urn("bad"), {}, { __provider: fx.provider, publicKey: `ssh-rsa ${body}` });
  expect(res.failures).toEqual([{ property: "publicKey", reason: `publicKey: key body holds a ssh-ed25519 key, not ssh-rsa (got "ssh-rsa ${body}")` }]);
});

test("create -> read -> update in place -> delete", async () => {
  const checked = await fx.plugin.check(urn("k"), {}, { __provider: fx.provider, publicKey: `${ED25519}\n` });
  expect(checked).toEqual({ inputs: { __provider: fx.provider, publicKey: ED25519 }, failures: [] });

  const created = await fx.plugin.create(urn("k"), checked.inputs);
  expect(created.id).toMatch(/^\d+$/);
  expect(created.properties).toMatchObject({ keyId: Number(created.id), fingerprint: ED25519_FP, keyType: "ssh-ed25519", publicKey: ED25519 });

  const read = await fx.plugin.read(urn("k"), created.id, created.properties, checked.inputs);
  expect(read).toMatchObject({ id: created.id, properties: created.properties, inputs: checked.inputs });
  expect(await fx.plugin.diff(urn("k"), created.id, read.properties, checked.inputs)).toEqual({ changes: "none", replaces: [], deleteBeforeReplace: false });

  const changed = await fx.plugin.check(urn("k"), checked.inputs, { __provider: fx.provider, publicKey: RSA });
  expect(await fx.plugin.diff(urn("k"), created.id, read.properties, changed.inputs)).toEqual({ changes: "some", replaces: [], deleteBeforeReplace: false });
  const updated = await fx.plugin.update(urn("k"), created.id, read.properties, changed.inputs);
  expect(updated.properties).toMatchObject({ keyId: Number(created.id), fingerprint: RSA_FP, keyType: "ssh-rsa", publicKey: RSA });
  expect(fx.sim.state().sshKeys).toEqual([expect.objectContaining({ id: Number(created.id), key: RSA })]);

  await fx.plugin.delete(urn("k"), created.id, updated.properties);
  expect(fx.sim.state().sshKeys).toEqual([]);
  expect((await fx.plugin.read(urn("k"), created.id, updated.properties)).id).toBe("");
  await fx.plugin.delete(urn("k"), created.id, updated.properties); // already gone: success

  const id = created.id;
  expect(await sshCalls()).toEqual([
    "POST /api/v0/ssh/ 200",
    "GET /api/v0/ssh/ 200",
    `PUT /api/v0/ssh/${id}/ 200`,
    `DELETE /api/v0/ssh/${id}/ 200`,
    "GET /api/v0/ssh/ 200",
    `DELETE /api/v0/ssh/${id}/ 400`,
  ]);
}, 30_000);
