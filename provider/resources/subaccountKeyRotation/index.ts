/**
 * `SubaccountKeyRotation`: regenerates the API key of one subaccount, or of all of them. Each
 * create is one rotation: the old keys stop working at once and the new ones are in the
 * secret output `regeneratedKeys`, the only place they can be read.
 *
 * A change of `triggers` (or of the target) replaces the resource, which rotates again.
 * Deleting it does nothing on the service: a rotation cannot be undone, and the keys it made
 * stay valid until the next rotation.
 */
import * as pulumi from "@pulumi/pulumi";
import type { RegeneratedKeyOutput } from "./regenerated";
import { VastResource } from "../kit/resource";

/** Inputs of a `SubaccountKeyRotation` resource. */
export interface SubaccountKeyRotationArgs {
  /** The subaccount whose key is regenerated. Give this or `all: true`, not both. */
  subaccountUserId?: pulumi.Input<number>;
  /** Regenerate the keys of every subaccount (this also rotates the owner seed). Give this or `subaccountUserId`, not both. */
  all?: pulumi.Input<boolean>;
  /** Any value; when it changes the keys are rotated again (the resource is replaced). */
  triggers?: pulumi.Input<unknown>;
}

/**
 * Regenerates subaccount API keys once, and again whenever `triggers` changes.
 *
 *   const rotation = new vastai.SubaccountKeyRotation("monthly", { all: true, triggers: "2025-06" });
 *   export const keys = rotation.regeneratedKeys; // secret
 *
 * Only accounts approved for subaccounts may do this (the service answers 403 otherwise).
 */
export class SubaccountKeyRotation extends VastResource {
  declare readonly subaccountUserId: pulumi.Output<number | undefined>;
  declare readonly all: pulumi.Output<boolean | undefined>;
  declare readonly triggers: pulumi.Output<unknown>;
  /** One entry per regenerated subaccount (the whole list is secret). */
  declare readonly regeneratedKeys: pulumi.Output<RegeneratedKeyOutput[]>;
  /** When the rotation ran (ISO 8601, the provider's clock). */
  declare readonly rotatedAt: pulumi.Output<string>;

  constructor(name: string, args: SubaccountKeyRotationArgs, opts?: pulumi.CustomResourceOptions) {
    super("subaccountKeyRotation", "SubaccountKeyRotation", name, { ...args, regeneratedKeys: undefined, rotatedAt: undefined }, opts, ["regeneratedKeys"]);
  }
}

export type { RegeneratedKeyOutput } from "./regenerated";
