/**
 * `EnvVar`: an account environment variable (the service calls them secrets). Every instance
 * of the account sees it. The service upper-cases names and holds at most 16 per account.
 */
import * as pulumi from "@pulumi/pulumi";
import { ImportArgs, VastResource } from "../kit/resource";

export { ENV_VAR_LIMIT } from "./limits";

/** Inputs of an `EnvVar` resource (an account-level environment variable). */
export interface EnvVarArgs extends ImportArgs {
  /** Variable name: letters, digits and `_`, not starting with a digit. Upper-cased, as the service does. Changing it replaces the variable. */
  key: pulumi.Input<string>;
  /** The value (secret; stored in state encrypted). Changes are applied in place. */
  value: pulumi.Input<string>;
}

/**
 * An account environment variable, visible to every instance of the account.
 *
 *   new vastai.EnvVar("hf-token", { key: "HF_TOKEN", value: cfg.requireSecret("hfToken") });
 *
 * A refresh sees whether the variable exists (gone: removed from state) and whether it is
 * empty, never its value: the service only returns masked values. A new `key` creates the
 * new variable before deleting the old one; on an account at the limit of 16, set the
 * resource option `deleteBeforeReplace: true` to swap them the other way round.
 */
export class EnvVar extends VastResource {
  /** The name as the service stores it (upper case). */
  declare readonly key: pulumi.Output<string>;
  /** The value (secret). */
  declare readonly value: pulumi.Output<string>;

  /** True when the resource took over an existing object (`importId`) instead of creating one. */
  declare readonly imported: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: EnvVarArgs, opts?: pulumi.CustomResourceOptions) {
    super("envVar", "EnvVar", name, { ...args, value: pulumi.secret(args.value), imported: undefined }, opts, ["value"]);
  }
}
