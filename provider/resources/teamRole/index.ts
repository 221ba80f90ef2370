/**
 * `TeamRole`: a role of the team of the provider's API key, with permissions in the same form
 * as an ApiKey's (`{ instances: "write", user: "read" }`, one mapping for both).
 */
import type { ApiKeyPermissions } from "../apiKey";
import { resourceClass, type ImportedOutput, type Inputs } from "../kit/declare";
import type { ImportArgs } from "../kit/resource";
import { TEAM_ROLE } from "./declare";

/** A TeamRole's inputs, each also an output of the same name. */
interface TeamRoleFields {
  /** The role's name, as TeamMember's `role` names it. Changed in place. Not `owner`, `manager` or `member` (the team's own). */
  name: string;
  /** What members with this role may do, area by area (as ApiKey's `permissions`; at least one area). Changed in place. */
  permissions: ApiKeyPermissions;
}

/** What the service shows of it. */
interface TeamRoleComputed extends ImportedOutput {
  /** The service's numeric id of the role. */
  roleId: number;
  /** The service's scopes the role grants, sorted (`instance_read`, ...). */
  scopes: string[];
}

/** Inputs of a `TeamRole` resource. */
export interface TeamRoleArgs extends ImportArgs, Inputs<TeamRoleFields> {}

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
export class TeamRole extends resourceClass<TeamRoleArgs, TeamRoleFields & TeamRoleComputed>(TEAM_ROLE) {}
