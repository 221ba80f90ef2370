/**
 * The SshKey provider. The key id is the Pulumi id; a change of the key text is a PUT on the
 * same id (api-facts: SSH keys), so nothing forces a replacement.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { isoOfEpochSeconds, type SshKey as LiveKey, type VastClient } from "../../client";
import { getClient } from "../../context";
import { createAtMostOnce, isFirstCreate, jsonClean, lookUp, numericImport, UNKNOWN, type ImportableImpl, type Props, checkDeclared, diffDeclared } from "../kit";
import { SSH_KEY } from "./declare";
import { liveSshKeys } from "./live";
import { fingerprint, looksPrivate, parsePublicKey, type PublicKey } from "./format";

const schema = z.object({
  publicKey: z.string({ error: "must be a string" }).superRefine((text, ctx) => {
    const parsed = parsePublicKey(text);
    if ("error" in parsed) ctx.addIssue({ code: "custom", message: parsed.error });
  }),
});

function keyId(id: string): number {
  const n = Number(id);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`SshKey id "${id}" is not a numeric key id`);
  return n;
}

function parsed(text: unknown): PublicKey | undefined {
  if (typeof text !== "string") return undefined;
  const key = parsePublicKey(text);
  return "error" in key ? undefined : key;
}

/** Same key material (type and body); comments do not identify a key. */
function sameKey(a: unknown, b: unknown): boolean {
  const ka = parsed(a);
  const kb = parsed(b);
  return !!ka && !!kb && ka.type === kb.type && ka.body === kb.body;
}

function outputs(id: number, publicKey: string, createdAt: unknown): Props {
  const key = parsed(publicKey);
  return { keyId: id, fingerprint: key && fingerprint(key.body), keyType: key?.type, createdAt: isoOfEpochSeconds(createdAt) ?? createdAt };
}

/**
 * A create whose answer was lost may still register the key, also after the client gave up
 * on it: look for it over the look-up window (kit/create-once.ts), and register it again only
 * when it never shows up.
 */
async function createKey(client: VastClient, publicKey: string, adoptable: boolean): Promise<{ key: LiveKey; lost: boolean }> {
  const same = async () => (await client.sshKeys.list()).find((k) => sameKey(k.publicKey, publicKey));
  let lost = false;
  const key = await createAtMostOnce({
    // A key carries no marker: the same key material already registered is what a killed run
    // of this create registered (a key registered twice is of no use), so it is adopted.
    adopt: adoptable ? same : undefined,
    send: () => client.sshKeys.create(publicKey),
    recover: async () => {
      const found = await lookUp(async () => (await client.sshKeys.list()).find((k) => sameKey(k.publicKey, publicKey)));
      if (!found) lost = true;
      return found;
    },
  });
  return { key, lost };
}

export const provider: ImportableImpl = {
  // importId: the numeric key id; a different declared key text is written in place.
  importing: numericImport("SshKey", "SSH key"),

  async check(_olds, news) {
    // Someone who pastes a private key must not see it echoed in the failure.
    const secretFields = typeof news.publicKey === "string" && looksPrivate(news.publicKey) ? ["publicKey"] : [];
    const result = checkDeclared(SSH_KEY, schema, news, { secretFields });
    const inputs = { ...news };
    const key = news.publicKey === UNKNOWN ? undefined : parsed(news.publicKey);
    if (key) inputs.publicKey = key.canonical;
    return { inputs, failures: result.failures ?? [] };
  },

  async diff(_id, olds, news) {
    return diffDeclared(SSH_KEY, olds, news);
  },

  async create(inputs) {
    const publicKey = String(inputs.publicKey);
    const client = getClient();
    const { key, lost } = await createKey(client, publicKey, isFirstCreate(inputs));
    // A lost request not found in time may still land: state records it for read to sweep.
    const outs = { ...inputs, ...outputs(key.id, publicKey, key.createdAt), lostCreate: lost || undefined };
    return { id: String(key.id), outs: jsonClean(outs) };
  },

  async read(id, props): Promise<pulumi.dynamic.ReadResult> {
    const n = keyId(id);
    // One list call serves every SshKey read at about the same time (a refresh).
    const live = await liveSshKeys().get(String(n));
    if (!live) return { id: "" };
    // Keep the text in state while the key material is the same, so a service that reformats
    // or drops the comment leaves no diff; a different key shows as drift.
    const publicKey = sameKey(live.publicKey, props.publicKey) ? String(props.publicKey) : live.publicKey;
    const inputs = { publicKey };
    if (props.lostCreate === true) {
      // The late landing of a lost create registers the same key material a second time.
      const client = getClient();
      const strays = (await liveSshKeys().list()).filter((k) => k.id !== n && sameKey(k.publicKey, props.publicKey));
      for (const stray of strays) await client.sshKeys.delete(stray.id);
    }
    const outs = { ...inputs, ...outputs(n, publicKey, live.createdAt ?? props.createdAt), lostCreate: props.lostCreate };
    return { id, props: jsonClean(outs), inputs };
  },

  async update(id, olds, news) {
    const n = keyId(id);
    const publicKey = String(news.publicKey);
    if (publicKey !== olds.publicKey) await getClient().sshKeys.update(n, publicKey);
    return { outs: jsonClean({ ...news, ...outputs(n, publicKey, olds.createdAt) }) };
  },

  async delete(id) {
    // An unknown id (400 no_ssh_key or 404) means it is already gone: success.
    await getClient().sshKeys.delete(keyId(id));
  },
};
