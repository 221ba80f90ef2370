/**
 * `VolumeListing`: a host's listing of disk on one machine for renters' volumes: its size,
 * its price per GB-month and its end date.
 */
import * as pulumi from "@pulumi/pulumi";
import { StorageListing, type StorageListingTerms } from "../kit/storage-listing";

/**
 * Inputs of a `VolumeListing` resource. Every term but `machineId` changes in place. The vendor
 * client's defaults: $0.10/GB/month, and an end date 3 months ahead.
 */
export interface VolumeListingArgs extends StorageListingTerms {
  /** The machine (hosted by this account) whose disk is listed. Changing it lists the new machine, then unlists the old one. */
  machineId: pulumi.Input<number>;
}

/**
 * Disk on one machine this account hosts, listed for renters' volumes.
 *
 *   new vastai.VolumeListing("rig-1-disk", {
 *     machineId: 50001,
 *     sizeGb: 500,
 *     pricePerGbMonth: 0.08,
 *     endDate: "2031-01-01T00:00:00Z",
 *   });
 *
 * Creating lists the disk; a machine that already has a volume listing (listing a machine may
 * make one) is not taken over unless `importId` names the machine (then the declared terms
 * replace the listed ones). Refresh shows a price or end date changed outside Pulumi as drift,
 * and a listing unlisted outside Pulumi leaves state (the next `up` lists it again).
 * Destroying unlists it; the service refuses while renters still hold volumes on it.
 * `listingId` is the volume offer id renters rent from (`searchVolumeOffers` shows it).
 */
export class VolumeListing extends StorageListing {
  declare readonly machineId: pulumi.Output<number>;

  constructor(name: string, args: VolumeListingArgs, opts?: pulumi.CustomResourceOptions) {
    super("volumeListing", "VolumeListing", name, args, opts);
  }
}
