import type { RequestCore } from "../core";
import { ENDPOINTS } from "../endpoints";
import { VastValidationError } from "../errors";
import { offerSearchResponse } from "../schemas-instances";
import type { Offer } from "../types-templates";
import { OfferQuery, buildOfferQuery } from "../wire/filters";

/** Marketplace offers (machines to rent). */
export class OffersApi {
  constructor(private readonly core: RequestCore) {}

  /**
   * Search offers. Filters are camelCase with units in their names (`gpuRamGb` is sent as
   * `gpu_ram` in MB); see util/filters `buildOfferQuery`. Unlike the CLI, no implicit filters
   * are added: pass `CLI_DEFAULT_OFFER_FILTERS` for verified, rentable, unrented offers.
   */
  async search(query: OfferQuery = {}): Promise<Offer[]> {
    let body: Record<string, unknown>;
    try {
      body = buildOfferQuery(query);
    } catch (error) {
      throw new VastValidationError((error as Error).message);
    }
    return this.core.request({ endpoint: ENDPOINTS.offersSearch, body, schema: offerSearchResponse });
  }
}
