/** Public types of teams (roles, members, invitations), subaccounts and audit logs. */
import type { ApiKeyScope } from "./types-account";

/** What creating a team sends: its name and the credit moved from the caller's account. */
export interface CreateTeamInput {
  /** The team's name (unique on the service). */
  name: string;
  /** Dollars moved from the caller's personal credit to the team; default 0. */
  transferCredit?: number;
}

/** A role of the team, as the service lists it. */
export interface TeamRole {
  id: number;
  name: string;
  /** The service's scopes the role grants, sorted (the same scopes as an API key's). */
  scopes: ApiKeyScope[];
  /** The service's identifier of the role, when it gives one. */
  identifier?: string;
  /** The record as sent. */
  raw: Record<string, unknown>;
}

/** What creating or editing a role sends: its name and scopes. */
export interface TeamRoleInput {
  name: string;
  /** The scopes to grant, sent as the permission object `{api: {<scope>: {}}}`. */
  scopes: readonly ApiKeyScope[];
}

/** A member of the team, as the service lists it. */
export interface TeamMember {
  /** The member's user id (what removing a member takes). */
  id: number;
  email?: string;
  username?: string;
  fullname?: string;
  /** The names of the member's roles. */
  roles: string[];
  /** The record as sent. */
  raw: Record<string, unknown>;
}

/** A subaccount of the caller, as `GET /api/v0/subaccounts` lists it. */
export interface Subaccount {
  /** The subaccount's user id. */
  id: number;
  parentId?: number;
  email?: string;
  username?: string;
  /** The id of the subaccount's API key. */
  keyId?: number;
  createdAt?: string | number | null;
  /** Set when the subaccount was deleted. */
  deletedAt?: string | number | null;
  /** The record as sent, without key values. */
  raw: Record<string, unknown>;
}

/** What creating a subaccount sends. The password is a secret: it is never logged or kept in plain state. */
export interface CreateSubaccountInput {
  email: string;
  username: string;
  password: string;
  /** Restricted to hosting (`host_only`); default false. */
  hostOnly?: boolean;
}

/** A subaccount just made. */
export interface CreatedSubaccount {
  id: number;
  email?: string;
  username?: string;
  keyId?: number;
}

/** One row of the account's audit log: an important call made with one of its keys. */
export interface AuditLogEntry {
  /** Where the call came from. */
  ipAddress?: string;
  /** The API key it was made with. */
  apiKeyId?: number;
  /** When, as the service gives it (Unix seconds or ISO 8601 text). */
  createdAt?: string | number | null;
  /** The route called, for example `/api/v0/instances/{id}/`. */
  apiRoute?: string;
  /** The call's arguments as the service records them. */
  args?: unknown;
  /** The record as sent. */
  raw: Record<string, unknown>;
}
