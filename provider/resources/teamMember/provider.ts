/**
 * The TeamMember provider. An invitation is sent by e-mail with a role; the service lists
 * members only (people who accepted), never invitations, so the resource says `invited` until
 * the address shows up among the members. A member is removed by user id. The id is the
 * address, lower-cased.
 */
import { z } from "zod";
import { RateLimitError, ResponseLostError, type TeamMember as LiveMember, type VastClient } from "../../client";
import { getClient } from "../../context";
import { type ImportableImpl, type Props, jsonClean, warnOnce, recordedUpdate, checkAndDiff } from "../kit";
import { TEAM_MEMBER } from "./declare";

const EMAIL = /^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$/;
/** The service's answer to a second invitation within 300 s: the first one was sent. */
const ALREADY_SENT = /invitation already sent/i;

const schema = z.object({
  email: z.string({ error: "must be a string" }).max(64, "must be at most 64 characters").regex(EMAIL, "must be an e-mail address such as ana@example.com"),
  role: z
    .string({ error: "must be a string" })
    .min(1, "must not be empty")
    .refine((r) => r !== "owner", { message: "must not be owner (a team has one owner: the account that created it)" }),
});

const labelOf = (props: Props) => `TeamMember ${JSON.stringify(String(props.email))}`;
const same = (a: string | undefined, b: string) => a !== undefined && a.toLowerCase() === b.toLowerCase();

async function memberOf(client: VastClient, email: string): Promise<LiveMember | undefined> {
  return (await client.teams.members()).find((m) => same(m.email, email));
}

function memberOutputs(m: LiveMember | undefined): Props {
  return m ? { status: "member", pending: false, memberId: m.id } : { status: "invited", pending: true, memberId: undefined };
}

/** Sends the invitation; a second one within 300 s is refused: the one sent before (an earlier run) stands, with the same address. */
async function invite(client: VastClient, email: string, role: string): Promise<void> {
  try {
    await client.teams.invite(email, role);
  } catch (error) {
    if (!(error instanceof RateLimitError && ALREADY_SENT.test(error.message))) throw error;
  }
}

/**
 * The invitation, sent once. The service lists no invitations, so one whose answer was lost
 * cannot be looked up; it is sent again instead: the service keeps one pending invitation per
 * address, and answers "already sent" when the lost one landed. Either way one invitation
 * stands, and the state records it (never an invitation left that no state holds).
 */
async function inviteOnce(client: VastClient, email: string, role: string): Promise<void> {
  try {
    await invite(client, email, role);
  } catch (error) {
    if (!(error instanceof ResponseLostError)) throw error;
    try {
      await invite(client, email, role);
    } catch (again) {
      throw new Error(`${error.message}; sending it again to learn whether it landed failed too: ${(again as Error).message}`, { cause: again });
    }
  }
}

export const provider: ImportableImpl = {
  // importId: the member's e-mail address. Only a member who accepted can be taken over: the
  // service lists no invitations.
  importing: {
    type: "TeamMember",
    noun: "team member (one who accepted; the service lists no invitations)",
    idRule: "must be the member's e-mail address (what the resource's id would be), such as \"ana@example.com\"",
    validId: (id) => EMAIL.test(id),
    normalizeId: (id) => id.toLowerCase(),
    keepShown: ["role"],
    optionalOnImport: ["role"],
    verify: (id, declared) => (same(String(declared.email), id) ? undefined : `the declared email is ${JSON.stringify(declared.email)}, not ${id}`),
  },

  // No call changes a member's role or address: both replace (remove, then invite again).
  ...checkAndDiff(TEAM_MEMBER, schema),

  async create(inputs) {
    const client = getClient();
    const email = String(inputs.email);
    const role = String(inputs.role);
    if (await memberOf(client, email)) {
      throw new Error(`${labelOf(inputs)}: ${email} already is a member of the team, not by this resource's invitation (a member is never taken over)`);
    }
    try {
      await inviteOnce(client, email, role);
    } catch (error) {
      throw new Error(`${labelOf(inputs)}: inviting ${email} as ${role} failed: ${(error as Error).message}`, { cause: error });
    }
    const outs = { ...inputs, email, ...memberOutputs(undefined), invitedAt: new Date().toISOString() };
    return { id: email.toLowerCase(), outs: jsonClean(outs) as Props };
  },

  async read(id, props) {
    const client = getClient();
    const email = typeof props.email === "string" ? props.email : id;
    const member = await memberOf(client, email);
    // A member the state knew and the list no longer shows was removed outside the program; a
    // member no state knew (an importId) exists only when the list shows them.
    if (!member && (props.status === "member" || props.status === undefined)) return { id: "" };
    const role = member && member.roles.length > 0 && !member.roles.includes(String(props.role)) ? member.roles[0] : props.role;
    const inputs = jsonClean({ email, role }) as Props;
    return { id, props: jsonClean({ ...props, ...inputs, ...memberOutputs(member) }) as Props, inputs };
  },

  async update(_id, olds, news) {
    return { outs: recordedUpdate(TEAM_MEMBER, olds, news) };
  },

  async delete(id, props) {
    const client = getClient();
    const email = typeof props.email === "string" ? props.email : id;
    try {
      // Accepted since the last refresh or not: the list says.
      const member = await memberOf(client, email);
      if (member) {
        await client.teams.removeMember(member.id);
        return;
      }
    } catch (error) {
      throw new Error(`${labelOf(props)}: removing the member failed: ${(error as Error).message}`, { cause: error });
    }
    warnOnce(
      `teamMember-pending:${email}`,
      `${labelOf(props)}: the invitation was not accepted and the service has no call that withdraws it: it stays usable until the service lets it expire.`,
    );
  },
};
