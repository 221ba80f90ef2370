/**
 * `EnvVar`: an account environment variable (the service calls them secrets). Every instance
 * of the account sees it. The service upper-cases names and holds at most 16 per account.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { VastClient } from "../client";
import { BadRequestError, ResponseLostError } from "../client/errors";
import { getClient } from "../context";
import { providers } from "../providers";
import { liveSecrets } from "./live/account";
import { ProviderImpl, Props, checkWith, diffInputs } from "./framework";
import { MAX_LOST_CREATES, lookUpAfterLostResponse } from "./lost-response";

/** The service's own limit of variables per account (api-facts: Secrets). */
export const ENV_VAR_LIMIT = 16;

export interface EnvVarArgs {
  /** Variable name: letters, digits and `_`, not starting with a digit. Upper-cased, as the service does. Changing it replaces the variable. */
  key: pulumi.Input<string>;
  /** The value (secret; stored in state encrypted). Changes are applied in place. */
  value: pulumi.Input<string>;
}

const NAME_RULE = /^[A-Za-z_][A-Za-z0-9_]*$/;

const inputSchema = z.object({
  key: z
    .string({ error: "must be a string" })
    .min(1, "must not be empty")
    .regex(NAME_RULE, "must be a variable name of letters, digits and _, not starting with a digit"),
  value: z.string({ error: "must be a string" }),
});

/** The name as the service stores it. */
export function normalizeEnvVarKey(key: string): string {
  return key.toUpperCase();
}

function keyOf(props: Props): string {
  return normalizeEnvVarKey(String(props.key));
}

function valueOf(props: Props): string {
  return typeof props.value === "string" ? props.value : "";
}

/** The limit error in words a user can act on; the service's message is quoted. */
function addFailure(key: string, error: unknown): Error {
  const message = (error as Error).message;
  if (error instanceof BadRequestError && /limit/i.test(error.serverMessage ?? "")) {
    return new Error(
      `EnvVar ${key}: the account already holds the most environment variables the service allows (${ENV_VAR_LIMIT}); ` +
        `delete one before adding ${key}. The service said: ${error.serverMessage}`,
      { cause: error },
    );
  }
  return new Error(`EnvVar ${key}: adding the variable failed: ${message}`, { cause: error });
}

function isNotFound(error: unknown): boolean {
  return error instanceof BadRequestError && /not found/i.test(error.serverMessage ?? "");
}

function isAlreadyThere(error: unknown): boolean {
  return error instanceof BadRequestError && (error.code === "already_exists" || /already exists/i.test(error.serverMessage ?? ""));
}

/**
 * Adds a variable. An add whose answer was lost may still take effect, also after the client
 * gave up on it: once the variable shows up (lost-response.ts) its value is set with an
 * idempotent PUT; it is added again only when it never shows up, and names are unique, so a
 * late add cannot make a second one (it is refused, or it refuses ours and we set the value).
 */
async function addVariable(secrets: VastClient["secrets"], key: string, value: string): Promise<void> {
  for (let sent = 1; ; sent++) {
    try {
      await secrets.add(key, value);
      return;
    } catch (error) {
      if (sent > 1 && isAlreadyThere(error)) return secrets.update(key, value);
      if (!(error instanceof ResponseLostError)) throw error;
      const there = await lookUpAfterLostResponse(async () => (Object.hasOwn(await secrets.list(), key) ? true : undefined));
      if (there) return secrets.update(key, value);
      if (sent >= MAX_LOST_CREATES) throw error;
    }
  }
}

export const envVarImpl: ProviderImpl = {
  async check(_olds, news) {
    const result = checkWith(inputSchema, news, { secretFields: ["value"] });
    // Return the name as the service will store it, so plans show what will exist.
    if (typeof news.key === "string" && NAME_RULE.test(news.key)) {
      return { ...result, inputs: { ...news, key: normalizeEnvVarKey(news.key) } };
    }
    return result;
  },

  async diff(_id, olds, news) {
    return diffInputs({ ...olds, key: keyOf(olds) }, { ...news, key: keyOf(news) }, { replaceOn: ["key"] });
  },

  async create(inputs) {
    const key = keyOf(inputs);
    const value = valueOf(inputs);
    try {
      await addVariable(getClient().secrets, key, value);
    } catch (error) {
      throw addFailure(key, error);
    } finally {
      liveSecrets().noteWrite(key);
    }
    return { id: key, outs: { key, value } };
  },

  // Values come back masked: a refresh sees whether the variable exists and whether it is
  // empty, never its value, so the value is kept from state.
  // One list call serves every EnvVar read at about the same time (a refresh).
  async read(id, props) {
    const live = await liveSecrets().get(id);
    if (!live) return { id: "" };
    const stateValue = valueOf(props);
    // null means empty on the service: a value cleared outside Pulumi shows as drift.
    const value = live.masked === null ? "" : stateValue;
    return { id, props: { ...props, key: id, value }, inputs: { key: id, value } };
  },

  async update(id, _olds, news) {
    const value = valueOf(news);
    const secrets = getClient().secrets;
    try {
      await secrets.update(id, value);
    } catch (error) {
      if (!isNotFound(error)) throw new Error(`EnvVar ${id}: changing the value failed: ${(error as Error).message}`, { cause: error });
      // Deleted outside Pulumi since the last refresh: put it back.
      try {
        await addVariable(secrets, id, value);
      } catch (addError) {
        throw addFailure(id, addError);
      }
    } finally {
      liveSecrets().noteWrite(id);
    }
    return { outs: { key: id, value } };
  },

  async delete(id) {
    try {
      await getClient().secrets.delete(id);
    } catch (error) {
      throw new Error(`EnvVar ${id}: deleting the variable failed: ${(error as Error).message}`, { cause: error });
    } finally {
      liveSecrets().noteWrite(id);
    }
  },
};

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
export class EnvVar extends pulumi.dynamic.Resource {
  /** The name as the service stores it (upper case). */
  declare readonly key: pulumi.Output<string>;
  /** The value (secret). */
  declare readonly value: pulumi.Output<string>;

  constructor(name: string, args: EnvVarArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      providers.envVar,
      name,
      { ...args, value: pulumi.secret(args.value) },
      pulumi.mergeOptions(opts, { additionalSecretOutputs: ["value"] }),
      "vastai",
      "EnvVar",
    );
  }
}
