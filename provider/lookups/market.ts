/** Lookups of the marketplace: templates, offers, the account's instances; and bundle acceptance. */
import * as pulumi from "@pulumi/pulumi";
import type { Offer, Template, Instance } from "../client/types-templates";
import type { AcceptBundleInput } from "../client/types-account";
import type { OfferSearch } from "../client/areas/offers";
import type { TemplateFilters } from "../client/wire/filters";
import { OFFER_FILTER_FIELDS } from "../client/wire/filters";
import { LookupOptions, clientOf, knownArgs, outputVariant, positiveInt } from "./common";

/**
 * Templates matching the filters, for example
 * `getTemplates({ name: "PyTorch (CUDA)" })` or `getTemplates({ recommendedDiskSpace: { lte: 20 }, useSsh: true })`.
 * A bare value means `eq`; operators are eq, neq, lt, lte, gt, gte, in and notin (arrays for
 * in/notin), typed by field. An unknown field is refused, because the service answers a filter
 * mistake (or a key without `user_read`) with an empty list rather than an error.
 */
export function getTemplates(filters: TemplateFilters = {}, options?: LookupOptions): Promise<Template[]> {
  return clientOf(options).templates.search(filters);
}
/** `getTemplates` with Pulumi inputs, as an Output. */
export const getTemplatesOutput = outputVariant(getTemplates);

/**
 * Offers matching a query, for example
 * `searchOffers({ filters: { gpuName: "RTX 4090", gpuRamGb: { gte: 24 } }, order: [["dphTotal", "asc"]], limit: 5, allocatedStorageGb: 50 })`.
 * Sizes are in GB with the unit in the name (`gpuRamGb` is sent as `gpu_ram` in MB, as the
 * REST API wants). As the vendor's command-line tool: only verified, non-external, rentable,
 * unrented offers unless a filter on the same field says otherwise (`noDefaults: true` drops
 * them), best score first unless `order` is given, and prices for `allocatedStorageGb` of disk
 * (default 5 GB).
 */
export async function searchOffers(query: OfferSearch = {}, options?: LookupOptions): Promise<Offer[]> {
  knownArgs("searchOffers", query, ["filters", "order", "type", "limit", "allocatedStorageGb", "noDefaults"], { under: "filters", names: OFFER_FILTER_FIELDS });
  return clientOf(options).offers.search(query);
}
/** `searchOffers` with Pulumi inputs, as an Output. */
export const searchOffersOutput = outputVariant(searchOffers);

/** Every instance of the account, as the service reports it now. */
export function getInstances(options?: LookupOptions): Promise<Instance[]> {
  return clientOf(options).instances.list();
}
/** `getInstances` as an Output. */
export function getInstancesOutput(options?: LookupOptions): pulumi.Output<Instance[]> {
  return pulumi.output(getInstances(options));
}

/**
 * Accept a bundle offer (a group of asks) at a price.
 *
 * The service has disabled this endpoint: it answers an empty object `{}` and accepts
 * nothing. The call is kept so programs can be written against it; it is a write, so it has
 * no `...Output` variant (a preview would run it).
 */
export function acceptBundle(bundleId: number, input: AcceptBundleInput, options?: LookupOptions): Promise<Record<string, unknown>> {
  return clientOf(options).bundles.accept(positiveInt("acceptBundle", "bundleId", bundleId), input);
}
