/**
 * The Team provider. The service has no call that reads a team: the team of the key is seen
 * through its role list, which answers once the key is a team's and 404 otherwise. The create
 * is refused when the key already is a team's, so a team found after a lost answer is the one
 * this create made.
 */
import { z } from "zod";
import { NotFoundError } from "../../client";
import { getClient } from "../../context";
import { type ImportableImpl, type Props, createAtMostOnce, jsonClean, lookUp, checkAndDiff } from "../kit";
import { TEAM } from "./declare";
import { withoutControlCharacters } from "../kit/text-schema";

/** The longest team name taken (the service's team names as the simulator keeps them). */
export const TEAM_NAME_LIMIT = 64;

const schema = z.object({
  name: withoutControlCharacters(z.string({ error: "must be a string" }).min(1, "must not be empty").max(TEAM_NAME_LIMIT, `must be at most ${TEAM_NAME_LIMIT} characters`)),
  transferCredit: z.number({ error: "must be a number" }).finite("must be a finite number").min(0, "must be 0 or more (dollars moved to the team)").optional(),
});

const labelOf = (props: Props) => `Team "${String(props.name)}"`;

async function roleNames(): Promise<string[]> {
  return (await getClient().teams.roles()).map((r) => r.name).sort();
}

export const provider: ImportableImpl = {
  importing: {
    type: "Team",
    refuse:
      "the service has no call that reads a team: it shows only that the provider's key already is a team's key, not which team it is (name, credit), so nothing could be verified. " +
      "TeamRole and TeamMember act on that team through the same key without a Team resource",
  },

  // No call renames a team; the credit moves only at creation, so a later change does nothing.
  ...checkAndDiff(TEAM, schema),

  async create(inputs) {
    const client = getClient();
    const name = String(inputs.name);
    if (await client.teams.isTeam()) {
      throw new Error(
        `${labelOf(inputs)}: the provider's API key already is the key of a team (the service gives a key one team). ` +
          "A Team resource creates its team and never takes over another: use the key of an account without a team. " +
          "If a run of this stack that was killed or lost its answer made this team, the service cannot show it (no call reads a team's name): " +
          "either remove the Team from the program (TeamRole and TeamMember act on the key's team without it), " +
          "or delete the team with the vendor's client (`vastai destroy team`) and run up again.",
      );
    }
    try {
      await createAtMostOnce({
        send: () => client.teams.create({ name, transferCredit: inputs.transferCredit as number | undefined }),
        // The key had no team before: a team now is the one this create made.
        recover: async () => ((await lookUp(async () => ((await client.teams.isTeam()) ? true : undefined))) ? { msg: undefined } : undefined),
      });
    } catch (error) {
      throw new Error(`${labelOf(inputs)}: creating the team failed: ${(error as Error).message}`, { cause: error });
    }
    return { id: name, outs: jsonClean({ ...inputs, roleNames: await roleNames() }) as Props };
  },

  async read(id, props) {
    if (!(await getClient().teams.isTeam())) return { id: "" };
    const inputs = jsonClean({ name: props.name ?? id, transferCredit: props.transferCredit }) as Props;
    return { id, props: { ...props, roleNames: await roleNames() }, inputs };
  },

  async update(_id, olds, news) {
    return { outs: jsonClean({ ...news, roleNames: olds.roleNames }) as Props };
  },

  async delete(id, props) {
    try {
      await getClient().teams.destroy();
    } catch (error) {
      // The service's 404: the key is no team's any more (deleted outside the program).
      if (error instanceof NotFoundError && error.fromService) return;
      throw new Error(`${labelOf({ name: props.name ?? id })}: deleting the team failed: ${(error as Error).message}`, { cause: error });
    }
  },
};
