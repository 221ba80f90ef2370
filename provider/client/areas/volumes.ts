/**
 * Volumes: storage rented from a volume offer, on one machine (`/volumes/`) or served over a
 * cluster's network (`/network_volumes/`). Both kinds are listed and deleted through
 * `/api/v0/volumes/` (the vendor's client: `show volumes --type`, `delete volume`).
 */
import type { Logger, RequestCore } from "../core";
import { ENDPOINTS } from "../endpoints";
import { BadRequestError, VastError, VastValidationError } from "../errors";
import { acknowledgedResponse } from "../schemas";
import { volumeCreateResponse, volumeListResponse, volumeOfferSearchResponse } from "../schemas-volumes";
import type { DeleteResult } from "../types-templates";
import type { CreateVolumeInput, CreatedVolume, Volume, VolumeKind, VolumeOffer } from "../types-volumes";
import { DEFAULT_VOLUME_OFFER_FILTERS, buildVolumeOfferQuery, type VolumeOfferQuery } from "../wire/volume-filters";
import { SUCCESS_TRUE, deleteConfirmed } from "./confirm";

/** Storage priced into `storage_total_cost` when no size is given, GB (the vendor client's default). */
export const DEFAULT_VOLUME_ALLOCATED_STORAGE_GB = 1;

/** A volume offer search as `searchVolumeOffers` takes it: the query plus the size to price and whether to drop the default filters. */
export interface VolumeOfferSearch extends VolumeOfferQuery {
  /** GB priced into `storageTotalCostPerHour`; default 1 (the vendor client's). */
  allocatedStorageGb?: number;
  /** Leave out the default filters (verified, not external, at least 1 GB free). Default false. */
  noDefaults?: boolean;
}

/** Which volumes a list shows: the service's `type` query. */
export type VolumeListType = VolumeKind | "all";

const LIST_TYPES: Record<VolumeListType, string> = { local: "local_volume", network: "network_volume", all: "all_volume" };

/** The service refuses to delete a volume that instances still use (vendor client: delete volume). */
export class VolumeInUseError extends VastError {
  constructor(
    readonly volumeId: number,
    readonly instanceIds: readonly number[],
    cause: BadRequestError,
  ) {
    super(
      `volume ${volumeId} is in use by instance(s) ${instanceIds.join(", ")}: the service deletes a volume only when no instance uses it ` +
        `(it answered: ${cause.serverMessage ?? cause.message}); destroy those instances, or link them to another volume, first`,
      { cause },
    );
    this.name = "VolumeInUseError";
  }
}

function positiveWhole(name: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) {
    throw new VastValidationError(`${name} must be a positive whole number, got ${JSON.stringify(value) ?? String(value)}`);
  }
  return value;
}

/** The volumes area of the client: offers, rent, list, delete. */
export class VolumesApi {
  constructor(
    private readonly core: RequestCore,
    private readonly logger?: Logger,
  ) {}

  /**
   * Volume offers of one kind, as the vendor's client searches them: the default filters
   * unless `noDefaults` (a filter on the same field wins), best score first unless `order` is
   * given, priced for `allocatedStorageGb`. Rows that do not validate are skipped (debug log).
   */
  async searchOffers(kind: VolumeKind, query: VolumeOfferSearch = {}): Promise<VolumeOffer[]> {
    const { allocatedStorageGb, noDefaults, ...rest } = query;
    const storage = allocatedStorageGb ?? DEFAULT_VOLUME_ALLOCATED_STORAGE_GB;
    if (typeof storage !== "number" || !Number.isFinite(storage) || storage <= 0) {
      throw new VastValidationError(`allocatedStorageGb must be a positive number of GB, got ${String(storage)}`);
    }
    let wire: Record<string, unknown>;
    try {
      wire = buildVolumeOfferQuery({ ...rest, order: rest.order ?? [["score", "desc"]] });
    } catch (error) {
      throw new VastValidationError((error as Error).message);
    }
    const body = { ...(noDefaults ? {} : DEFAULT_VOLUME_OFFER_FILTERS), ...wire, allocated_storage: storage };
    const endpoint = kind === "network" ? ENDPOINTS.networkVolumeOffersSearch : ENDPOINTS.volumeOffersSearch;
    const rows = await this.core.request({ endpoint, body, schema: volumeOfferSearchResponse });
    if (rows.skipped > 0) this.logger?.debug?.(`POST ${endpoint.route}: skipped ${rows.skipped} offer row(s) that did not validate (first: ${rows.firstProblem})`);
    return rows.items;
  }

  /** Volumes of the account (`owner=me`), of one kind or all. */
  async list(type: VolumeListType = "all"): Promise<Volume[]> {
    return this.core.request({ endpoint: ENDPOINTS.volumesList, query: { owner: "me", type: LIST_TYPES[type] }, schema: volumeListResponse });
  }

  /**
   * Rent a volume of `sizeGb` from offer `offerId`. Not resent if the response is lost: list
   * to check (a name that carries a marker finds it).
   */
  async create(kind: VolumeKind, input: CreateVolumeInput): Promise<CreatedVolume> {
    const body: Record<string, unknown> = { id: positiveWhole("offerId", input.offerId), size: positiveWhole("sizeGb", input.sizeGb) };
    if (input.name !== undefined && input.name !== "") body.name = input.name;
    const endpoint = kind === "network" ? ENDPOINTS.networkVolumesCreate : ENDPOINTS.volumesCreate;
    return this.core.request({ endpoint, body, schema: volumeCreateResponse });
  }

  /**
   * Delete a volume of either kind. The vendor document puts the id in the JSON body, the
   * vendor's client in the query: both are sent. An unknown id (the service's 404
   * `no_such_volume`) resolves `{alreadyGone: true}`; a volume instances still use is refused
   * by the service and thrown as VolumeInUseError naming them.
   */
  async delete(id: number): Promise<DeleteResult> {
    positiveWhole("volume id", id);
    try {
      return await deleteConfirmed({
        what: `volume ${id}`,
        run: () => this.core.request({ endpoint: ENDPOINTS.volumesDelete, query: { id }, body: { id }, schema: acknowledgedResponse, documented: SUCCESS_TRUE }),
        stillThere: async () => (await this.list()).some((v) => v.id === id),
      });
    } catch (error) {
      if (!(error instanceof BadRequestError)) throw error;
      const live = (await this.list()).find((v) => v.id === id);
      if (live && live.instanceIds.length > 0) throw new VolumeInUseError(id, live.instanceIds, error);
      throw error;
    }
  }
}
