/**
 * What the two storage listings (`VolumeListing`: disk of one machine; `NetworkVolumeListing`:
 * space on one network disk) have in common: the terms, the outputs and the constructor. Each
 * class adds only the field naming what is listed (`machineId` or `diskId`).
 */
import * as pulumi from "@pulumi/pulumi";
import type { ResourceKind } from "./kinds";
import { ImportArgs, VastResource } from "./resource";

/** The terms of a storage listing. Every term changes in place. */
export interface StorageListingTerms extends ImportArgs {
  /** GB listed, a whole number. */
  sizeGb: pulumi.Input<number>;
  /** Storage price renters pay, $/GB/month. */
  pricePerGbMonth: pulumi.Input<number>;
  /**
   * When the listing ends: ISO 8601 with a time zone or Unix seconds, in the future when set or
   * changed. Left out, the service picks it.
   */
  endDate?: pulumi.Input<string | number>;
}

/** The outputs every storage listing's state carries (the keys existing stacks hold). */
const OUTPUTS = { listingId: undefined, listed: undefined, freeGb: undefined, endDateUnix: undefined, clusterId: undefined, hostId: undefined, imported: undefined };

export abstract class StorageListing extends VastResource {
  declare readonly sizeGb: pulumi.Output<number>;
  declare readonly pricePerGbMonth: pulumi.Output<number>;
  declare readonly endDate: pulumi.Output<string | number | undefined>;
  /** The listing's id: the offer id renters rent from. */
  declare readonly listingId: pulumi.Output<number>;
  /** True while the space is listed (as of the last create, update or refresh). */
  declare readonly listed: pulumi.Output<boolean>;
  /** GB of the listing not yet rented, as the service showed it. */
  declare readonly freeGb: pulumi.Output<number | null>;
  /** When the listing ends, Unix seconds, as the service showed it (its time left, read by this machine's clock). */
  declare readonly endDateUnix: pulumi.Output<number | null>;
  /** The host account's id, as the offer shows it. */
  declare readonly hostId: pulumi.Output<number | null>;
  /** True when the resource took over an existing listing (`importId`) instead of creating one. */
  declare readonly imported: pulumi.Output<boolean | undefined>;

  protected constructor(kind: ResourceKind, type: string, name: string, args: StorageListingTerms, opts?: pulumi.CustomResourceOptions) {
    super(kind, type, name, { endDate: undefined, ...args, ...OUTPUTS }, opts);
  }
}
