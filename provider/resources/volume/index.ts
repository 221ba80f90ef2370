/**
 * `Volume`: a local volume, disk rented from a volume offer on one machine. It outlives the
 * instances that use it: link one with `new Instance(..., { volume: { createNew: false,
 * volumeId: vol.volumeId, mountPath: "/data" } })` on an offer of the same machine
 * (`vol.machineId`), and a replaced instance finds the same data.
 */
import * as pulumi from "@pulumi/pulumi";
import { ImportArgs, VastResource } from "../kit/resource";

/** Offer filters shared by Volume and NetworkVolume (names and units as Instance's offer filters where they overlap). */
export interface VolumeOfferFilterArgs {
  /** $ per GB per month, maximum. */
  maxPricePerGbMonth?: pulumi.Input<number>;
  /** 0 to 1. */
  minReliability?: pulumi.Input<number>;
  /** `"US"`, `"Sweden, SE"` or a list (any matches). */
  location?: pulumi.Input<string | string[]>;
  verified?: pulumi.Input<boolean>;
}

/** Offer filters of a volume: price per GB and month, free space, machine, reliability and the other fields of the vendor's client. */
export interface VolumeOfferFilters extends VolumeOfferFilterArgs {
  /** Only offers on this machine (to put the volume beside a given instance offer). */
  machineId?: pulumi.Input<number>;
}

/** The inputs of both volume kinds; `Filters` are the kind's offer filters. */
export interface VolumeArgsOf<Filters> extends ImportArgs {
  /** The offer to rent from (`searchVolumeOffers`, `searchNetworkVolumeOffers`). Give this or `offer`. Replaces on change. */
  offerId?: pulumi.Input<number>;
  /** Filters: the cheapest match with `sizeGb` free is rented (up to 10 are tried when offers are gone). Replaces on change. */
  offer?: pulumi.Input<Filters>;
  /** GB, a whole number, default 15. The service cannot resize a volume: a change makes a new, empty one. */
  sizeGb?: pulumi.Input<number>;
  /** A name the service shows (at most 200 characters). Replaces on change (the service cannot rename). */
  name?: pulumi.Input<string>;
}

/** Inputs of a `Volume` resource. */
export type VolumeArgs = VolumeArgsOf<VolumeOfferFilters>;

/** What both volume kinds output. */
export abstract class VolumeBase extends VastResource {
  declare readonly offerId: pulumi.Output<number | undefined>;
  declare readonly sizeGb: pulumi.Output<number>;
  declare readonly name: pulumi.Output<string | undefined>;
  /** The service's numeric id of the volume (also the Pulumi id). */
  declare readonly volumeId: pulumi.Output<number>;
  /** The name the service holds: `name` with the adoption marker, `data [3a00afcb0a6e55ad]`. */
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
  /** $/hour of the volume's storage now, whatever the state of the instances using it (6 decimals). */
  declare readonly hourlyCost: pulumi.Output<number | null>;
  /**
   * $ charged to date: the account's charges of `volume-<id>` since `createdAt` (6 decimals),
   * read on refresh and after create through one shared walk per process; kept as it was (with
   * a warning) when the charges cannot be read.
   */
  declare readonly spentUsd: pulumi.Output<number | undefined>;
  /** True when the resource took over an existing object (`importId`) instead of creating one. */
  declare readonly imported: pulumi.Output<boolean | undefined>;
}

export const VOLUME_OUTPUT_PROPS = {
  volumeId: undefined, serviceName: undefined, nameMarker: undefined, rentedOfferId: undefined, machineId: undefined,
  clusterId: undefined, status: undefined, attachedInstanceIds: undefined, pricePerGbMonth: undefined, geolocation: undefined,
  createdAt: undefined, hourlyCost: undefined, spentUsd: undefined, imported: undefined,
};

/**
 * A local volume.
 *
 *   const data = new vastai.Volume("data", { offer: { maxPricePerGbMonth: 0.15, location: "US" }, sizeGb: 100 });
 *   new vastai.Instance("gpu", { offerId, image: "ubuntu:22.04", volume: { createNew: false, volumeId: data.volumeId, mountPath: "/data" } });
 *
 * Deleting it deletes the volume and its data; the service refuses while an instance uses it.
 */
export class Volume extends VolumeBase {
  constructor(name: string, args: VolumeArgs, opts?: pulumi.CustomResourceOptions) {
    super("volume", "Volume", name, { ...args, ...VOLUME_OUTPUT_PROPS }, opts);
  }
}
