/**
 * Teams in the simulator: a team is an account of its own, made by a key that becomes the
 * team's key (vendor document: create team). Roles, invitations and memberships belong to a
 * team; the audit log holds the account's important writes.
 */

export interface TeamRecord {
  id: number;
  name: string;
  /** The user who created it (the owner). */
  ownerUserId: number;
  /** The key that created it: the team's key, through which every team call acts. */
  keyId: number;
  transferredCredit: number;
  createdAt: number;
  deletedAt: number | null;
}

export interface TeamRoleRecord {
  id: number;
  teamId: number;
  name: string;
  /** The permission object as sent: `{api: {<scope>: {}}}`. */
  permissions: Record<string, unknown>;
  /** owner, manager and member are made with the team; the owner's role cannot be removed. */
  builtIn: boolean;
  deletedAt: number | null;
}

export interface TeamInvitationRecord {
  id: number;
  teamId: number;
  email: string;
  role: string;
  sentAt: number;
  /** Set when the person accepted (`POST /_sim/team/invitations/accept`). */
  acceptedAt: number | null;
}

export interface TeamMembershipRecord {
  teamId: number;
  userId: number;
  role: string;
  removedAt: number | null;
}

export interface AuditRecord {
  userId: number;
  keyId: number;
  ip: string;
  route: string;
  args: Record<string, unknown>;
  createdAt: number;
}

export interface TeamData {
  teams: TeamRecord[];
  roles: TeamRoleRecord[];
  invitations: TeamInvitationRecord[];
  memberships: TeamMembershipRecord[];
  audit: AuditRecord[];
  nextId: number;
}

export function emptyTeamData(): TeamData {
  return { teams: [], roles: [], invitations: [], memberships: [], audit: [], nextId: 1 };
}
