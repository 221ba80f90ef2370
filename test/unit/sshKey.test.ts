/**
 * SshKey: public key validation, the canonical text check records, the SHA256 fingerprint
 * (vectors printed by `ssh-keygen -lf` for keys it generated), and exact diffs.
 */
import { UNKNOWN } from "../../provider/resources/kit";
import { provider as sshKeyImpl } from "../../provider/resources/sshKey/provider";
import { fingerprint, parsePublicKey } from "../../provider/resources/sshKey/format";

// Generated with `ssh-keygen -t <type> -C vector@example`; fingerprints from `ssh-keygen -lf`.
const VECTORS = [
  {
    key: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBDiByGF7pbRC6EslWLTI3W+yus8VMbdLZ5BgX54Hren vector@example",
    fingerprint: "SHA256:TEMLMqHL132GOj9CIlWzMMdYL7rv++Xncqbt4VhBAKQ",
  },
  {
    key:
      "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQDVBN4LXZFSHr/dykZ0fuokxAtAlxWqxEmEmSLhwzbdP+d4wuJ2ulvDCvQ01WvFUECGZoTg6rrY9TKysDLCqOIjYKS8Yy4jF42NLv7HS4jV2VAWEpypqfUMfGxOgrw732Q6ygUG9kUE5Q4Afh+bUMFZEtjhgyp2Sw8q5D2yjTVv4fHxidFZR6UkfzQT/sSMGVtA+DFQSXDuqiDgOHBj9j50WWvGTVlDj6T/91N4g79/mvdXXQzT+jpqzGgQKoLjUy0jmSQyuLs8l/neTfnBkWwU53F9nHW1kontXEpaw2dXukd9L/mJEFDHpfW35wKqTEOB3YmIG4NaZBWhrK8nlWS9 vector@example",
    fingerprint: "SHA256:hSMYZ9F6nBSKfzReOEdhD+fpI+JzQ+SHX3pzULi4ypo",
  },
  {
    key: "ecdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTYAAAAIbmlzdHAyNTYAAABBBLYQQlOcwCQXtK6hjjlrWhgUrTQbSgMsC9EonvGRd/wAj5hiLe+VVohVbaAUm7M9mCWiLIwyThtvvNiJMrBqldo= vector@example",
    fingerprint: "SHA256:s3bzMl3Fqn+B+EOIu883zaDHDWtH9BWeKsg34VFdrng",
  },
  {
    key:
      "ecdsa-sha2-nistp521 AAAAE2VjZHNhLXNoYTItbmlzdHA1MjEAAAAIbmlzdHA1MjEAAACFBAAm1bdTwO/OvORqwv9rtM8gYjm1H39T+TD1Tns/aS8+7IJtLQG8nUsxBMSELCgaodSwlYjHFByq39nZ+e3jhyObuwAn0m4gBYqgR+sA7tkToQ1zhCIs5MyjgtC7DxyyCqn4P61fgZWfW2e4c2tCSJ1b/ueborWPembjMYmswRwTq2MuOQ== vector@example",
    fingerprint: "SHA256:i0o6bsYHYY5nV0imAYuCVflZsMw9MMGcq+O3sSrPT+k",
  },
];
const ED25519 = VECTORS[0].key;
const ED25519_BODY = ED25519.split(" ")[1];

/** An SSH wire blob: length-prefixed strings (RFC 4253), base64. */
function blob(...parts: Buffer[]): string {
  return Buffer.concat(
    parts.flatMap((p) => {
      const len = Buffer.alloc(4);
      len.writeUInt32BE(p.length);
      return [len, p];
    }),
  ).toString("base64");
}

const PROVIDER = "serialized-provider-text";

describe("SSH public key format", () => {
  it.each(VECTORS)("computes the fingerprint ssh-keygen prints for $fingerprint", ({ key, fingerprint: expected }) => {
    const parsed = parsePublicKey(key);
    if ("error" in parsed) throw new Error(parsed.error);
    expect(fingerprint(parsed.body)).toBe(expected);
  });

  it("accepts a security-key type whose body names the same type", () => {
    const type = "sk-ssh-ed25519@openssh.com";
    const body = blob(Buffer.from(type), Buffer.alloc(32, 7), Buffer.from("ssh:"));
    expect(parsePublicKey(`${type} ${body}`)).toMatchObject({ type, body, comment: "" });
  });

  it("writes the key in canonical form: trimmed, single spaces, comment kept", () => {
    expect(parsePublicKey(`  ssh-ed25519\t${ED25519_BODY}   me@laptop  work \n`)).toMatchObject({
      canonical: `ssh-ed25519 ${ED25519_BODY} me@laptop work`,
      comment: "me@laptop work",
    });
  });

  it.each([
    ["ssh-dss AAAAB3NzaC1kc3M=", "must start with a key type among ssh-ed25519"],
    ["ssh-ed25519", "must have a base64 key body after the type"],
    ["ssh-ed25519 AAAA!!!!", "must have a key body that is valid base64"],
    [`ssh-ed25519 ${ED25519_BODY.slice(0, -1)}`, "must have a key body that is valid base64"],
    [`ssh-rsa ${ED25519_BODY}`, "key body holds a ssh-ed25519 key, not ssh-rsa"],
    ["ssh-ed25519 aGVsbG8gd29ybGQ=", "key body is not an SSH public key blob"],
    [`${ED25519}\n${ED25519}`, "must be a single key on one line"],
    ["-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE=\n-----END OPENSSH PRIVATE KEY-----", "not a private key"],
  ])("refuses %j", (text, rule) => {
    const parsed = parsePublicKey(text);
    expect("error" in parsed && parsed.error).toContain(rule);
  });
});

describe("SshKey check", () => {
  it("records the canonical key text and keeps __provider", async () => {
    const res = await sshKeyImpl.check({}, { __provider: PROVIDER, publicKey: `${ED25519}\n` });
    expect(res).toEqual({ inputs: { __provider: PROVIDER, publicKey: ED25519 }, failures: [] });
  });

  it("names the property, the rule and the value", async () => {
    const res = await sshKeyImpl.check({}, { __provider: PROVIDER, publicKey: "ssh-foo AAAA" });
    expect(res.failures).toEqual([
      {
        property: "publicKey",
        reason:
          'publicKey: must start with a key type among ssh-ed25519, ssh-rsa, ecdsa-sha2-nistp256, ecdsa-sha2-nistp384, ecdsa-sha2-nistp521, sk-ssh-ed25519@openssh.com, sk-ecdsa-sha2-nistp256@openssh.com (got "ssh-foo AAAA")',
      },
    ]);
  });

  it("never echoes a private key pasted by mistake", async () => {
    const secret = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ==\n-----END OPENSSH PRIVATE KEY-----";
    const res = await sshKeyImpl.check({}, { __provider: PROVIDER, publicKey: secret });
    expect(res.failures).toEqual([{ property: "publicKey", reason: "publicKey: must be a public key (the .pub file), not a private key" }]);
  });

  it("requires publicKey and names unknown properties", async () => {
    const res = await sshKeyImpl.check({}, { __provider: PROVIDER, key: ED25519 });
    expect(res.failures).toEqual([
      { property: "publicKey", reason: "publicKey: must be a string" },
      { property: "key", reason: "key is not an SshKey property; did you mean publicKey?" },
    ]);
  });

  it("does not judge a key unknown during preview", async () => {
    const res = await sshKeyImpl.check({}, { __provider: PROVIDER, publicKey: UNKNOWN });
    expect(res).toEqual({ inputs: { __provider: PROVIDER, publicKey: UNKNOWN }, failures: [] });
  });
});

describe("SshKey diff", () => {
  const olds = { __provider: PROVIDER, publicKey: ED25519, keyId: 3, fingerprint: VECTORS[0].fingerprint, keyType: "ssh-ed25519", createdAt: "2026-01-01T00:00:00.000Z" };

  it("sees no change when only the serialized provider differs", async () => {
    expect(await sshKeyImpl.diff("3", olds, { __provider: "newer", publicKey: ED25519 })).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: undefined,
    });
  });

  it("updates a changed key in place", async () => {
    expect(await sshKeyImpl.diff("3", olds, { __provider: PROVIDER, publicKey: VECTORS[1].key })).toEqual({
      changes: true,
      replaces: [],
      deleteBeforeReplace: undefined,
    });
  });
});
