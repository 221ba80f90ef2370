/** `Overlay`: a virtual network on a cluster, for local networking between instances (`POST /api/v0/overlay/`). */
import * as pulumi from "@pulumi/pulumi";
import { ImportArgs, VastResource } from "../kit/resource";

/** Inputs of an `Overlay` resource. */
export interface OverlayArgs extends ImportArgs {
  /** The cluster the overlay is made on (`Cluster.clusterId`, or a cluster id an offer shows). A change replaces the overlay. */
  clusterId: pulumi.Input<number>;
  /**
   * The overlay's name, unique in the account: instances join an overlay by name
   * (`OverlayMember.overlayName`, `Fleet.overlay`). At most 64 characters, no control
   * characters. Held verbatim (no marker: the name is what joins use). A change replaces the overlay.
   */
  name: pulumi.Input<string>;
}

/**
 * An overlay network on a cluster. Deleting the resource deletes the overlay, which removes
 * every instance from it.
 *
 *   const net = new vastai.Overlay("net", { clusterId: cluster.clusterId, name: "team-net" });
 */
export class Overlay extends VastResource {
  declare readonly clusterId: pulumi.Output<number>;
  declare readonly name: pulumi.Output<string>;
  /** The service's numeric id of the overlay (also the Pulumi id). */
  declare readonly overlayId: pulumi.Output<number>;
  /** The overlay's internal subnet, when the service has assigned one. */
  declare readonly internalSubnet: pulumi.Output<string | undefined>;
  /** Ids of the instances on the overlay (as of the last create or refresh). */
  declare readonly instanceIds: pulumi.Output<number[]>;
  /** True when the create took over an overlay of this name on this cluster that a killed earlier run made. */
  declare readonly adopted: pulumi.Output<boolean>;

  /** True when the resource took over an existing object (`importId`) instead of creating one. */
  declare readonly imported: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: OverlayArgs, opts?: pulumi.CustomResourceOptions) {
    super("overlay", "Overlay", name, { ...args, overlayId: undefined, internalSubnet: undefined, instanceIds: undefined, adopted: undefined, imported: undefined }, opts);
  }
}
