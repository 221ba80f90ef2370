/**
 * Teams (vendor document: Team), subaccounts (`GET /api/v0/subaccounts`, `POST /api/v0/users`)
 * and the audit log (`GET /api/v0/audit_logs/`, in the vendor's client only). A team is made by
 * a key, which becomes the team's key: every team call made with it acts on that team. The
 * audit log records the writes of this module (team, roles, invitations, members, subaccounts).
 */
import { randomBytes } from "crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Account, SimContext } from "../context";
import { account, SCOPES } from "../http/auth";
import { ApiError, apiError, invalidArgs, show } from "../http/errors";
import { bodyOf, optBool, optNumber, optString, type Body } from "../http/validate";
import type { TeamRecord, TeamRoleRecord } from "../store/team-types";

const EMAIL = /^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$/;
/** A second invitation to the same address within this many seconds is refused (vendor document: 429). */
export const INVITE_COOLDOWN_S = 300;
const ALL_SCOPES = Object.fromEntries(SCOPES.map((s) => [s, {}]));
const BUILT_IN_ROLES: Array<[string, Record<string, unknown>]> = [
  ["owner", { api: ALL_SCOPES }],
  ["manager", { api: ALL_SCOPES }],
  ["member", { api: { instance_read: {}, instance_write: {}, user_read: {} } }],
];

function data(ctx: SimContext) {
  return ctx.store.data.teams;
}

function nextId(ctx: SimContext): number {
  return data(ctx).nextId++;
}

function audit(ctx: SimContext, request: FastifyRequest, args: Record<string, unknown> = {}): void {
  const acc = account(request);
  data(ctx).audit.push({ userId: acc.user.id, keyId: acc.key.id, ip: request.ip, route: request.routeOptions.url ?? request.url, args, createdAt: ctx.now() });
}

/** The team whose key made the request; 404 as the service answers a key of no team. */
function teamOf(ctx: SimContext, acc: Account): TeamRecord {
  const team = data(ctx).teams.find((t) => t.keyId === acc.key.id && t.deletedAt === null);
  if (!team) throw apiError(404, "not_found", "User is not a team account");
  return team;
}

function liveRoles(ctx: SimContext, team: TeamRecord): TeamRoleRecord[] {
  return data(ctx).roles.filter((r) => r.teamId === team.id && r.deletedAt === null);
}

/** The role's scopes as the document shows them: a list of names. */
function scopeList(r: TeamRoleRecord): string[] {
  const api = r.permissions.api;
  return api && typeof api === "object" ? Object.keys(api).sort() : [];
}

function roleView(r: TeamRoleRecord): Record<string, unknown> {
  return { id: r.id, name: r.name, permissions: scopeList(r), identifier: `${r.name}_role` };
}

/** `{api: {<scope>: {}}}` with the service's scopes (the form ApiKey permissions take). */
function permissionsOf(body: Body): Record<string, unknown> {
  const p = body.permissions;
  if (p === undefined || p === null) throw apiError(400, "invalid_args", "Missing permissions parameter");
  if (typeof p !== "object" || Array.isArray(p)) throw invalidArgs(`permissions must be an object {"api": {<scope>: {}}} (got ${show(p)})`);
  const api = (p as Body).api;
  if (!api || typeof api !== "object" || Array.isArray(api)) throw invalidArgs(`permissions.api must be an object of scopes (got ${show(api)})`);
  for (const [scope, v] of Object.entries(api)) {
    if (!(SCOPES as readonly string[]).includes(scope)) throw invalidArgs(`permissions.api.${scope} is not a scope; scopes are ${SCOPES.join(", ")}`);
    if (!v || typeof v !== "object" || Array.isArray(v)) throw invalidArgs(`permissions.api.${scope} must be an object of constraints, {} for none (got ${show(v)})`);
  }
  if (Object.keys(api).length === 0) throw invalidArgs("permissions.api must name at least one scope");
  return p as Body;
}

function roleName(body: Body): string {
  const name = optString(body, "name", 64);
  if (name === undefined || name.trim() === "") throw apiError(400, "invalid_args", "Role name is required");
  return name;
}

function createTeam(ctx: SimContext, request: FastifyRequest) {
  const acc = account(request);
  const body = bodyOf(request.body);
  const name = optString(body, "team_name", 64);
  if (name === undefined || name.trim() === "") throw apiError(400, "invalid_args", "team_name is required");
  const credit = optNumber(body, "transfer_credit") ?? 0;
  if (credit < 0) throw invalidArgs(`transfer_credit must be 0 or more (got ${credit})`);
  const teams = data(ctx).teams;
  if (teams.some((t) => t.keyId === acc.key.id && t.deletedAt === null)) throw apiError(400, "invalid_args", "You cannot create a team from within another team account");
  if (teams.some((t) => t.name === name && t.deletedAt === null)) throw apiError(400, "invalid_args", "Team name already exists");
  const team: TeamRecord = { id: nextId(ctx), name, ownerUserId: acc.user.id, keyId: acc.key.id, transferredCredit: credit, createdAt: ctx.now(), deletedAt: null };
  teams.push(team);
  for (const [role, permissions] of BUILT_IN_ROLES) data(ctx).roles.push({ id: nextId(ctx), teamId: team.id, name: role, permissions, builtIn: true, deletedAt: null });
  data(ctx).memberships.push({ teamId: team.id, userId: acc.user.id, role: "owner", removedAt: null });
  audit(ctx, request);
  ctx.store.changed();
  return { success: true, msg: "Team Successfully Created!" };
}

function destroyTeam(ctx: SimContext, request: FastifyRequest) {
  const acc = account(request);
  const team = teamOf(ctx, acc);
  if (team.ownerUserId !== acc.user.id) throw apiError(403, "not_allowed", "Only the Team's Owner may delete the team");
  const now = ctx.now();
  team.deletedAt = now;
  for (const r of data(ctx).roles) if (r.teamId === team.id && r.deletedAt === null) r.deletedAt = now;
  data(ctx).invitations = data(ctx).invitations.filter((i) => i.teamId !== team.id);
  for (const m of data(ctx).memberships) if (m.teamId === team.id && m.removedAt === null) m.removedAt = now;
  audit(ctx, request);
  ctx.store.changed();
  return { success: true, msg: "Team Successfully Deleted!", pkey_id: acc.key.id };
}

function createRole(ctx: SimContext, request: FastifyRequest) {
  const team = teamOf(ctx, account(request));
  const body = bodyOf(request.body);
  const name = roleName(body);
  const permissions = permissionsOf(body);
  if (liveRoles(ctx, team).some((r) => r.name === name)) throw apiError(400, "invalid_args", `Role ${name} already exists`);
  data(ctx).roles.push({ id: nextId(ctx), teamId: team.id, name, permissions, builtIn: false, deletedAt: null });
  audit(ctx, request, { name });
  ctx.store.changed();
  return { msg: "success" };
}

const roleNotFound = () => apiError(404, "not_found", "Specified role not found");

function updateRole(ctx: SimContext, request: FastifyRequest<{ Params: { id: string } }>) {
  const team = teamOf(ctx, account(request));
  const id = Number(request.params.id);
  if (!Number.isInteger(id) || id <= 0) throw invalidArgs(`role id must be a positive integer (got ${show(request.params.id)})`);
  const role = liveRoles(ctx, team).find((r) => r.id === id);
  if (!role) throw roleNotFound();
  if (role.name === "owner") throw apiError(403, "not_allowed", "The owner role cannot be changed");
  const body = bodyOf(request.body);
  const name = roleName(body);
  const permissions = permissionsOf(body);
  if (name !== role.name && liveRoles(ctx, team).some((r) => r.name === name)) throw apiError(400, "invalid_args", `Role ${name} already exists`);
  for (const m of data(ctx).memberships) if (m.teamId === team.id && m.role === role.name) m.role = name;
  role.name = name;
  role.permissions = permissions;
  audit(ctx, request, { id });
  ctx.store.changed();
  return `Successfully Updated Team Role For ${name}`;
}

function removeRole(ctx: SimContext, request: FastifyRequest<{ Params: { name: string } }>) {
  const team = teamOf(ctx, account(request));
  const name = request.params.name;
  if (!name) throw apiError(400, "invalid_args", "Role name is required");
  const role = liveRoles(ctx, team).find((r) => r.name === name);
  if (!role) throw roleNotFound();
  if (role.name === "owner") throw apiError(403, "not_allowed", "Cannot delete the team owner role");
  role.deletedAt = ctx.now();
  audit(ctx, request, { name });
  ctx.store.changed();
  return { status: "success", message: "Role removed from team" };
}

function invite(ctx: SimContext, request: FastifyRequest) {
  const acc = account(request);
  const team = teamOf(ctx, acc);
  // Query arguments only, as the vendor's client, its SDK and the community Terraform provider
  // send them (the document describes a JSON body, which is not read here).
  const source: Body = { ...(request.query as Body) };
  const email = optString(source, "email", 64);
  const role = optString(source, "role", 64);
  if (!email || !EMAIL.test(email)) throw invalidArgs(`email must be an e-mail address, sent as a query argument (got ${show(email)})`);
  if (!role) throw invalidArgs("role is required (a query argument)");
  if (!liveRoles(ctx, team).some((r) => r.name === role && r.name !== "owner")) throw invalidArgs(`role ${show(role)} is not a role of this team`);
  if (email.toLowerCase() === acc.user.email.toLowerCase()) throw apiError(400, "invalid_args", "User cannot be invited to their own team.");
  const member = ctx.store.data.users.find((u) => u.email.toLowerCase() === email.toLowerCase());
  if (member && data(ctx).memberships.some((m) => m.teamId === team.id && m.userId === member.id && m.removedAt === null)) {
    throw apiError(400, "invalid_args", "User is already a member of this team.");
  }
  const now = ctx.now();
  const pending = data(ctx).invitations.find((i) => i.teamId === team.id && i.email.toLowerCase() === email.toLowerCase() && i.acceptedAt === null);
  if (pending) {
    const ago = Math.floor((now - pending.sentAt) / 1000);
    if (ago < INVITE_COOLDOWN_S) throw new ApiError(429, { msg: `Error: invitation already sent to ${email} only ${ago} seconds ago.` });
    pending.sentAt = now;
    pending.role = role;
  } else {
    data(ctx).invitations.push({ id: nextId(ctx), teamId: team.id, email, role, sentAt: now, acceptedAt: null });
  }
  audit(ctx, request, { email, role });
  ctx.store.changed();
  return { success: true, msg: `New invitation sent to ${email}` };
}

function members(ctx: SimContext, request: FastifyRequest) {
  const team = teamOf(ctx, account(request));
  return data(ctx)
    .memberships.filter((m) => m.teamId === team.id && m.removedAt === null)
    .map((m) => {
      const u = ctx.store.user(m.userId);
      return { id: m.userId, username: u?.username ?? "", email: u?.email ?? "", fullname: u?.username ?? "", roles: [m.role] };
    });
}

function removeMember(ctx: SimContext, request: FastifyRequest<{ Params: { id: string } }>) {
  const team = teamOf(ctx, account(request));
  const id = Number(request.params.id);
  if (id === team.ownerUserId) throw new ApiError(400, { msg: "Cannot remove the team owner from the team" });
  const m = data(ctx).memberships.find((x) => x.teamId === team.id && x.userId === id && x.removedAt === null);
  if (!m) throw new ApiError(404, { status: "failure", message: "No user was removed from the team." });
  m.removedAt = ctx.now();
  audit(ctx, request, { id });
  ctx.store.changed();
  return { status: "success", message: "User removed from the team." };
}

/** Control: the person invited at `email` accepts (a user of that address is made when none exists). */
function accept(ctx: SimContext, raw: unknown) {
  const email = optString(bodyOf(raw), "email");
  if (!email) throw invalidArgs("email is required");
  const inv = data(ctx).invitations.find((i) => i.email.toLowerCase() === email.toLowerCase() && i.acceptedAt === null);
  if (!inv) throw apiError(404, "not_found", `No pending invitation for ${email}`);
  let user = ctx.store.data.users.find((u) => u.email.toLowerCase() === email.toLowerCase());
  if (!user) {
    user = { id: 20000 + nextId(ctx), email, username: email.split("@")[0], approvedForSubaccounts: false, parentId: null };
    ctx.store.data.users.push(user);
  }
  inv.acceptedAt = ctx.now();
  data(ctx).memberships.push({ teamId: inv.teamId, userId: user.id, role: inv.role, removedAt: null });
  ctx.store.changed();
  return { success: true, user_id: user.id };
}

function subaccounts(ctx: SimContext, request: FastifyRequest) {
  const owner = account(request).user;
  const keys = ctx.store.data.apiKeys;
  const users = ctx.store.data.users
    .filter((u) => u.parentId === owner.id)
    .map((u) => {
      const key = keys.find((k) => k.userId === u.id && k.primary);
      // The account is as old as its first key; a subaccount without a key shows no key id.
      return {
        id: u.id,
        parent_id: u.parentId,
        email: u.email,
        username: u.username,
        ...(key && key.deletedAt === null ? { key_id: key.id } : {}),
        created_at: new Date(key?.createdAt ?? 0).toISOString(),
        deleted_at: null,
      };
    });
  return { users };
}

function createUser(ctx: SimContext, request: FastifyRequest) {
  const acc = account(request);
  const body = bodyOf(request.body);
  const email = optString(body, "email", 64);
  const username = optString(body, "username", 64);
  const password = optString(body, "password", 256);
  optBool(body, "host_only");
  if (body.parent_id !== "me") throw apiError(400, "missing_auth_value", 'Only subaccounts can be created with an API key: send parent_id "me"');
  if (!email || !EMAIL.test(email) || /@vast/i.test(email)) throw apiError(400, "invalid_email", "Email address not allowed");
  if (!username) throw apiError(400, "invalid_request", "username is required");
  if (!password) throw apiError(400, "invalid_request", "password is required");
  const users = ctx.store.data.users;
  if (users.some((u) => u.email.toLowerCase() === email.toLowerCase() || u.username === username)) throw apiError(409, "user_exists", "A user with this email or username already exists");
  const user = { id: 30000 + nextId(ctx), email, username, approvedForSubaccounts: false, parentId: acc.user.id };
  users.push(user);
  const key = { id: ctx.store.nextId("apiKey"), userId: user.id, name: "primary", key: randomBytes(32).toString("hex"), permissions: null, primary: true, createdAt: ctx.now(), deletedAt: null };
  ctx.store.data.apiKeys.push(key);
  audit(ctx, request, { username });
  ctx.store.changed();
  return { id: user.id, username, email, key_id: key.id };
}

function auditLogs(ctx: SimContext, request: FastifyRequest) {
  const userId = account(request).user.id;
  return data(ctx)
    .audit.filter((a) => a.userId === userId)
    .map((a) => ({ ip_address: a.ip, api_key_id: a.keyId, created_at: a.createdAt / 1000, api_route: a.route, args: a.args }));
}

export function registerTeams(app: FastifyInstance, ctx: SimContext): void {
  app.post("/api/v0/team/", (req) => createTeam(ctx, req));
  app.delete("/api/v0/team/", (req) => destroyTeam(ctx, req));
  app.get("/api/v0/team/roles-full/", (req) => liveRoles(ctx, teamOf(ctx, account(req))).filter((r) => r.name !== "owner").map(roleView));
  app.get<{ Params: { name: string } }>("/api/v0/team/roles/:name/", (req) => {
    const role = liveRoles(ctx, teamOf(ctx, account(req))).find((r) => r.name === req.params.name);
    if (!role) throw roleNotFound();
    return roleView(role);
  });
  app.post("/api/v0/team/roles/", (req) => createRole(ctx, req));
  app.put<{ Params: { id: string } }>("/api/v0/team/roles/:id/", (req, reply) => reply.type("application/json").send(JSON.stringify(updateRole(ctx, req))));
  app.delete<{ Params: { name: string } }>("/api/v0/team/roles/:name/", (req) => removeRole(ctx, req));
  app.post("/api/v0/team/invite/", (req) => invite(ctx, req));
  app.get("/api/v0/team/members/", (req) => members(ctx, req));
  app.delete<{ Params: { id: string } }>("/api/v0/team/members/:id/", (req) => removeMember(ctx, req));
  app.post("/_sim/team/invitations/accept", { config: { auth: "none" } }, (req) => accept(ctx, req.body));
  app.get("/api/v0/subaccounts", (req) => subaccounts(ctx, req));
  app.post("/api/v0/users/", (req) => createUser(ctx, req));
  app.get("/api/v0/audit_logs/", (req) => auditLogs(ctx, req));
}
