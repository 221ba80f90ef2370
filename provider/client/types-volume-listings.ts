/** A host's volume listings: disk on a machine, or space on a network disk, listed for volumes. */
import type { VolumeKind } from "./types-volumes";

/** The terms of a volume listing, in the client's units. */
export interface VolumeListingTerms {
  /** GB listed, a whole number. */
  sizeGb: number;
  /** $ per GB per month. */
  pricePerGbMonth: number;
  /** When the listing ends, Unix seconds; the service's default when left out. */
  endDate?: number;
}

/** A volume listing as the volume offer search shows it. */
export interface VolumeListing {
  /** The listing's id: the offer id renters rent from and `unlist` takes. */
  id: number;
  kind: VolumeKind;
  /** Local listings: the machine. */
  machineId: number | null;
  /** Network listings: the network disk, when the offer row names it (`disk_id`). */
  diskId: number | null;
  /** Network listings: the cluster the disk serves. */
  clusterId: number | null;
  hostId: number | null;
  /** GB not yet rented. */
  freeGb: number;
  /** $ per GB per month. */
  pricePerGbMonth: number | null;
  /** When the listing ends, Unix seconds (from the offer's time left, by this machine's clock); null when not shown. */
  endDate: number | null;
  /** The offer row as sent. */
  raw: Record<string, unknown>;
}
