/**
 * `NetworkVolume`: a volume served over a cluster's network, rented from a network volume
 * offer. Same lifecycle as Volume (every change makes a new one; deleting it deletes the data).
 */
import type * as pulumi from "@pulumi/pulumi";
import { ImportArgs, VastResource } from "../kit/resource";
import type { VolumeOfferFilterArgs } from "../volume";

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
export class NetworkVolume extends VastResource {
  declare readonly offerId: pulumi.Output<number | undefined>;
  declare readonly sizeGb: pulumi.Output<number>;
  declare readonly name: pulumi.Output<string | undefined>;
  /** The service's numeric id of the volume (also the Pulumi id). */
  declare readonly volumeId: pulumi.Output<number>;
  /** The name the service holds: `name` with the adoption marker. */
  declare readonly serviceName: pulumi.Output<string | null>;
  declare readonly nameMarker: pulumi.Output<string | undefined>;
  /** The offer actually rented. */
  declare readonly rentedOfferId: pulumi.Output<number | undefined>;
  declare readonly machineId: pulumi.Output<number | null>;
  declare readonly clusterId: pulumi.Output<number | null>;
  declare readonly status: pulumi.Output<string | null>;
  /** Instances using the volume, as last read. */
  declare readonly attachedInstanceIds: pulumi.Output<number[]>;
  /** $ per GB per month of the rented offer, when known. */
  declare readonly pricePerGbMonth: pulumi.Output<number | null>;
  declare readonly geolocation: pulumi.Output<string | null>;
  /** ISO 8601. */
  declare readonly createdAt: pulumi.Output<string | null>;

  /** True when the resource took over an existing object (`importId`) instead of creating one. */
  declare readonly imported: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: NetworkVolumeArgs, opts?: pulumi.CustomResourceOptions) {
    const outputs = {
      volumeId: undefined, serviceName: undefined, nameMarker: undefined, rentedOfferId: undefined, machineId: undefined,
      clusterId: undefined, status: undefined, attachedInstanceIds: undefined, pricePerGbMonth: undefined, geolocation: undefined,
      createdAt: undefined,
    };
    super("networkVolume", "NetworkVolume", name, { ...args, ...outputs, imported: undefined }, opts);
  }
}
