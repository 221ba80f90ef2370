/**
 * `VolumeListing`: a host's listing of disk on one machine for renters' volumes: its size,
 * its price per GB-month and its end date.
 */
import * as pulumi from "@pulumi/pulumi";
import { ImportArgs, VastResource } from "../kit/resource";

/** Inputs of a `VolumeListing` resource. Every term but `machineId` changes in place. */
export interface VolumeListingArgs extends ImportArgs {
  /** The machine (hosted by this account) whose disk is listed. Changing it lists the new machine, then unlists the old one. */
  machineId: pulumi.Input<number>;
  /** GB of the machine's disk listed for volumes, a whole number. */
  sizeGb: pulumi.Input<number>;
  /** Storage price renters pay, $/GB/month (the vendor client's default: 0.10). */
  pricePerGbMonth: pulumi.Input<number>;
  /**
   * When the listing ends: ISO 8601 with a time zone or Unix seconds, in the future when set or
   * changed. Left out, the service picks it (the vendor client says: 3 months ahead).
   */
  endDate?: pulumi.Input<string | number>;
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
 */
export class VolumeListing extends VastResource {
  declare readonly machineId: pulumi.Output<number>;
  declare readonly sizeGb: pulumi.Output<number>;
  declare readonly pricePerGbMonth: pulumi.Output<number>;
  declare readonly endDate: pulumi.Output<string | number | undefined>;
  /** The listing's id: the volume offer id renters rent from (`searchVolumeOffers` shows it). */
  declare readonly listingId: pulumi.Output<number>;
  /** True while the disk is listed (as of the last create, update or refresh). */
  declare readonly listed: pulumi.Output<boolean>;
  /** GB of the listing not yet rented, as the service showed it. */
  declare readonly freeGb: pulumi.Output<number | null>;
  /** When the listing ends, Unix seconds, as the service showed it (its time left, read by this machine's clock). */
  declare readonly endDateUnix: pulumi.Output<number | null>;
  /** The host account's id, as the offer shows it. */
  declare readonly hostId: pulumi.Output<number | null>;
  /** True when the resource took over an existing listing (`importId`) instead of creating one. */
  declare readonly imported: pulumi.Output<boolean | undefined>;

  constructor(name: string, args: VolumeListingArgs, opts?: pulumi.CustomResourceOptions) {
    const outputs = { listingId: undefined, listed: undefined, freeGb: undefined, endDateUnix: undefined, clusterId: undefined, hostId: undefined, imported: undefined };
    super("volumeListing", "VolumeListing", name, { endDate: undefined, ...args, ...outputs }, opts);
  }
}
