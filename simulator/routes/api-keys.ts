/**
 * API keys of the account (api-facts: API keys). The value is shown once, at creation; the
 * primary key cannot be deleted; a deleted key gets 401 at once (spec: API key lifecycle).
 */
import { randomBytes } from "crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { SimContext } from "../context";
import { account } from "../http/auth";
import { SCOPES } from "../http/auth";
import { apiError, notFound, show } from "../http/errors";
import { bodyOf, idParam, optObject, optString } from "../http/validate";
import type { ApiKeyRecord, Permissions } from "../store/types";

export function newKeyValue(): string {
  return randomBytes(32).toString("hex");
}

const invalidPermissions = (msg: string) => apiError(400, "invalid_permissions", msg);

/** `{api: {<scope>: {constraints}}}` with the service's scopes: the only form the service knows. */
function permissionsOf(request: FastifyRequest): Permissions | null {
  const p = optObject(bodyOf(request.body), "permissions");
  if (p === undefined) return null;
  if ("api" in p) {
    const api = p.api;
    if (!api || typeof api !== "object" || Array.isArray(api)) throw invalidPermissions(`permissions.api must be an object of scopes (got ${show(api)})`);
    for (const [scope, v] of Object.entries(api)) {
      if (!(SCOPES as readonly string[]).includes(scope)) throw invalidPermissions(`permissions.api.${scope} is not a scope; scopes are ${SCOPES.join(", ")}`);
      if (!v || typeof v !== "object" || Array.isArray(v)) throw invalidPermissions(`permissions.api.${scope} must be an object of constraints, {} for none (got ${show(v)})`);
    }
    return p;
  }
  const [flag] = Object.keys(p);
  throw invalidPermissions(`permissions.${flag ?? "api"} is not known; send {"api": {<scope>: {}}} with scopes ${SCOPES.join(", ")}`);
}

function keyView(k: ApiKeyRecord): Record<string, unknown> {
  return {
    id: k.id,
    name: k.name,
    key: null,
    user_id: k.userId,
    // The service lists the scopes as `rights` (JSON text); a full-access key has none to list.
    ...(k.permissions === null ? {} : { rights: JSON.stringify(k.permissions) }),
    primary: k.primary,
    created_at: k.createdAt / 1000,
  };
}

function create(ctx: SimContext, request: FastifyRequest) {
  const userId = account(request).user.id;
  const body = bodyOf(request.body);
  const name = optString(body, "name", 200) ?? "";
  const permissions = permissionsOf(request);
  const k: ApiKeyRecord = {
    id: ctx.store.nextId("apiKey"),
    userId,
    name,
    key: newKeyValue(),
    permissions,
    primary: false,
    createdAt: ctx.now(),
    deletedAt: null,
  };
  ctx.store.data.apiKeys.push(k);
  ctx.store.changed();
  return { success: true, id: k.id, key: k.key, permissions };
}

function remove(ctx: SimContext, request: FastifyRequest<{ Params: { id: string } }>) {
  const userId = account(request).user.id;
  const id = idParam(request.params.id, "api key id");
  const k = ctx.store.data.apiKeys.find((x) => x.id === id && x.userId === userId && x.deletedAt === null);
  if (!k) throw notFound("not_found", `No API key with id ${id} on this account`);
  if (k.primary) throw apiError(400, "invalid_args", "The primary API key cannot be deleted");
  k.deletedAt = ctx.now();
  ctx.store.changed();
}

/** The service acknowledges a delete with a bare JSON string. */
export const API_KEY_DELETED = "Successfully Deleted API Key";

export function registerApiKeys(app: FastifyInstance, ctx: SimContext): void {
  app.post("/api/v0/auth/apikeys", (req) => create(ctx, req));
  app.get("/api/v0/auth/apikeys", (req) => {
    const userId = account(req).user.id;
    return { apikeys: ctx.store.data.apiKeys.filter((k) => k.userId === userId && k.deletedAt === null).map(keyView) };
  });
  app.delete<{ Params: { id: string } }>("/api/v0/auth/apikeys/:id/", (req, reply) => {
    remove(ctx, req);
    return reply.type("application/json").send(JSON.stringify(API_KEY_DELETED));
  });
}
