/**
 * `SubaccountKeyRotation`: regenerates the API key of one subaccount, or of all of them. Each
 * create is one rotation: the old keys stop working at once and the new ones are in the
 * secret output `regeneratedKeys`, the only place they can be read.
 *
 * A change of `triggers` (or of the target) replaces the resource, which rotates again.
 * Deleting it does nothing on the service: a rotation cannot be undone, and the keys it made
 * stay valid until the next rotation.
 */
import { randomUUID } from "crypto";
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { VastClient } from "../client";
import { ResponseLostError } from "../client/errors";
import type { RegenerateKeysInput, RegeneratedKey } from "../client/types-account";
import { getClient } from "../context";
import { providers } from "../providers";
import { ProviderImpl, Props, UNKNOWN, checkWith, diffInputs, jsonClean } from "./framework";
import { MAX_LOST_CREATES, waitOutLostRequest } from "./lost-response";

export interface SubaccountKeyRotationArgs {
  /** The subaccount whose key is regenerated. Give this or `all: true`, not both. */
  subaccountUserId?: pulumi.Input<number>;
  /** Regenerate the keys of every subaccount (this also rotates the owner seed). Give this or `subaccountUserId`, not both. */
  all?: pulumi.Input<boolean>;
  /** Any value; when it changes the keys are rotated again (the resource is replaced). */
  triggers?: pulumi.Input<unknown>;
}

/** One regenerated key, as the service returns it. */
export interface RegeneratedKeyOutput {
  userId: number;
  email: string;
  /** The new API key of the subaccount (secret). */
  derivedKey: string;
}

const OUTPUTS = ["regeneratedKeys", "rotatedAt"] as const;

const inputSchema = z.object({
  subaccountUserId: z.number({ error: "must be a number" }).int("must be an integer").positive("must be positive").optional(),
  all: z.boolean({ error: "must be true or false" }).optional(),
  triggers: z.unknown().optional(),
});

/** Exactly one target; skipped while either is unknown (preview). */
function targetFailure(news: Props): pulumi.dynamic.CheckFailure | undefined {
  if (news.subaccountUserId === UNKNOWN || news.all === UNKNOWN) return undefined;
  const one = news.subaccountUserId !== undefined && news.subaccountUserId !== null;
  const all = news.all === true;
  if (one === all) {
    const got = one ? "both were given" : "neither was given";
    return { property: "subaccountUserId", reason: `subaccountUserId, all: give exactly one of subaccountUserId or all: true (${got})` };
  }
  return undefined;
}

/** What the request carries; in a create that skipped check the service judges it. */
function requestOf(inputs: Props): RegenerateKeysInput {
  if (inputs.all === true) return { all: true };
  return { subaccountUserId: inputs.subaccountUserId as number };
}

function describe(inputs: Props): string {
  if (inputs.all === true) return "all subaccounts";
  const id = inputs.subaccountUserId;
  if (id === undefined || id === null) return "a subaccount (neither subaccountUserId nor all: true was given)";
  return `subaccount ${JSON.stringify(id)}`;
}

/**
 * One rotation. When the answer is lost the keys were probably rotated and the new ones are
 * known to nobody (the old ones stop working at once), so the subaccounts would be locked out:
 * rotate again, after waiting out the look-up window (lost-response.ts) so that a late first
 * request cannot land after the second and invalidate the keys it reports.
 */
async function rotate(client: VastClient, request: RegenerateKeysInput): Promise<RegeneratedKey[]> {
  for (let sent = 1; ; sent++) {
    try {
      return await client.subaccounts.regenerateKeys(request);
    } catch (error) {
      if (!(error instanceof ResponseLostError) || sent >= MAX_LOST_CREATES) throw error;
      await waitOutLostRequest();
    }
  }
}

export const subaccountKeyRotationImpl: ProviderImpl = {
  async check(_olds, news) {
    const result = checkWith(inputSchema, news);
    const failure = targetFailure(news);
    return failure ? { ...result, failures: [...(result.failures ?? []), failure] } : result;
  },

  async diff(_id, olds, news) {
    return diffInputs(olds, news, { replaceOn: ["subaccountUserId", "all", "triggers"], ignore: OUTPUTS });
  },

  async create(inputs) {
    let keys;
    try {
      keys = await rotate(getClient(), requestOf(inputs));
    } catch (error) {
      throw new Error(`SubaccountKeyRotation: regenerating the key of ${describe(inputs)} failed: ${(error as Error).message}`, { cause: error });
    }
    const regeneratedKeys: RegeneratedKeyOutput[] = keys.map((k) => ({ userId: k.userId, email: k.email, derivedKey: k.derivedKey }));
    const outs = { ...inputs, regeneratedKeys, rotatedAt: new Date().toISOString() };
    return { id: randomUUID(), outs: jsonClean(outs) as Props };
  },

  // The service lists no past rotations: what state holds is all there is to read.
  async read(id, props) {
    const inputs: Props = {};
    for (const [k, v] of Object.entries(props)) if (!(OUTPUTS as readonly string[]).includes(k)) inputs[k] = v;
    return { id, props, inputs };
  },

  // Reached only when nothing but the provider code changed (diff replaces otherwise).
  async update(_id, olds, news) {
    const outs: Props = { ...news };
    for (const name of OUTPUTS) outs[name] = olds[name];
    return { outs: jsonClean(outs) as Props };
  },

  // A rotation cannot be undone; the keys it made stay valid.
  async delete() {},
};

/**
 * Regenerates subaccount API keys once, and again whenever `triggers` changes.
 *
 *   const rotation = new vastai.SubaccountKeyRotation("monthly", { all: true, triggers: "2025-06" });
 *   export const keys = rotation.regeneratedKeys; // secret
 *
 * Only accounts approved for subaccounts may do this (the service answers 403 otherwise).
 */
export class SubaccountKeyRotation extends pulumi.dynamic.Resource {
  declare readonly subaccountUserId: pulumi.Output<number | undefined>;
  declare readonly all: pulumi.Output<boolean | undefined>;
  declare readonly triggers: pulumi.Output<unknown>;
  /** One entry per regenerated subaccount (the whole list is secret). */
  declare readonly regeneratedKeys: pulumi.Output<RegeneratedKeyOutput[]>;
  /** When the rotation ran (ISO 8601, the provider's clock). */
  declare readonly rotatedAt: pulumi.Output<string>;

  constructor(name: string, args: SubaccountKeyRotationArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      providers.subaccountKeyRotation,
      name,
      { ...args, regeneratedKeys: undefined, rotatedAt: undefined },
      pulumi.mergeOptions(opts, { additionalSecretOutputs: ["regeneratedKeys"] }),
      "vastai",
      "SubaccountKeyRotation",
    );
  }
}
