/**
 * `TeamRole`: a role of the team of the provider's API key, with permissions in the same form
 * as an ApiKey's (`{ instances: "write", user: "read" }`, one mapping for both).
 */
import * as pulumi from "@pulumi/pulumi";
import type { ApiKeyPermissions } from "../apiKey";
import { ImportArgs, VastResource } from "../kit/resource";

/** Inputs of a `TeamRole` resource. */
export interface TeamRoleArgs extends ImportArgs {
  /** The role's name, as TeamMember's `role` names it. Changed in place. Not `owner`, `manager` or `member` (the team's own). */
  name: pulumi.Input<string>;
  /** What members with this role may do, area by area (as ApiKey's `permissions`; at least one area). Changed in place. */
  permissions: pulumi.Input<ApiKeyPermissions>;
}

/**
 * A role of the key's team.
 *
 *   const dev = new vastai.TeamRole("dev", { name: "developer", permissions: { instances: "write", user: "read" } }, { dependsOn: [team] });
 *
 * Name and permissions change in place. Deleting the resource removes the role. The service
 * holds nowhere to mark a role as this program's: a create is refused when the team already
 * has a role of that name, so a role made outside the program is never taken over (nor one a
 * killed run made: remove it, or import nothing and rename).
 */
export class TeamRole extends VastResource {
  declare readonly name: pulumi.Output<string>;
  declare readonly permissions: pulumi.Output<ApiKeyPermissions>;
  /** The service's numeric id of the role. */
  declare readonly roleId: pulumi.Output<number>;
  /** The service's scopes the role grants, sorted (`instance_read`, ...). */
  declare readonly scopes: pulumi.Output<string[]>;

  /** True when the resource took over an existing object (`importId`) instead of creating one. */
  declare readonly imported: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: TeamRoleArgs, opts?: pulumi.CustomResourceOptions) {
    super("teamRole", "TeamRole", name, { ...args, roleId: undefined, scopes: undefined, imported: undefined }, opts);
  }
}
