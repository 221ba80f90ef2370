/**
 * `NetworkVolume`: a volume served over a cluster's network, rented from a network volume
 * offer. Same lifecycle as Volume (every change makes a new one; deleting it deletes the data).
 */
import type * as pulumi from "@pulumi/pulumi";
import { VOLUME_OUTPUT_PROPS, VolumeBase, type VolumeArgsOf, type VolumeOfferFilterArgs } from "../volume";

/** Offer filters of a `NetworkVolume`: those of a local volume plus the cluster and network-disk bandwidth. */
export interface NetworkVolumeOfferFilters extends VolumeOfferFilterArgs {
  /** Only offers of this cluster. */
  clusterId?: pulumi.Input<number>;
}

/** Inputs of a `NetworkVolume` resource. */
export type NetworkVolumeArgs = VolumeArgsOf<NetworkVolumeOfferFilters>;

/** A network volume; its outputs are Volume's (`clusterId` set, `machineId` null). */
export class NetworkVolume extends VolumeBase {
  constructor(name: string, args: NetworkVolumeArgs, opts?: pulumi.CustomResourceOptions) {
    super("networkVolume", "NetworkVolume", name, { ...args, ...VOLUME_OUTPUT_PROPS }, opts);
  }
}
