/** `OverlayMember`: an instance joined to an overlay network (`PUT /api/v0/overlay/`). */
import * as pulumi from "@pulumi/pulumi";
import { ImportArgs, VastResource } from "../kit/resource";

/** Inputs of an `OverlayMember` resource. */
export interface OverlayMemberArgs extends ImportArgs {
  /** The overlay's name (`Overlay.name`): the service joins by name. A change replaces the membership. */
  overlayName: pulumi.Input<string>;
  /** The instance to join (`Instance.instanceId`). A change replaces the membership. */
  instanceId: pulumi.Input<number>;
}

/**
 * An instance joined to an overlay network.
 *
 *   new vastai.OverlayMember("gpu-on-net", { overlayName: net.name, instanceId: gpu.instanceId });
 *
 * **Delete cannot take the instance off the overlay**: the service offers no call to leave one
 * (the vendor's client has none). Deleting the resource only forgets the membership; the
 * instance leaves when it is destroyed or when the overlay is deleted.
 */
export class OverlayMember extends VastResource {
  declare readonly overlayName: pulumi.Output<string>;
  declare readonly instanceId: pulumi.Output<number>;
  /** The overlay's numeric id. */
  declare readonly overlayId: pulumi.Output<number>;

  /** True when the resource took over an existing object (`importId`) instead of creating one. */
  declare readonly imported: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: OverlayMemberArgs, opts?: pulumi.CustomResourceOptions) {
    super("overlayMember", "OverlayMember", name, { ...args, overlayId: undefined, imported: undefined }, opts);
  }
}
