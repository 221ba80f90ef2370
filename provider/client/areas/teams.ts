/**
 * Teams (`/api/v0/team/...`): the team of the key, its roles and its members; the account's
 * subaccounts; and the audit log. A team is an account of its own: the key that created it is
 * the team's key, and every team call made with it acts on that team.
 */
import type { RequestCore } from "../core";
import type { DocumentedShape } from "../core";
import { ENDPOINTS } from "../endpoints";
import { NotFoundError, VastValidationError } from "../errors";
import { registerSecret } from "../redact";
import { acknowledgedResponse } from "../schemas";
import {
  auditLogListResponse,
  subaccountCreateResponse,
  subaccountListResponse,
  teamCreateResponse,
  teamDestroyResponse,
  teamMemberListResponse,
  teamRoleListResponse,
  teamRoleSchema,
} from "../schemas-teams";
import { API_KEY_SCOPES, permissionsOfScopes } from "../types-account";
import type { AuditLogEntry, CreatedSubaccount, CreateSubaccountInput, CreateTeamInput, Subaccount, TeamMember, TeamRole, TeamRoleInput } from "../types-teams";
import type { DeleteResult } from "../types-templates";
import { SUCCESS_TRUE, deleteConfirmed, writeSeen } from "./confirm";

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** `{status: "success", message}`: the documented answer of removing a role or a member. */
const STATUS_SUCCESS: DocumentedShape = { shape: '{status: "success"}', test: (json) => isRecord(json) && json.status === "success" };

function roleBody(input: TeamRoleInput): Record<string, unknown> {
  if (typeof input.name !== "string" || input.name.trim() === "") throw new VastValidationError("team role name must not be empty");
  const unknown = input.scopes.filter((s) => !(API_KEY_SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) throw new VastValidationError(`${unknown.join(", ")} is not a scope; scopes are ${API_KEY_SCOPES.join(", ")}`);
  if (input.scopes.length === 0) throw new VastValidationError("a team role must grant at least one scope");
  return { name: input.name, permissions: permissionsOfScopes(input.scopes) };
}

/** The team of the key, its roles and its members. */
export class TeamsApi {
  constructor(private readonly core: RequestCore) {}

  /**
   * Create a team; the key used becomes the team's key. Not resent if the response is lost:
   * read the roles (`roles()` answers once the key is a team's) to find out.
   */
  async create(input: CreateTeamInput): Promise<{ msg?: string }> {
    const answer = await this.core.request({ endpoint: ENDPOINTS.teamCreate, body: { team_name: input.name, transfer_credit: input.transferCredit ?? 0 }, schema: teamCreateResponse });
    // The documented answer alone proves nothing: the key must now be a team's.
    await writeSeen(`team ${JSON.stringify(input.name)}`, "create", ENDPOINTS.teamCreate, async () => ((await this.isTeam()) ? null : "the key is still no team's (the service answers it has no team roles)"));
    return answer;
  }

  /**
   * Delete the key's team with its roles, invitations, memberships and keys; the owner's key
   * becomes a personal key again (its id is `ownerKeyId`). Only the owner may (403 otherwise).
   */
  async destroy(): Promise<{ ownerKeyId?: number }> {
    return this.core.request({ endpoint: ENDPOINTS.teamDestroy, schema: teamDestroyResponse, documented: SUCCESS_TRUE });
  }

  /** Whether the key is a team's: the role list answers; a key of no team gets the service's 404. */
  async isTeam(): Promise<boolean> {
    try {
      await this.roles();
      return true;
    } catch (error) {
      if (error instanceof NotFoundError && error.fromService) return false;
      throw error;
    }
  }

  /** The team's roles, the owner's left out (as the service lists them). */
  roles(): Promise<TeamRole[]> {
    return this.core.request({ endpoint: ENDPOINTS.teamRolesList, schema: teamRoleListResponse });
  }

  /** One role by name, or null when the team has none of that name. */
  async role(name: string): Promise<TeamRole | null> {
    try {
      return await this.core.request({ endpoint: ENDPOINTS.teamRoleGet, params: { name }, schema: teamRoleSchema });
    } catch (error) {
      if (error instanceof NotFoundError && error.fromService) return null;
      throw error;
    }
  }

  /** Create a role. The answer names no id: read the role by name. Not resent if the response is lost. */
  async createRole(input: TeamRoleInput): Promise<void> {
    await this.core.request({ endpoint: ENDPOINTS.teamRoleCreate, body: roleBody(input), schema: acknowledgedResponse });
  }

  /** Rename a role or change its scopes in place (by its id). */
  async updateRole(id: number, input: TeamRoleInput): Promise<void> {
    await this.core.request({ endpoint: ENDPOINTS.teamRoleUpdate, params: { id }, body: roleBody(input), schema: acknowledgedResponse });
  }

  /** Remove a role by name; the service's 404 resolves `{alreadyGone: true}`. */
  deleteRole(name: string): Promise<DeleteResult> {
    return deleteConfirmed({
      what: `team role ${JSON.stringify(name)}`,
      // The documented answer alone proves nothing: the delete counts once a read shows it gone.
      readBack: true,
      run: () => this.core.request({ endpoint: ENDPOINTS.teamRoleDelete, params: { name }, schema: acknowledgedResponse, documented: STATUS_SUCCESS }),
      stillThere: async () => (await this.role(name)) !== null,
    });
  }

  /**
   * Invite `email` with role `role`; the person becomes a member when they accept. The service
   * refuses a second invitation to the same address within 300 s (429). Not resent if lost.
   *
   * Sent as query arguments, as the vendor's client, its SDK and the community Terraform
   * provider send them, and the same two values as the JSON body the vendor's document
   * describes: both forms carry the same values, so whichever the service reads, it reads these.
   */
  async invite(email: string, role: string): Promise<void> {
    // The service lists no invitations to read back: an answer without the documented
    // `{success: true}` (a `200 {}` from another server) is unreadable, not a sent invitation.
    await this.core.request({ endpoint: ENDPOINTS.teamInvite, query: { email, role }, body: { email, role }, schema: acknowledgedResponse, documented: SUCCESS_TRUE });
  }

  /** The team's members (people who accepted their invitation). */
  members(): Promise<TeamMember[]> {
    return this.core.request({ endpoint: ENDPOINTS.teamMembersList, schema: teamMemberListResponse });
  }

  /** Remove a member by user id (their team keys are revoked); the service's 404 resolves `{alreadyGone: true}`. */
  removeMember(id: number): Promise<DeleteResult> {
    return deleteConfirmed({
      what: `team member ${id}`,
      // The documented answer alone proves nothing: the delete counts once a read shows it gone.
      readBack: true,
      run: () => this.core.request({ endpoint: ENDPOINTS.teamMemberRemove, params: { id }, schema: acknowledgedResponse, documented: STATUS_SUCCESS }),
      stillThere: async () => (await this.members()).some((m) => m.id === id),
    });
  }
}

/** Subaccounts of the caller: child accounts it created. */
export class SubaccountListApi {
  constructor(private readonly core: RequestCore) {}

  /** The caller's subaccounts (`owner=me`, as the vendor's client asks). */
  list(): Promise<Subaccount[]> {
    return this.core.request({ endpoint: ENDPOINTS.subaccountsList, query: { owner: "me" }, schema: subaccountListResponse });
  }

  /** Create a subaccount of the caller (`parent_id: "me"`). The password is registered as a secret first. Not resent if lost. */
  create(input: CreateSubaccountInput): Promise<CreatedSubaccount> {
    registerSecret(input.password);
    return this.core.request({
      endpoint: ENDPOINTS.subaccountsCreate,
      body: { email: input.email, username: input.username, password: input.password, host_only: input.hostOnly ?? false, parent_id: "me" },
      schema: subaccountCreateResponse,
    });
  }
}

/** The account's audit log. */
export class AuditLogsApi {
  constructor(private readonly core: RequestCore) {}

  /** The account's history of important calls: route, key id, address and time of each. */
  list(): Promise<AuditLogEntry[]> {
    return this.core.request({ endpoint: ENDPOINTS.auditLogs, schema: auditLogListResponse });
  }
}
