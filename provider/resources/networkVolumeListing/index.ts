/**
 * `NetworkVolumeListing`: a host's listing of space on one network disk (serving one of its
 * clusters) for renters' network volumes. Same lifecycle as VolumeListing.
 */
import * as pulumi from "@pulumi/pulumi";
import { StorageListing, type StorageListingTerms } from "../kit/storage-listing";

/**
 * Inputs of a `NetworkVolumeListing` resource. Every term but `diskId` changes in place. The
 * vendor client's defaults: $0.15/GB/month, and an end date 1 month ahead.
 */
export interface NetworkVolumeListingArgs extends StorageListingTerms {
  /** The network disk (of this account's cluster) whose space is listed. Changing it lists the new disk, then unlists the old one. */
  diskId: pulumi.Input<number>;
}

/**
 * Space on one network disk this account hosts, listed for renters' network volumes.
 *
 *   new vastai.NetworkVolumeListing("nas-1", { diskId: 8101, sizeGb: 2000, pricePerGbMonth: 0.12 });
 *
 * Creating lists the space; a disk that already has a listing is not taken over unless
 * `importId` names the disk. Refresh shows a price or end date changed outside Pulumi as
 * drift; a listing unlisted outside Pulumi leaves state. Destroying unlists it; the service
 * refuses while renters still hold network volumes on it. `listingId` is the network volume
 * offer id renters rent from.
 */
export class NetworkVolumeListing extends StorageListing {
  declare readonly diskId: pulumi.Output<number>;
  /** The cluster the disk serves, as the offer shows it. */
  declare readonly clusterId: pulumi.Output<number | null>;

  constructor(name: string, args: NetworkVolumeListingArgs, opts?: pulumi.CustomResourceOptions) {
    super("networkVolumeListing", "NetworkVolumeListing", name, args, opts);
  }
}
