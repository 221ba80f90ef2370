/**
 * SSH public keys of the account (api-facts: SSH keys). The list is a bare array whose items
 * carry the key text in `key`; a new key is also added to the account's running instances.
 * A deleted key is soft-deleted: its row stays in the list with `deleted_at` set. An account
 * that never had a key is answered 404 "No SSH keys found for the user." (vendor document).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { SimContext } from "../context";
import { account } from "../http/auth";
import { apiError, invalidArgs } from "../http/errors";
import { bodyOf, idParam, optString, reqString } from "../http/validate";
import type { SshKeyRecord } from "../store/types";

const KEY_TYPES = /^(ssh-(rsa|ed25519|dss)|ecdsa-sha2-nistp(256|384|521)|sk-(ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com) [A-Za-z0-9+/]+={0,3}( [^\r\n]*)?$/;

/** The key text trimmed, or 400 when it is not an OpenSSH public key line. */
export function checkPublicKey(text: string): string {
  const key = text.trim();
  if (!KEY_TYPES.test(key)) {
    const start = key.split(" ")[0].slice(0, 20);
    throw invalidArgs(`ssh_key must be an OpenSSH public key such as "ssh-ed25519 AAAA... user@host" (starts with "${start}")`);
  }
  return key;
}

const iso = (ms: number) => new Date(ms).toISOString();

function keyView(k: SshKeyRecord): Record<string, unknown> {
  return {
    id: k.id,
    user_id: k.userId,
    key: k.publicKey,
    public_key: k.publicKey,
    created_at: iso(k.createdAt),
    deleted_at: k.deletedAt ? iso(k.deletedAt) : null,
  };
}

function own(ctx: SimContext, request: FastifyRequest<{ Params: { id: string } }>): SshKeyRecord {
  const id = idParam(request.params.id, "ssh key id");
  const key = ctx.store.data.sshKeys.find((k) => k.id === id && k.userId === account(request).user.id && !k.deletedAt);
  if (!key) throw apiError(400, "no_ssh_key", `No SSH key with id ${id} on this account`);
  return key;
}

export function registerSshKeys(app: FastifyInstance, ctx: SimContext): void {
  app.get("/api/v0/ssh/", (req, reply) => {
    const rows = ctx.store.data.sshKeys.filter((k) => k.userId === account(req).user.id);
    if (rows.length === 0) return reply.code(404).send({ success: false, error: "not_found", msg: "No SSH keys found for the user." });
    return rows.map((k) => {
      const { public_key: _dup, ...item } = keyView(k);
      return item;
    });
  });

  app.post("/api/v0/ssh", (req) => {
    const userId = account(req).user.id;
    const given = optString(bodyOf(req.body), "ssh_key");
    // The vendor document's refusal of a create without a key.
    if (given === undefined || given.trim() === "") throw apiError(400, "no_ssh_key", "No ssh key provided");
    const text = checkPublicKey(given);
    const key: SshKeyRecord = { id: ctx.store.nextId("sshKey"), userId, publicKey: text, createdAt: ctx.now() };
    ctx.store.data.sshKeys.push(key);
    for (const inst of ctx.store.data.instances) {
      if (inst.userId === userId && inst.intendedStatus === "running") inst.sshKeyIds.push(key.id);
    }
    ctx.store.changed();
    const { key: _text, ...record } = keyView(key);
    return { success: true, key: record };
  });

  app.put<{ Params: { id: string } }>("/api/v0/ssh/:id", (req) => {
    const key = own(ctx, req);
    key.publicKey = checkPublicKey(reqString(bodyOf(req.body), "ssh_key"));
    ctx.store.changed();
    const { key: _text, ...record } = keyView(key);
    return { success: true, key: record };
  });

  app.delete<{ Params: { id: string } }>("/api/v0/ssh/:id", (req) => {
    const key = own(ctx, req);
    key.deletedAt = ctx.now();
    for (const inst of ctx.store.data.instances) inst.sshKeyIds = inst.sshKeyIds.filter((id) => id !== key.id);
    ctx.store.changed();
    return { success: true };
  });
}
