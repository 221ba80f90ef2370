/**
 * `NetworkVolume`: a volume served over a cluster's network, rented from a network volume
 * offer. Same lifecycle as Volume (every change makes a new one; deleting it deletes the data).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ImportArgs } from "../kit/resource";
import { VOLUME_OUTPUT_PROPS, VolumeBase, type VolumeOfferFilterArgs } from "../volume";

export interface NetworkVolumeOfferFilters extends VolumeOfferFilterArgs {
  /** Only offers of this cluster. */
  clusterId?: pulumi.Input<number>;
}

export interface NetworkVolumeArgs extends ImportArgs {
  /** The network volume offer to rent from (`searchNetworkVolumeOffers`). Give this or `offer`. Replaces on change. */
  offerId?: pulumi.Input<number>;
  /** Filters: the cheapest match with `sizeGb` free is rented. Replaces on change. */
  offer?: pulumi.Input<NetworkVolumeOfferFilters>;
  /** GB, a whole number, default 15. Replaces on change (a new, empty volume). */
  sizeGb?: pulumi.Input<number>;
  /** A name the service shows (at most 200 characters). Replaces on change. */
  name?: pulumi.Input<string>;
}

/** A network volume; its outputs are Volume's (`clusterId` set, `machineId` null). */
export class NetworkVolume extends VolumeBase {
  constructor(name: string, args: NetworkVolumeArgs, opts?: pulumi.CustomResourceOptions) {
    super("networkVolume", "NetworkVolume", name, { ...args, ...VOLUME_OUTPUT_PROPS }, opts);
  }
}
