/**
 * `Team`: a team account made by the provider's API key. The service makes the key that
 * created the team the team's key: every team call made with it (roles, invitations,
 * members, removing the team) acts on that team, so one key has at most one team.
 */
import { resourceClass, type Inputs } from "../kit/declare";
import { TEAM } from "./declare";

/** A Team's inputs, each also an output of the same name. */
interface TeamFields {
  /** The team's name, unique on the service. Changing it makes a new team (the service cannot rename one). */
  name: string;
  /** Dollars moved from your personal credit to the team when it is created (default 0). Used only at creation. */
  transferCredit?: number;
}

/** What the service shows of it. */
interface TeamComputed {
  /** The default roles the service made with the team (owner, manager, member), as listed at creation. */
  roleNames: string[];
}

/** Inputs of a `Team` resource. */
export interface TeamArgs extends Inputs<TeamFields> {}

/**
 * A team. Create TeamRole and TeamMember resources after it (`dependsOn: [team]`): they act on
 * the team of the same key.
 *
 *   const team = new vastai.Team("ml", { name: "ml-research" });
 *
 * Deleting the resource deletes the team with its roles, invitations, memberships and team
 * keys; the owner's key becomes a personal key again. A key that already is a team's key is
 * refused: a Team resource never takes over a team it did not create.
 */
export class Team extends resourceClass<TeamArgs, TeamFields & TeamComputed>(TEAM) {}
