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
  "team_read",
  "team_write",
  "agents_read",
  "agents_write",
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
  const user = key ? ctx.store.user(key.userId) : undefined;
  if (!key || !user) throw unauthorized(request, "Invalid API key: it is unknown, was deleted or was reset");
  return { user, key };
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
