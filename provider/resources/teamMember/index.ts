/**
 * `TeamMember`: a person invited by e-mail to the team of the provider's API key, with a role.
 * They become a member when they accept; until then `status` is `invited`.
 */
import { resourceClass, type ImportedOutput, type Inputs } from "../kit/declare";
import type { ImportArgs } from "../kit/resource";
import { TEAM_MEMBER } from "./declare";

/** A TeamMember's inputs, each also an output of the same name. */
interface TeamMemberFields {
  /** The e-mail address invited. Changing it invites another person (the resource is replaced). */
  email: string;
  /**
   * The role given, by name: a TeamRole's `name` or one of the team's own (`manager`,
   * `member`). The service has no call that changes a member's role: a change replaces the
   * resource (the member is removed and invited again).
   */
  role: string;
}

/** What the service shows of it. */
interface TeamMemberComputed extends ImportedOutput {
  /** `invited` until the person accepts (refresh to see it change), then `member`. */
  status: TeamMemberStatus;
  /** True while the invitation is not accepted. */
  pending: boolean;
  /** The member's user id once they accepted. */
  memberId: number | undefined;
  /** When the invitation was sent (ISO 8601). */
  invitedAt: string;
}

/** Inputs of a `TeamMember` resource. */
export interface TeamMemberArgs extends ImportArgs, Inputs<TeamMemberFields> {}

/** Where a TeamMember stands: `invited` until the person accepts, then `member`. */
export type TeamMemberStatus = "invited" | "member";

/**
 * A team member, invited by e-mail.
 *
 *   const ana = new vastai.TeamMember("ana", { email: "ana@example.com", role: dev.name }, { dependsOn: [team] });
 *   export const anaStatus = ana.status; // "invited" until accepted, then "member"
 *
 * Deleting the resource removes the member (their team keys are revoked). The service has no
 * call that withdraws an invitation: deleting a resource whose invitation was never accepted
 * removes nothing, and the invitation stays usable until the service lets it expire. An
 * address that already is a member is refused at create (never taken over).
 */
export class TeamMember extends resourceClass<TeamMemberArgs, TeamMemberFields & TeamMemberComputed>(TEAM_MEMBER) {}
