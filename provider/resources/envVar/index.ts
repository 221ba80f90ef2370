/**
 * `EnvVar`: an account environment variable (the service calls them secrets). Every instance
 * of the account sees it. The service upper-cases names and holds at most 16 per account.
 */
import { resourceClass, type ImportedOutput, type Inputs } from "../kit/declare";
import type { ImportArgs } from "../kit/resource";
import { ENV_VAR } from "./declare";

export { ENV_VAR_LIMIT } from "./limits";

/** An EnvVar's inputs, each also an output of the same name. */
interface EnvVarFields {
  /** Variable name: letters, digits and `_`, not starting with a digit. Upper-cased, as the service does. Changing it replaces the variable. */
  key: string;
  /** The value (secret; stored in state encrypted). Changes are applied in place. */
  value: string;
}

/** Inputs of an `EnvVar` resource (an account-level environment variable). */
export interface EnvVarArgs extends ImportArgs, Inputs<EnvVarFields> {}

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
export class EnvVar extends resourceClass<EnvVarArgs, EnvVarFields & ImportedOutput>(ENV_VAR) {}
