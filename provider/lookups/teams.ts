/** Lookups of the key's team (roles, members), the account's subaccounts and its audit log. */
import * as pulumi from "@pulumi/pulumi";
import type { AuditLogEntry, Subaccount, TeamMember, TeamRole } from "../client";
import { LookupOptions, clientOf } from "./common";

/** A role of the team as `getTeamRoles` returns it: id, name and the service's scopes. */
export type TeamRoleInfo = TeamRole;
/** A member of the team as `getTeamMembers` returns it: user id, address, names and roles. */
export type TeamMemberInfo = TeamMember;
/** A subaccount as `getSubaccounts` returns it. Never a key value. */
export type SubaccountInfo = Subaccount;
/** One row of the audit log as `getAuditLogs` returns it. */
export type AuditLogInfo = AuditLogEntry;

/** The roles of the key's team (`GET /api/v0/team/roles-full/`; the owner's left out, as the service lists them). Fails with the service's 404 when the key is no team's. */
export function getTeamRoles(options?: LookupOptions): Promise<TeamRoleInfo[]> {
  return clientOf(options).teams.roles();
}
/** `getTeamRoles` as an Output. */
export function getTeamRolesOutput(options?: LookupOptions): pulumi.Output<TeamRoleInfo[]> {
  return pulumi.output(getTeamRoles(options));
}

/** The members of the key's team (`GET /api/v0/team/members/`): people who accepted their invitation, the owner among them. */
export function getTeamMembers(options?: LookupOptions): Promise<TeamMemberInfo[]> {
  return clientOf(options).teams.members();
}
/** `getTeamMembers` as an Output. */
export function getTeamMembersOutput(options?: LookupOptions): pulumi.Output<TeamMemberInfo[]> {
  return pulumi.output(getTeamMembers(options));
}

/** The account's subaccounts (`GET /api/v0/subaccounts?owner=me`). */
export function getSubaccounts(options?: LookupOptions): Promise<SubaccountInfo[]> {
  return clientOf(options).subaccountAccounts.list();
}
/** `getSubaccounts` as an Output. */
export function getSubaccountsOutput(options?: LookupOptions): pulumi.Output<SubaccountInfo[]> {
  return pulumi.output(getSubaccounts(options));
}

/**
 * The account's audit log (`GET /api/v0/audit_logs/`, the vendor's `show audit-logs`; not in
 * its API document): each important call with its route, key id, address and time.
 */
export function getAuditLogs(options?: LookupOptions): Promise<AuditLogInfo[]> {
  return clientOf(options).auditLogs.list();
}
/** `getAuditLogs` as an Output. */
export function getAuditLogsOutput(options?: LookupOptions): pulumi.Output<AuditLogInfo[]> {
  return pulumi.output(getAuditLogs(options));
}
