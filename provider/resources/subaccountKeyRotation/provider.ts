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
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { RegenerateKeysInput, RegeneratedKey, VastClient } from "../../client";
import { getClient } from "../../context";
import { ImportableImpl, MAX_LOST_CREATES, Props, UNKNOWN, createAtMostOnce, jsonClean, waitOutLostRequest, checkDeclared, diffDeclared, recordedUpdate } from "../kit";
import { SUBACCOUNT_KEY_ROTATION } from "./declare";
import type { RegeneratedKeyOutput } from "./regenerated";


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
 * rotate again, after waiting out the look-up window (kit/create-once.ts) so that a late first
 * request cannot land after the second and invalidate the keys it reports.
 */
async function rotate(client: VastClient, request: RegenerateKeysInput): Promise<RegeneratedKey[]> {
  return createAtMostOnce({
    send: () => client.subaccounts.regenerateKeys(request),
    recover: async (_error, send) => {
      // Waiting is only needed before a resend; the last lost response is reported as is.
      if (send < MAX_LOST_CREATES) await waitOutLostRequest();
      return undefined;
    },
  });
}

export const provider: ImportableImpl = {
  importing: {
    type: "SubaccountKeyRotation",
    refuse: "each SubaccountKeyRotation is one rotation it performs, an action and not an object the service keeps, so there is nothing to take over",
  },

  async check(_olds, news) {
    const result = checkDeclared(SUBACCOUNT_KEY_ROTATION, inputSchema, news);
    const failure = targetFailure(news);
    return failure ? { ...result, failures: [...(result.failures ?? []), failure] } : result;
  },

  async diff(_id, olds, news) {
    return diffDeclared(SUBACCOUNT_KEY_ROTATION, olds, news);
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
    for (const [k, v] of Object.entries(props)) if (!(SUBACCOUNT_KEY_ROTATION.computed as readonly string[]).includes(k)) inputs[k] = v;
    return { id, props, inputs };
  },

  // Reached only when nothing but the provider code changed (diff replaces otherwise).
  async update(_id, olds, news) {
    return { outs: recordedUpdate(SUBACCOUNT_KEY_ROTATION, olds, news) };
  },

  // A rotation cannot be undone; the keys it made stay valid.
  async delete() {},
};
