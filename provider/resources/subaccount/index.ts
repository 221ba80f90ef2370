/**
 * `Subaccount`: a child account of the provider's account (`POST /api/v0/users/` with
 * `parent_id: "me"`), for a person or a machine that rents or hosts under your account.
 */
import { resourceClass, type ImportedOutput, type Inputs } from "../kit/declare";
import type { ImportArgs } from "../kit/resource";
import { SUBACCOUNT } from "./declare";

/** A Subaccount's inputs, each also an output of the same name. */
interface SubaccountFields {
  /** The subaccount's e-mail address (unique on the service; not an `@vast` address). */
  email: string;
  /** Its user name (unique on the service). */
  username: string;
  /** Its login password (secret: pass it as `pulumi.secret(...)` or a secret config value). At least 8 characters. */
  password: string;
  /** Restricted to hosting machines (`--type host` in the vendor's client); default false. */
  hostOnly?: boolean;
}

/** What the service shows of it. */
interface SubaccountComputed extends ImportedOutput {
  /** The subaccount's user id (SubaccountKeyRotation's `subaccountUserId`). */
  userId: number;
  /** The id of its API key. */
  keyId: number | undefined;
}

/** Inputs of a `Subaccount` resource. */
export interface SubaccountArgs extends ImportArgs, Inputs<SubaccountFields> {}

/**
 * A subaccount. Every input is fixed at creation: a change makes a new subaccount, which the
 * service refuses while the old one holds the same e-mail or user name.
 *
 *   const bot = new vastai.Subaccount("ci-bot", { email: "ci-bot@example.com", username: "ci-bot", password: cfg.requireSecret("botPassword") });
 *   // rotate its key with SubaccountKeyRotation({ subaccountUserId: bot.userId })
 *
 * Deleting the resource CANNOT delete the subaccount: the service has no call that does. The
 * resource leaves the stack, the account stays with its key, credit and anything it rents, and
 * a warning says so; remove it in the console. An address or user name already taken is
 * refused at create: an existing account is never taken over.
 */
export class Subaccount extends resourceClass<SubaccountArgs, SubaccountFields & SubaccountComputed>(SUBACCOUNT) {}
