/**
 * The Subaccount provider. Created as a user with `parent_id: "me"`; read from the caller's
 * subaccount list; never deleted (the service has no call). E-mail and user name are unique on
 * the service, so a subaccount of that address that was not there before the create is the one
 * a lost answer made.
 */
import { z } from "zod";
import type { CreatedSubaccount, Subaccount as LiveSubaccount, VastClient } from "../../client";
import { registerSecret } from "../../client";
import { getClient } from "../../context";
import { type ImportableImpl, type Props, createAtMostOnce, jsonClean, lookUp, numericImport, warnOnce, checkDeclared, diffDeclared } from "../kit";
import { SUBACCOUNT } from "./declare";

const EMAIL = /^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$/;

const schema = z.object({
  email: z
    .string({ error: "must be a string" })
    .max(64, "must be at most 64 characters")
    .regex(EMAIL, "must be an e-mail address such as bot@example.com")
    .refine((e) => !/@vast/i.test(e), { message: "must not be an @vast address (the service refuses them)" }),
  username: z.string({ error: "must be a string" }).min(1, "must not be empty").max(64, "must be at most 64 characters").regex(/^\S+$/, "must not contain spaces"),
  password: z.string({ error: "must be a string" }).min(8, "must be at least 8 characters").max(256, "must be at most 256 characters"),
  hostOnly: z.boolean({ error: "must be true or false" }).optional(),
});

const labelOf = (props: Props) => `Subaccount ${JSON.stringify(String(props.username))}`;
const same = (a: string | undefined, b: string) => a !== undefined && a.toLowerCase() === b.toLowerCase();

function find(list: LiveSubaccount[], email: string, username: string): LiveSubaccount | undefined {
  return list.find((s) => (same(s.email, email) || s.username === username) && !s.deletedAt);
}

async function create(client: VastClient, inputs: Props): Promise<CreatedSubaccount> {
  const email = String(inputs.email);
  const username = String(inputs.username);
  const before = await client.subaccountAccounts.list();
  const existing = find(before, email, username);
  if (existing) {
    // A subaccount shows no marker of the run that made it: the user says whose it is.
    throw new Error(
      `a subaccount with the e-mail ${email} or the user name ${username} already exists (user id ${existing.id}), not made by this resource (it is never taken over on its own). ` +
        `If a run of this stack that was killed or lost its answer made it, take it over by adding importId: "${existing.id}" to this Subaccount and running up again; ` +
        "otherwise choose another e-mail and user name",
    );
  }
  return createAtMostOnce({
    send: () => client.subaccountAccounts.create({ email, username, password: String(inputs.password), hostOnly: inputs.hostOnly === true }),
    recover: () =>
      lookUp(async () => {
        const made = find(await client.subaccountAccounts.list(), email, username);
        return made ? { id: made.id, email: made.email, username: made.username, keyId: made.keyId } : undefined;
      }),
  });
}

export const provider: ImportableImpl = {
  // importId: the subaccount's user id (`getSubaccounts`). The service never shows a password: a
  // declared one is only recorded, and may be left out.
  importing: numericImport("Subaccount", "subaccount", {
    keepShown: ["email", "username"],
    optionalOnImport: ["email", "username", "password"],
    secretFields: ["password"],
  }),

  async check(_olds, news) {
    if (typeof news.password === "string") registerSecret(news.password);
    return checkDeclared(SUBACCOUNT, schema, news);
  },

  // Nothing can be edited: every change makes a new subaccount.
  async diff(_id, olds, news) {
    return diffDeclared(SUBACCOUNT, olds, news);
  },

  async create(inputs) {
    let made: CreatedSubaccount;
    try {
      made = await create(getClient(), inputs);
    } catch (error) {
      throw new Error(`${labelOf(inputs)}: creating the subaccount failed: ${(error as Error).message}`, { cause: error });
    }
    return { id: String(made.id), outs: jsonClean({ ...inputs, userId: made.id, keyId: made.keyId }) as Props };
  },

  async read(id, props) {
    const live = (await getClient().subaccountAccounts.list()).find((s) => String(s.id) === id && !s.deletedAt);
    if (!live) return { id: "" };
    const inputs = jsonClean({ email: live.email ?? props.email, username: live.username ?? props.username, password: props.password, hostOnly: props.hostOnly }) as Props;
    return { id, props: jsonClean({ ...props, ...inputs, userId: live.id, keyId: live.keyId ?? props.keyId }) as Props, inputs };
  },

  async update(_id, olds, news) {
    return { outs: jsonClean({ ...news, userId: olds.userId, keyId: olds.keyId }) as Props };
  },

  // The service has no call that deletes a subaccount.
  async delete(id, props) {
    warnOnce(
      `subaccount-kept:${id}`,
      `${labelOf(props)} (user ${id}): the service has no call that deletes a subaccount: it leaves the stack but stays on the service with its key, credit and rentals. Remove it in the console.`,
    );
  },
};
