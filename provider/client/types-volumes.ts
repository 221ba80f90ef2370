/** Volumes: storage rented from a volume offer, local to one machine or served over a cluster's network. */

/** `local`: a volume on one machine (`/volumes/`); `network`: a network volume of a cluster (`/network_volumes/`). */
export type VolumeKind = "local" | "network";

/** An offer of volume storage, as the volume searches show it. */
export interface VolumeOffer {
  id: number;
  machineId: number | null;
  hostId: number | null;
  /** Network volume offers: the cluster the storage serves. */
  clusterId: number | null;
  /** GB free for volumes on the offer. */
  diskSpaceGb: number;
  /** $ per GB per month. */
  storageCostPerGbMonth: number | null;
  /** $ per hour for the `allocatedStorageGb` the search priced. */
  storageTotalCostPerHour: number | null;
  reliability: number | null;
  verified: boolean | null;
  geolocation: string | null;
  inetUpMbps: number | null;
  inetDownMbps: number | null;
  /** Days the offer stays available, when the service says. */
  durationDays: number | null;
  /** The record as sent. */
  raw: Record<string, unknown>;
}

/** A volume of the account, as `GET /api/v0/volumes/` lists it. */
export interface Volume {
  id: number;
  kind: VolumeKind | null;
  /** The name the service holds (`label` in the list). */
  name: string | null;
  /** GB. */
  sizeGb: number | null;
  status: string | null;
  machineId: number | null;
  clusterId: number | null;
  hostId: number | null;
  geolocation: string | null;
  /** Ids of the instances using the volume. */
  instanceIds: number[];
  /** Unix seconds. */
  startDate: number | null;
  /** $ per hour. */
  storageTotalCostPerHour: number | null;
  raw: Record<string, unknown>;
}

/** What renting a volume sends: the offer, the size and the name. */
export interface CreateVolumeInput {
  /** The volume offer to rent from. */
  offerId: number;
  /** GB, a whole number. */
  sizeGb: number;
  /** Optional name the service keeps. */
  name?: string;
}

/** The service's answer to renting a volume: its id. */
export interface CreatedVolume {
  /** The new volume's id when the answer names it (`volume_name` "V.<id>"), else null. */
  id: number | null;
  /** The answer's `volume_name`. */
  volumeName: string | null;
}
