import type { Logger, RequestCore } from "../core";
import { ENDPOINTS } from "../endpoints";
import { VastValidationError } from "../errors";
import { offerSearchResponse } from "../schemas-instances";
import type { Offer } from "../types-templates";
import { CLI_DEFAULT_OFFER_FILTERS, OfferQuery, buildOfferQuery, type OfferField } from "../wire/filters";

/**
 * The vendor client's implicit filters: verified, on the public market (not external),
 * rentable and not rented. A filter the caller gives on the same field wins.
 */
export const DEFAULT_OFFER_FILTERS = { ...CLI_DEFAULT_OFFER_FILTERS, external: false } as const;

/** The vendor client's order when none is given: best score first. */
export const DEFAULT_OFFER_ORDER: ReadonlyArray<[OfferField, "asc" | "desc"]> = [["score", "desc"]];

/** Disk priced into `dph_total` when no size is given, GB (the vendor client's default). */
export const DEFAULT_ALLOCATED_STORAGE_GB = 5;

/** An offer search as `searchOffers` takes it: the query plus the disk to price and whether to drop the default filters. */
export interface OfferSearch extends OfferQuery {
  /**
   * Disk the instance will have, GB; the service prices it into `dphTotal`, so a price limit
   * is checked against the real total. Default 5 (the vendor client's); without it the
   * service prices 8 GB.
   */
  allocatedStorageGb?: number;
  /** Leave out the default filters (verified, not external, rentable, not rented). Default false. */
  noDefaults?: boolean;
}

/** Marketplace offers (machines to rent). */
export class OffersApi {
  constructor(
    private readonly core: RequestCore,
    private readonly logger?: Logger,
  ) {}

  /**
   * Search offers as the vendor's client does: the default filters unless `noDefaults` (a
   * filter given on the same field wins), best score first unless `order` is given, and the
   * disk to price (`allocatedStorageGb`). Filters are camelCase with units in their names
   * (`gpuRamGb` is sent as `gpu_ram` in MB); see wire/filters `buildOfferQuery`. An offer row
   * that does not validate is skipped (and counted in a debug line), never fatal to the list.
   */
  async search(query: OfferSearch = {}): Promise<Offer[]> {
    const { allocatedStorageGb, noDefaults, ...rest } = query;
    const storage = allocatedStorageGb ?? DEFAULT_ALLOCATED_STORAGE_GB;
    if (typeof storage !== "number" || !Number.isFinite(storage) || storage <= 0) {
      throw new VastValidationError(`allocatedStorageGb must be a positive number of GB, got ${String(storage)}`);
    }
    let body: Record<string, unknown>;
    try {
      body = buildOfferQuery({
        ...rest,
        filters: noDefaults ? rest.filters : { ...DEFAULT_OFFER_FILTERS, ...rest.filters },
        order: rest.order ?? [...DEFAULT_OFFER_ORDER],
      });
    } catch (error) {
      throw new VastValidationError((error as Error).message);
    }
    body.allocated_storage = storage;
    const rows = await this.core.request({ endpoint: ENDPOINTS.offersSearch, body, schema: offerSearchResponse });
    if (rows.skipped > 0) {
      this.logger?.debug?.(`POST ${ENDPOINTS.offersSearch.route}: skipped ${rows.skipped} offer row(s) that did not validate (first: ${rows.firstProblem})`);
    }
    return rows.items;
  }
}
