/**
 * `SubaccountKeyRotation`: regenerates the API key of one subaccount, or of all of them. Each
 * create is one rotation: the old keys stop working at once and the new ones are in the
 * secret output `regeneratedKeys`, the only place they can be read.
 *
 * A change of `triggers` (or of the target) replaces the resource, which rotates again.
 * Deleting it does nothing on the service: a rotation cannot be undone, and the keys it made
 * stay valid until the next rotation.
 */
import type { RegeneratedKeyOutput } from "./regenerated";
import { resourceClass, type Inputs } from "../kit/declare";
import { SUBACCOUNT_KEY_ROTATION } from "./declare";

/** A SubaccountKeyRotation's inputs, each also an output of the same name. */
interface SubaccountKeyRotationFields {
  /** The subaccount whose key is regenerated. Give this or `all: true`, not both. */
  subaccountUserId?: number;
  /** Regenerate the keys of every subaccount (this also rotates the owner seed). Give this or `subaccountUserId`, not both. */
  all?: boolean;
  /** Any value; when it changes the keys are rotated again (the resource is replaced). */
  triggers?: unknown;
}

/** What the service shows of it. */
interface SubaccountKeyRotationComputed {
  /** One entry per regenerated subaccount (the whole list is secret). */
  regeneratedKeys: RegeneratedKeyOutput[];
  /** When the rotation ran (ISO 8601, the provider's clock). */
  rotatedAt: string;
}

/** Inputs of a `SubaccountKeyRotation` resource. */
export interface SubaccountKeyRotationArgs extends Inputs<SubaccountKeyRotationFields> {}

/**
 * Regenerates subaccount API keys once, and again whenever `triggers` changes.
 *
 *   const rotation = new vastai.SubaccountKeyRotation("monthly", { all: true, triggers: "2025-06" });
 *   export const keys = rotation.regeneratedKeys; // secret
 *
 * Only accounts approved for subaccounts may do this (the service answers 403 otherwise).
 */
export class SubaccountKeyRotation extends resourceClass<SubaccountKeyRotationArgs, SubaccountKeyRotationFields & SubaccountKeyRotationComputed>(SUBACCOUNT_KEY_ROTATION) {}

export type { RegeneratedKeyOutput } from "./regenerated";
