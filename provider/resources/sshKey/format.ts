/**
 * OpenSSH public key lines (`TYPE BASE64 [COMMENT]`): validation, a canonical spelling, and
 * the SHA256 fingerprint that `ssh-keygen -lf` prints, computed locally.
 */
import { createHash } from "crypto";

export const KEY_TYPES = [
  "ssh-ed25519",
  "ssh-rsa",
  "ecdsa-sha2-nistp256",
  "ecdsa-sha2-nistp384",
  "ecdsa-sha2-nistp521",
  "sk-ssh-ed25519@openssh.com",
  "sk-ecdsa-sha2-nistp256@openssh.com",
] as const;

export interface PublicKey {
  type: string;
  /** The key body, base64 as written. */
  body: string;
  /** Text after the body (often user@host); may be empty. */
  comment: string;
  /** `TYPE BODY [COMMENT]` with single spaces and no surrounding whitespace. */
  canonical: string;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** True for text that holds a private key, which must never be echoed back. */
export function looksPrivate(text: string): boolean {
  return /-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text);
}

/** The key parsed, or the rule it breaks (a sentence that never repeats the text). */
export function parsePublicKey(text: string): PublicKey | { error: string } {
  const trimmed = text.trim();
  if (looksPrivate(trimmed)) return { error: "must be a public key (the .pub file), not a private key" };
  if (/[\r\n]/.test(trimmed)) return { error: "must be a single key on one line" };
  const [type, body, ...rest] = trimmed.split(/[ \t]+/);
  if (!(KEY_TYPES as readonly string[]).includes(type)) {
    return { error: `must start with a key type among ${KEY_TYPES.join(", ")}` };
  }
  if (!body) return { error: "must have a base64 key body after the type" };
  const blob = decodeBase64(body);
  if (!blob) return { error: "must have a key body that is valid base64" };
  const inner = blobType(blob);
  if (inner !== type) {
    return { error: inner ? `key body holds a ${inner} key, not ${type}` : "key body is not an SSH public key blob" };
  }
  const comment = rest.join(" ");
  return { type, body, comment, canonical: comment ? `${type} ${body} ${comment}` : `${type} ${body}` };
}

function decodeBase64(body: string): Buffer | undefined {
  if (!BASE64.test(body) || body.length % 4 !== 0) return undefined;
  const blob = Buffer.from(body, "base64");
  // Buffer.from ignores bad input silently; a round trip proves the text was exact base64.
  return blob.toString("base64") === body ? blob : undefined;
}

/** The key type named inside the blob (a length-prefixed string, RFC 4253 section 6.6). */
function blobType(blob: Buffer): string | undefined {
  if (blob.length < 4) return undefined;
  const len = blob.readUInt32BE(0);
  if (len === 0 || len > 64 || blob.length < 4 + len) return undefined;
  const name = blob.subarray(4, 4 + len).toString("latin1");
  return /^[\x21-\x7e]+$/.test(name) ? name : undefined;
}

/** `SHA256:<base64 of sha256(blob), unpadded>`, as `ssh-keygen -lf` prints it. */
export function fingerprint(body: string): string {
  const digest = createHash("sha256").update(Buffer.from(body, "base64")).digest("base64");
  return `SHA256:${digest.replace(/=+$/, "")}`;
}
