/** Lookups of volumes: the offers to rent one from, and the account's volumes. */
import type { Volume, VolumeOffer } from "../client/types-volumes";
import type { VolumeListType, VolumeOfferSearch } from "../client/areas/volumes";
import { VastValidationError } from "../client/errors";
import { VOLUME_OFFER_FILTER_FIELDS } from "../client/wire/volume-filters";
import { LookupOptions, clientOf, knownArgs, outputVariant } from "./common";

const SEARCH_ARGS = ["filters", "order", "limit", "allocatedStorageGb", "noDefaults"];

/**
 * Offers of local volume storage, for example
 * `searchVolumeOffers({ filters: { storageCost: { lte: 0.1 }, diskSpace: { gte: 100 } }, order: [["storageCost", "asc"]], limit: 5 })`.
 * Sizes are GB, `storageCost` $ per GB per month, `durationDays` days (sent in seconds). As the
 * vendor's command-line tool: verified, non-external offers with at least 1 GB free unless a
 * filter on the same field says otherwise (`noDefaults: true` drops them), best `score` first
 * unless `order` is given, priced for `allocatedStorageGb` (default 1 GB).
 */
export async function searchVolumeOffers(query: VolumeOfferSearch = {}, options?: LookupOptions): Promise<VolumeOffer[]> {
  knownArgs("searchVolumeOffers", query, SEARCH_ARGS, { under: "filters", names: VOLUME_OFFER_FILTER_FIELDS });
  return clientOf(options).volumes.searchOffers("local", query);
}
/** `searchVolumeOffers` with Pulumi inputs, as an Output. */
export const searchVolumeOffersOutput = outputVariant(searchVolumeOffers);

/** Offers of network volume storage; the query is `searchVolumeOffers`' (`clusterId` and the `nwDisk*Bw` fields apply here). */
export async function searchNetworkVolumeOffers(query: VolumeOfferSearch = {}, options?: LookupOptions): Promise<VolumeOffer[]> {
  knownArgs("searchNetworkVolumeOffers", query, SEARCH_ARGS, { under: "filters", names: VOLUME_OFFER_FILTER_FIELDS });
  return clientOf(options).volumes.searchOffers("network", query);
}
/** `searchNetworkVolumeOffers` with Pulumi inputs, as an Output. */
export const searchNetworkVolumeOffersOutput = outputVariant(searchNetworkVolumeOffers);

/** Arguments of `getVolumes`: which volumes to list (`local`, `network` or `all`). */
export interface GetVolumesArgs {
  /** `local`, `network` or `all` (default). */
  type?: VolumeListType;
}

/** The account's volumes as the service lists them now, with the instances using each. */
export async function getVolumes(args: GetVolumesArgs = {}, options?: LookupOptions): Promise<Volume[]> {
  knownArgs("getVolumes", args, ["type"]);
  const type = args.type ?? "all";
  if (type !== "local" && type !== "network" && type !== "all") {
    throw new VastValidationError(`getVolumes: type must be "local", "network" or "all" (got ${JSON.stringify(type)})`);
  }
  return clientOf(options).volumes.list(type);
}
/** `getVolumes` with Pulumi inputs, as an Output. */
export const getVolumesOutput = outputVariant(getVolumes);
