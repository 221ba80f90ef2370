/**
 * The EnvVar provider: an account environment variable (the service calls them secrets),
 * named by its upper-cased name, which is also the Pulumi id.
 */
import { z } from "zod";
import { BadRequestError, ENV_NAME, ENV_NAME_RULE, secretValueProblem, type VastClient } from "../../client";
import { getClient } from "../../context";
import { ImportableImpl, Props, checkDeclared, createAtMostOnce, diffDeclared, isFirstCreate, lookUp } from "../kit";
import { ENV_VAR } from "./declare";
import { MARKER_ENV } from "../instance/inputs";
import { ENV_VAR_LIMIT } from "./limits";
import { liveSecrets } from "./live";

const inputSchema = z.object({
  key: z
    .string({ error: "must be a string" })
    .min(1, "must not be empty")
    .regex(ENV_NAME, `must be a variable name of ${ENV_NAME_RULE}`)
    // The service hands account variables to every instance and upper-cases their names: one of
    // this name would overwrite the marker every instance of this package is found by.
    .refine((key) => key.toUpperCase() !== MARKER_ENV, {
      message: `${MARKER_ENV} is reserved: the provider sets it on every instance it creates to find it again, and an account variable of that name would reach every instance`,
    }),
  // The service's rule for values; the failure names the rule, never the value.
  value: z.string({ error: "must be a string" }).superRefine((value, ctx) => {
    const problem = secretValueProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }),
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

/** The service's refusal of an unknown name (`nonexistent_key`; older answers say "not found"). */
function isNotFound(error: unknown): boolean {
  return error instanceof BadRequestError && (error.code === "nonexistent_key" || /not found/i.test(error.serverMessage ?? ""));
}

/** The service's refusal of a name it holds already (`existing_key`). */
function isAlreadyThere(error: unknown): boolean {
  return error instanceof BadRequestError && (error.code === "existing_key" || /already exists/i.test(error.serverMessage ?? ""));
}

/**
 * Adds a variable. An add whose answer was lost may still take effect, also after the client
 * gave up on it: once the variable shows up (kit/create-once.ts) its value is set with an
 * idempotent PUT; it is added again only when it never shows up, and names are unique, so a
 * late add cannot make a second one (it is refused, or it refuses ours and we set the value).
 */
async function addVariable(secrets: VastClient["secrets"], key: string, value: string, adoptable: boolean): Promise<void> {
  await createAtMostOnce<true>({
    // Names are unique, a variable holds no marker and its value never comes back: one of this
    // name already there is taken for what a killed run of this create added, and gets our value.
    adopt: adoptable
      ? async () => {
          if (!Object.hasOwn(await secrets.list(), key)) return undefined;
          await secrets.update(key, value);
          return true;
        }
      : undefined,
    send: async (send) => {
      try {
        await secrets.add(key, value);
      } catch (error) {
        if (!(send > 1 && isAlreadyThere(error))) throw error;
        await secrets.update(key, value);
      }
      return true;
    },
    recover: async () => {
      const there = await lookUp(async () => (Object.hasOwn(await secrets.list(), key) ? true : undefined));
      if (!there) return undefined;
      await secrets.update(key, value);
      return true;
    },
  });
}

export const provider: ImportableImpl = {
  // importId: the variable's name (the Pulumi id). Its value is never shown: the declared value is set.
  importing: {
    type: "EnvVar",
    noun: "environment variable",
    idRule: `must be the variable's name (what the resource's id would be), of ${ENV_NAME_RULE}`,
    validId: (id) => ENV_NAME.test(id),
    normalizeId: normalizeEnvVarKey,
    keepShown: ["key"],
    optionalOnImport: ["key"],
    notShown: ["value"],
    secretFields: ["value"],
  },

  async check(_olds, news) {
    const result = checkDeclared(ENV_VAR, inputSchema, news, { secretFields: ENV_VAR.secretInputs });
    // Return the name as the service will store it, so plans show what will exist.
    if (typeof news.key === "string" && ENV_NAME.test(news.key)) {
      return { ...result, inputs: { ...news, key: normalizeEnvVarKey(news.key) } };
    }
    return result;
  },

  async diff(_id, olds, news) {
    return diffDeclared(ENV_VAR, { ...olds, key: keyOf(olds) }, { ...news, key: keyOf(news) });
  },

  async create(inputs) {
    const key = keyOf(inputs);
    const value = valueOf(inputs);
    try {
      await addVariable(getClient().secrets, key, value, isFirstCreate(inputs));
    } catch (error) {
      throw addFailure(key, error);
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
        await addVariable(secrets, id, value, false);
      } catch (addError) {
        throw addFailure(id, addError);
      }
    }
    return { outs: { key: id, value } };
  },

  async delete(id) {
    try {
      await getClient().secrets.delete(id);
    } catch (error) {
      throw new Error(`EnvVar ${id}: deleting the variable failed: ${(error as Error).message}`, { cause: error });
    }
  },
};
