/**
 * Bearer-key authentication and scoped-key permissions (spec: Authentication). An unknown,
 * deleted or reset key gets 401 at once; a scoped key carries only the flags it was given.
 */
import type { FastifyRequest } from "fastify";
import type { Account, SimContext } from "../context";
import { ApiError, apiError } from "./errors";

/**
 * The service's permission scopes. A key created without permissions has all of them; a
 * scoped key sends `{api: {<scope>: {...constraints}}}` and has the scopes it names.
 */
export const SCOPES = [
  "instance_read",
  "instance_write",
  "user_read",
  "user_write",
  "billing_read",
  "billing_write",
  "machine_read",
  "machine_write",
  "misc",
] as const;
export type PermissionFlag = (typeof SCOPES)[number];

/** Scopes a permission object grants. */
export function scopesOf(permissions: Record<string, unknown>): Set<string> {
  const api = permissions.api;
  return api && typeof api === "object" && !Array.isArray(api) ? new Set(Object.keys(api)) : new Set();
}

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : "";
}

function bodyKey(request: FastifyRequest): string | undefined {
  const body = request.body as Record<string, unknown> | undefined;
  const v = body && typeof body === "object" ? body.api_key : undefined;
  return typeof v === "string" ? v : undefined;
}

function unauthorized(request: FastifyRequest, msg: string): ApiError {
  if (request.routeOptions.config.errorShape === "error_msg") return new ApiError(401, { error_msg: msg });
  return apiError(401, "unauthorized", msg);
}

/** Resolves the caller or throws 401. */
export function authenticate(ctx: SimContext, request: FastifyRequest): Account {
  const mode = request.routeOptions.config.auth ?? "bearer";
  const value = bearer(request) ?? (mode === "bearer-or-body" ? bodyKey(request) : undefined);
  if (value === undefined) {
    const where = mode === "bearer-or-body" ? " (or api_key in the body)" : "";
    throw unauthorized(request, `Missing API key: send the header Authorization: Bearer <API key>${where}`);
  }
  const key = value ? ctx.store.activeKey(value) : undefined;
  if (!key && value) {
    const own = instanceKeyAccount(ctx, value);
    if (own) return own;
  }
  const user = key ? ctx.store.user(key.userId) : undefined;
  if (!key || !user) throw unauthorized(request, "Invalid API key: it is unknown, was deleted or was reset");
  return { user, key };
}

/**
 * The caller of an instance's own key (`instance_api_key`, injected as `CONTAINER_API_KEY`): the
 * instance's owner, limited to that instance. The key goes with its instance (401 after a destroy).
 */
function instanceKeyAccount(ctx: SimContext, value: string): Account | undefined {
  const inst = ctx.store.data.instances.find((i) => i.apiKey !== undefined && i.apiKey === value);
  const user = inst ? ctx.store.user(inst.userId) : undefined;
  if (!inst || !user) return undefined;
  const key = {
    id: 0,
    userId: user.id,
    name: `instance ${inst.id}`,
    key: value,
    permissions: { api: { instance_read: {}, instance_write: {} } },
    primary: false,
    createdAt: inst.createdAt,
    deletedAt: null,
  };
  return { user, key, instanceId: inst.id };
}

/**
 * 403 unless an instance's own key is used for what the service allows it (vendor docs: "it can
 * only start, stop, or destroy that specific instance"; the docs also read the instance with it):
 * `GET`, `DELETE`, and `PUT` with only `state`, of `/api/v0/instances/{that id}/`.
 */
export function checkInstanceKey(request: FastifyRequest, acc: Account): void {
  if (acc.instanceId === undefined) return;
  const params = request.params as Record<string, unknown> | undefined;
  const sameInstance = request.routeOptions.url === "/api/v0/instances/:id" && params?.id === String(acc.instanceId);
  const body = request.body;
  const onlyState =
    body !== null && typeof body === "object" && !Array.isArray(body) && Object.keys(body).length === 1 && "state" in body;
  const allowed = sameInstance && (request.method === "GET" || request.method === "DELETE" || (request.method === "PUT" && onlyState));
  if (!allowed) {
    throw apiError(403, "forbidden", `This key belongs to instance ${acc.instanceId}: it can only read, start, stop or destroy that instance`);
  }
}

export function account(request: FastifyRequest): Account {
  if (!request.sim.account) throw new Error("route used without authentication");
  return request.sim.account;
}

export function hasPermission(acc: Account, flag: PermissionFlag): boolean {
  return acc.key.permissions === null || scopesOf(acc.key.permissions).has(flag);
}

/** 403 for a scoped key without the flag a write needs. */
export function requirePermission(request: FastifyRequest, flag: PermissionFlag): Account {
  const acc = account(request);
  if (!hasPermission(acc, flag)) {
    throw apiError(403, "forbidden", `This API key lacks the permission ${flag}; use a key that has it`);
  }
  return acc;
}
