/** Wire schemas (snake_case) of teams, roles, members, subaccounts and audit logs. */
import { z } from "zod";
import { anyNumber, anyString, idNumber, mapped, optString, timestampLike, withoutSecrets } from "./schema-helpers";
import { API_KEY_SCOPES, scopesOfPermissions, type ApiKeyPermissions, type ApiKeyScope } from "./types-account";
import type { AuditLogEntry, CreatedSubaccount, Subaccount, TeamMember, TeamRole } from "./types-teams";

export type { AuditLogEntry, CreatedSubaccount, CreateSubaccountInput, CreateTeamInput, Subaccount, TeamMember, TeamRole, TeamRoleInput } from "./types-teams";

/**
 * A role's permissions: the permission object `{api: {<scope>: {}}}` (as sent), the same as
 * JSON text, or a list of scope names (the document's example); anything else grants nothing.
 */
export function roleScopes(v: unknown): ApiKeyScope[] {
  if (typeof v === "string") {
    try {
      return roleScopes(JSON.parse(v));
    } catch {
      return [];
    }
  }
  if (Array.isArray(v)) return v.filter((s): s is ApiKeyScope => (API_KEY_SCOPES as readonly string[]).includes(s)).sort();
  if (v && typeof v === "object") return scopesOfPermissions(v as ApiKeyPermissions) ?? [];
  return [];
}

export const teamRoleSchema: z.ZodType<TeamRole> = mapped(
  { id: idNumber, name: z.string(), permissions: z.unknown().optional(), identifier: anyString },
  (r, raw): TeamRole => ({ id: r.id, name: r.name, scopes: roleScopes(r.permissions), identifier: r.identifier, raw }),
);

/** `GET /team/roles-full/`: an array of roles (the owner's left out by the service). */
export const teamRoleListResponse: z.ZodType<TeamRole[]> = z.array(teamRoleSchema);

export const teamMemberSchema: z.ZodType<TeamMember> = mapped(
  { id: idNumber, email: optString, username: optString, fullname: optString, roles: z.array(z.string()).nullish() },
  (m, raw): TeamMember => ({ id: m.id, email: m.email, username: m.username, fullname: m.fullname, roles: m.roles ?? [], raw }),
);

/** `GET /team/members/`: an array of members. */
export const teamMemberListResponse: z.ZodType<TeamMember[]> = z.array(teamMemberSchema);

/** Fields of a user row that hold key values: never kept in `raw`. */
const KEY_FIELDS = ["api_key", "key", "derived_key"];

export const subaccountSchema: z.ZodType<Subaccount> = mapped(
  { id: idNumber, parent_id: anyNumber, email: optString, username: optString, key_id: anyNumber, created_at: timestampLike, deleted_at: timestampLike },
  (s, raw): Subaccount => ({
    id: s.id,
    parentId: s.parent_id,
    email: s.email,
    username: s.username,
    keyId: s.key_id,
    createdAt: s.created_at,
    deletedAt: s.deleted_at,
    raw: withoutSecrets(raw, KEY_FIELDS),
  }),
);

/** `{users: [...]}`; without the key it is refused, not read as "none". */
export const subaccountListResponse: z.ZodType<Subaccount[]> = z.looseObject({ users: z.array(subaccountSchema).nullable() }).transform((r) => r.users ?? []);

export const subaccountCreateResponse: z.ZodType<CreatedSubaccount> = z
  .looseObject({ id: idNumber, email: optString, username: optString, key_id: anyNumber })
  .transform((r) => ({ id: r.id, email: r.email, username: r.username, keyId: r.key_id }));

export const auditLogSchema: z.ZodType<AuditLogEntry> = mapped(
  { ip_address: anyString, api_key_id: anyNumber, created_at: timestampLike, api_route: anyString, args: z.unknown().optional() },
  (a, raw): AuditLogEntry => ({ ipAddress: a.ip_address, apiKeyId: a.api_key_id, createdAt: a.created_at, apiRoute: a.api_route, args: a.args, raw }),
);

/** `GET /audit_logs/`: an array of rows (the vendor's client reads it so), or `{audit_logs: [...]}`. */
export const auditLogListResponse: z.ZodType<AuditLogEntry[]> = z.union([
  z.array(auditLogSchema),
  z.looseObject({ audit_logs: z.array(auditLogSchema).nullable() }).transform((r) => r.audit_logs ?? []),
]);

/** `POST /team/`: `{success, msg}`. */
export const teamCreateResponse = z.looseObject({ success: z.boolean().optional(), msg: optString }).transform((r) => ({ msg: r.msg }));

/** `DELETE /team/`: `{success, msg, pkey_id}`. */
export const teamDestroyResponse = z.looseObject({ success: z.boolean().optional(), pkey_id: anyNumber }).transform((r) => ({ ownerKeyId: r.pkey_id }));
