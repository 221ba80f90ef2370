/** Volumes of the simulator's accounts (types.ts holds them as `SimData.volumes`). */

export interface VolumeRecord {
  id: number;
  userId: number;
  /** `local`: on the offer's machine; `network`: on the offer's cluster. */
  kind: "local" | "network";
  offerId: number;
  machineId: number | null;
  clusterId: number | null;
  /** The name given at creation ("" when none). */
  name: string;
  sizeGb: number;
  createdAt: number;
}

/**
 * A host's listing of disk for volumes (`POST /api/v0/volumes/` on a machine, `POST
 * /api/v0/network_volumes/` on a network disk): it shows in the volume offer searches under
 * its id until unlisted. Absent from state files written before listings existed.
 */
export interface VolumeListingRecord {
  id: number;
  userId: number;
  kind: "local" | "network";
  /** Local listings: the machine the disk is on. */
  machineId: number | null;
  /** Network listings: the host's network disk, and the cluster it serves. */
  diskId: number | null;
  clusterId: number | null;
  /** GB listed. */
  sizeGb: number;
  /** $ per GB per month. */
  priceDisk: number;
  /** Unix seconds: the listing ends then. */
  endDate: number;
}

export interface VolumeData {
  /** Hosts' volume listings (see VolumeListingRecord); absent until the first one. */
  listings?: VolumeListingRecord[];
  items: VolumeRecord[];
  nextId: number;
  /** Volume offers whose state the control API changed; the rest are available. */
  offerStates: Record<string, "available" | "gone">;
}

/** Ids of hosts' volume listings start here (after the seeded volume offers). */
export const FIRST_VOLUME_LISTING_ID = 970_001;

/** Ids look like the service's (`V.20118481`). */
export const FIRST_VOLUME_ID = 20_000_001;

export function emptyVolumeData(): VolumeData {
  return { items: [], nextId: FIRST_VOLUME_ID, offerStates: {} };
}
