/**
 * `TeamMember`: a person invited by e-mail to the team of the provider's API key, with a role.
 * They become a member when they accept; until then `status` is `invited`.
 */
import * as pulumi from "@pulumi/pulumi";
import { ImportArgs, VastResource } from "../kit/resource";

/** Inputs of a `TeamMember` resource. */
export interface TeamMemberArgs extends ImportArgs {
  /** The e-mail address invited. Changing it invites another person (the resource is replaced). */
  email: pulumi.Input<string>;
  /**
   * The role given, by name: a TeamRole's `name` or one of the team's own (`manager`,
   * `member`). The service has no call that changes a member's role: a change replaces the
   * resource (the member is removed and invited again).
   */
  role: pulumi.Input<string>;
}

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
export class TeamMember extends VastResource {
  declare readonly email: pulumi.Output<string>;
  declare readonly role: pulumi.Output<string>;
  /** `invited` until the person accepts (refresh to see it change), then `member`. */
  declare readonly status: pulumi.Output<TeamMemberStatus>;
  /** True while the invitation is not accepted. */
  declare readonly pending: pulumi.Output<boolean>;
  /** The member's user id once they accepted. */
  declare readonly memberId: pulumi.Output<number | undefined>;
  /** When the invitation was sent (ISO 8601). */
  declare readonly invitedAt: pulumi.Output<string>;

  /** True when the resource took over an existing object (`importId`) instead of creating one. */
  declare readonly imported: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: TeamMemberArgs, opts?: pulumi.CustomResourceOptions) {
    super("teamMember", "TeamMember", name, { ...args, status: undefined, pending: undefined, memberId: undefined, invitedAt: undefined, imported: undefined }, opts);
  }
}
