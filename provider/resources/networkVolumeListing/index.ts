/**
 * `NetworkVolumeListing`: a host's listing of space on one network disk (serving one of its
 * clusters) for renters' network volumes. Same lifecycle as VolumeListing.
 */
import * as pulumi from "@pulumi/pulumi";
import { ImportArgs, VastResource } from "../kit/resource";

/** Inputs of a `NetworkVolumeListing` resource. Every term but `diskId` changes in place. */
export interface NetworkVolumeListingArgs extends ImportArgs {
  /** The network disk (of this account's cluster) whose space is listed. Changing it lists the new disk, then unlists the old one. */
  diskId: pulumi.Input<number>;
  /** GB of the disk listed for network volumes, a whole number. */
  sizeGb: pulumi.Input<number>;
  /** Storage price renters pay, $/GB/month (the vendor client's default: 0.15). */
  pricePerGbMonth: pulumi.Input<number>;
  /**
   * When the listing ends: ISO 8601 with a time zone or Unix seconds, in the future when set or
   * changed. Left out, the service picks it (the vendor client says: 1 month ahead).
   */
  endDate?: pulumi.Input<string | number>;
}

/**
 * Space on one network disk this account hosts, listed for renters' network volumes.
 *
 *   new vastai.NetworkVolumeListing("nas-1", { diskId: 8101, sizeGb: 2000, pricePerGbMonth: 0.12 });
 *
 * Creating lists the space; a disk that already has a listing is not taken over unless
 * `importId` names the disk. Refresh shows a price or end date changed outside Pulumi as
 * drift; a listing unlisted outside Pulumi leaves state. Destroying unlists it; the service
 * refuses while renters still hold network volumes on it.
 */
export class NetworkVolumeListing extends VastResource {
  declare readonly diskId: pulumi.Output<number>;
  declare readonly sizeGb: pulumi.Output<number>;
  declare readonly pricePerGbMonth: pulumi.Output<number>;
  declare readonly endDate: pulumi.Output<string | number | undefined>;
  /** The listing's id: the network volume offer id renters rent from. */
  declare readonly listingId: pulumi.Output<number>;
  /** True while the space is listed (as of the last create, update or refresh). */
  declare readonly listed: pulumi.Output<boolean>;
  /** GB of the listing not yet rented, as the service showed it. */
  declare readonly freeGb: pulumi.Output<number | null>;
  /** When the listing ends, Unix seconds, as the service showed it (its time left, read by this machine's clock). */
  declare readonly endDateUnix: pulumi.Output<number | null>;
  /** The cluster the disk serves, as the offer shows it. */
  declare readonly clusterId: pulumi.Output<number | null>;
  /** The host account's id, as the offer shows it. */
  declare readonly hostId: pulumi.Output<number | null>;
  /** True when the resource took over an existing listing (`importId`) instead of creating one. */
  declare readonly imported: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: NetworkVolumeListingArgs, opts?: pulumi.CustomResourceOptions) {
    const outputs = { listingId: undefined, listed: undefined, freeGb: undefined, endDateUnix: undefined, clusterId: undefined, hostId: undefined, imported: undefined };
    super("networkVolumeListing", "NetworkVolumeListing", name, { endDate: undefined, ...args, ...outputs }, opts);
  }
}
