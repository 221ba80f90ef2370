/**
 * The account itself and subaccount key regeneration (spec: Accounts and keys, Errors table).
 * A regenerated key replaces the old one at once: the old value gets 401 from then on.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { SimContext } from "../context";
import { account } from "../http/auth";
import { apiError, invalidArgs } from "../http/errors";
import { bodyOf } from "../http/validate";
import type { ApiKeyRecord, UserRecord } from "../store/types";
import { creditOf } from "../domain/billing";
import { newKeyValue } from "./api-keys";

/** `subaccount_user_id` as the service reads it: an integer, or a string of digits. */
function subaccountId(value: unknown): number {
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "string" && /^\d+$/.test(value.trim())) return Number(value);
  throw invalidArgs("subaccount_user_id must be a valid integer");
}

function rotate(ctx: SimContext, sub: UserRecord, old: ApiKeyRecord) {
  old.deletedAt = ctx.now();
  const fresh: ApiKeyRecord = { ...old, id: ctx.store.nextId("apiKey"), key: newKeyValue(), createdAt: ctx.now(), deletedAt: null };
  ctx.store.data.apiKeys.push(fresh);
  return { user_id: sub.id, email: sub.email, derived_key: fresh.key };
}

function regenerate(ctx: SimContext, request: FastifyRequest) {
  const owner = account(request).user;
  if (!owner.approvedForSubaccounts) throw apiError(403, "forbidden", "Only subaccount approved accounts may use this API");
  const body = bodyOf(request.body);
  const all = body.regenerate_all === true;
  const given = body.subaccount_user_id !== undefined && body.subaccount_user_id !== null;
  if (!all && !given) throw invalidArgs("Must specify subaccount_user_id or regenerate_all");
  if (all && given) throw invalidArgs("Specify only one of subaccount_user_id or regenerate_all");
  const subs = ctx.store.data.users.filter((u) => u.parentId === owner.id);
  const targets = all ? subs : subs.filter((u) => u.id === subaccountId(body.subaccount_user_id));
  if (!all && targets.length === 0) throw apiError(404, "not_found", "Subaccount not found");
  const withKeys = targets.flatMap((sub) => {
    const key = ctx.store.primaryKeyOf(sub.id);
    return key ? [{ sub, key }] : [];
  });
  if (withKeys.length === 0) throw apiError(404, "not_found", "Active subaccount key not found to regenerate");
  const regenerated = withKeys.map(({ sub, key }) => rotate(ctx, sub, key));
  ctx.store.changed();
  return { success: true, regenerated_keys: regenerated };
}

export function registerAccounts(app: FastifyInstance, ctx: SimContext): void {
  app.put("/api/v0/subaccounts/regenerate_keys", (req) => regenerate(ctx, req));
  // Lets a client learn its user id (the autoscaler templates path needs it).
  app.get("/api/v0/users/current", (req) => {
    const { user, key } = account(req);
    return {
      id: user.id,
      email: user.email,
      username: user.username,
      parent_id: user.parentId,
      is_subaccount_approved: user.approvedForSubaccounts,
      api_key_id: key.id,
      // Top-ups less charges, so it agrees with the billing history (domain/billing.ts).
      credit: creditOf(ctx, user.id),
      balance: 0,
    };
  });
}
