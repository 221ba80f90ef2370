/** Choosing the offer(s) to rent: the given `offerId`, or the cheapest matches of `offer` filters. */
import type { OfferFilters, OfferSearch, VastClient } from "../../client";
import { choosingCount, isClaimed } from "../kit";
import { withinBid } from "./bid";
import { windowSearch } from "./offer-window";
import type { InstanceInputs, OfferFiltersInput } from "./inputs";

/** Disk the service gives an instance when neither the request nor its template names one, GB. */
export const SERVICE_DEFAULT_DISK_GB = 8;

/**
 * The disk an instance will be rented with, GB: `diskGb`, else its template's
 * `recommended_disk_space` (one template search), else the service's default. Searches price
 * this disk into `dph_total`, and the create sends it, so the price judged is the price paid.
 */
export async function diskToRent(client: VastClient, inputs: { diskGb?: number; templateHashId?: string }): Promise<number> {
  if (inputs.diskGb !== undefined) return inputs.diskGb;
  if (inputs.templateHashId) {
    const [template] = await client.templates.search({ hashId: inputs.templateHashId });
    const recommended = template?.recommendedDiskSpace;
    if (typeof recommended === "number" && recommended > 0) return recommended;
  }
  return SERVICE_DEFAULT_DISK_GB;
}

/** Filter inputs of Instance's own (a minimum, a maximum, a list): the rest are the vocabulary's. */
const OWN_FIELDS = new Set(["gpuName", "numGpus", "gpuRamGb", "maxPricePerHour", "minReliability", "location", "verified", "minDirectPorts"]);

/** Most matches fetched (and so tried, when offers are gone or fail to boot) per create. */
export const MAX_OFFER_CANDIDATES = 10;

/**
 * The offer search for `offer` filters, cheapest first. `gpuRamGb` is a minimum per GPU and
 * is sent in MB (the REST API's unit) by the query builder. Only offers that can be rented
 * now are asked for, as the official CLI does. The service prices the disk into each offer's
 * `dph_total`: the disk the instance will be rented with is sent (diskToRent), so
 * `maxPricePerHour` is judged against what the instance will cost.
 */
export function offerQueryFor(f: OfferFiltersInput, diskGb?: number, directPorts = 0): OfferSearch {
  // The vocabulary's fields pass as given (checked by the inputs' schema and the query builder).
  const vocabulary = Object.fromEntries(Object.entries(f).filter(([k]) => !OWN_FIELDS.has(k))) as OfferFilters;
  const filters: OfferFilters = { rentable: true, rented: false, ...vocabulary };
  const ports = f.minDirectPorts ?? directPorts;
  if (ports > 0 && filters.directPortCount === undefined) filters.directPortCount = { gte: ports };
  if (f.gpuName !== undefined) filters.gpuName = f.gpuName;
  if (f.numGpus !== undefined) filters.numGpus = f.numGpus;
  if (f.gpuRamGb !== undefined) filters.gpuRamGb = { gte: f.gpuRamGb };
  if (f.maxPricePerHour !== undefined) filters.dphTotal = { lte: f.maxPricePerHour };
  if (f.minReliability !== undefined) filters.reliability = { gte: f.minReliability };
  if (f.location !== undefined) filters.geolocation = Array.isArray(f.location) ? { in: f.location } : f.location;
  if (f.verified !== undefined) filters.verified = f.verified;
  return { filters, order: [["dphTotal", "asc"]], type: "on-demand", limit: MAX_OFFER_CANDIDATES, allocatedStorageGb: diskGb };
}

/**
 * Direct ports a rental needs by default: one per published port when `ports` are given or
 * `readiness` probes one (a machine without direct ports never publishes a port; the vendor
 * warns below 3 per GPU), one more for direct SSH; none otherwise.
 */
export function directPortsNeeded(inputs: { ports?: readonly string[]; readiness?: unknown; ssh?: { direct?: boolean } }): number {
  const published = inputs.ports?.length ?? 0;
  const ssh = inputs.ssh?.direct === true ? 1 : 0;
  if (published > 0) return published + ssh;
  return (inputs.readiness ? 1 : 0) + ssh;
}

/** Offer ids to try, in order. Throws when filters match nothing. */
export async function candidateOffers(client: VastClient, inputs: InstanceInputs): Promise<number[]> {
  return (await candidateOfferList(client, inputs)).map((o) => o.id);
}

/** Offers to try, in order, with their machines (unknown for a given offerId). Throws when filters match nothing. */
export async function candidateOfferList(
  client: VastClient,
  inputs: InstanceInputs,
  options: { allowNone?: boolean; fresh?: boolean } = {},
): Promise<{ id: number; machineId?: number; pricePerHour?: number }[]> {
  if (inputs.offerId !== undefined) return [{ id: inputs.offerId }];
  const filters = inputs.offer ?? {};
  // Offers other creates of this process hold are skipped, and the creates choosing at the same
  // time will each take one (kit/claims.ts): they share one search, a window of matches
  // searched again only when it runs short (offer-window.ts).
  const others = Math.max(0, choosingCount(client) - 1);
  const query = offerQueryFor(filters, inputs.diskGb, directPortsNeeded(inputs));
  const bid = inputs.bidPricePerHour;
  // A bid searches the interruptible market and leaves out machines whose going price is above it (bid.ts).
  const found = await windowSearch(client, bid === undefined ? query : { ...query, type: "bid" }, { fresh: options.fresh });
  const offers = bid === undefined ? found : withinBid(found, bid);
  if (offers.length === 0 && found.length > 0) {
    const lowest = Math.min(...found.map((o) => o.minBid ?? Infinity));
    throw new Error(
      `Instance: every offer matching the offer filters ${JSON.stringify(filters)} asks more than bidPricePerHour ${String(bid)} ` +
        `(the lowest min_bid is ${lowest} $/hour); raise bidPricePerHour or widen the filters`,
    );
  }
  // An instance an earlier run left is adopted first: it holds its offer, so none may match.
  if (offers.length === 0 && options.allowNone) return [];
  if (offers.length === 0) {
    const ports = query.filters?.directPortCount;
    const defaulted = filters.minDirectPorts === undefined && ports !== undefined && (filters as Record<string, unknown>).directPortCount === undefined;
    const why = defaulted
      ? ` and direct ports (direct_port_count >= ${(ports as { gte: number }).gte}, one per published port); set offer.minDirectPorts: 0 to rent machines without them`
      : "";
    throw new Error(`Instance: no offer matches the offer filters ${JSON.stringify(filters)}${why}; widen them (for example raise maxPricePerHour)`);
  }
  // Cheapest first even if the service ignored the order; ties keep the service's order.
  const ranked = offers.map((o, i) => ({ id: o.id, machineId: o.machineId, price: o.dphTotal ?? Infinity, i }));
  ranked.sort((a, b) => a.price - b.price || a.i - b.i);
  const free = ranked.filter((o) => !isClaimed(client, o.id));
  if (free.length === 0) {
    throw new Error(
      `Instance: every offer matching the offer filters ${JSON.stringify(filters)} is being rented by other resources of this run ` +
        `(${ranked.length} offer(s)); widen the filters`,
    );
  }
  return free.slice(0, MAX_OFFER_CANDIDATES + others).map((o) => ({ id: o.id, machineId: o.machineId, pricePerHour: Number.isFinite(o.price) ? o.price : undefined }));
}
