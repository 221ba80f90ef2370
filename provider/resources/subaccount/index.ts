/**
 * `Subaccount`: a child account of the provider's account (`POST /api/v0/users/` with
 * `parent_id: "me"`), for a person or a machine that rents or hosts under your account.
 */
import * as pulumi from "@pulumi/pulumi";
import { ImportArgs, VastResource } from "../kit/resource";

/** Inputs of a `Subaccount` resource. */
export interface SubaccountArgs extends ImportArgs {
  /** The subaccount's e-mail address (unique on the service; not an `@vast` address). */
  email: pulumi.Input<string>;
  /** Its user name (unique on the service). */
  username: pulumi.Input<string>;
  /** Its login password (secret: pass it as `pulumi.secret(...)` or a secret config value). At least 8 characters. */
  password: pulumi.Input<string>;
  /** Restricted to hosting machines (`--type host` in the vendor's client); default false. */
  hostOnly?: pulumi.Input<boolean>;
}

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
export class Subaccount extends VastResource {
  declare readonly email: pulumi.Output<string>;
  declare readonly username: pulumi.Output<string>;
  declare readonly hostOnly: pulumi.Output<boolean | undefined>;
  /** The subaccount's user id (SubaccountKeyRotation's `subaccountUserId`). */
  declare readonly userId: pulumi.Output<number>;
  /** The id of its API key. */
  declare readonly keyId: pulumi.Output<number | undefined>;

  /** True when the resource took over an existing object (`importId`) instead of creating one. */
  declare readonly imported: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: SubaccountArgs, opts?: pulumi.CustomResourceOptions) {
    super("subaccount", "Subaccount", name, { ...args, userId: undefined, keyId: undefined, imported: undefined }, opts, ["password"]);
  }
}
