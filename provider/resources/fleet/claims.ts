/**
 * Choosing a fleet's offers through the process's offer claims (kit/claims.ts), so two members,
 * two fleets, or a fleet and an Instance never race for the same offer. A claim is held while
 * the offer's member lives (a rented offer is taken anyway) and released when the member is
 * destroyed or the offer was not used. The choice honours the price cap, the machines
 * remembered as bad and the spread (at most `max` members per machine or per country).
 */
import type { Offer, VastClient } from "../../client";
import { directPortsNeeded, offerQueryFor } from "../instance/offers";
import { claim } from "../kit";
import type { FleetInputs } from "./inputs";
import type { Candidate } from "./candidate";
import { withVolumeOffers } from "./volumes";

export type { Candidate } from "./candidate";

export { claim, isClaimed, release, resetClaims } from "../kit";

/** The country of an offer's `geolocation`: "Sweden, SE" -> "SE", "US" -> "US". */
export function countryOf(geolocation: string | null | undefined): string {
  if (!geolocation) return "?";
  const parts = geolocation.split(",");
  return parts[parts.length - 1].trim().toUpperCase();
}

function candidateOf(o: Offer): Candidate {
  const storage = Number((o.raw as Record<string, unknown> | undefined)?.storage_total_cost);
  return {
    id: o.id,
    machineId: o.machineId ?? null,
    country: countryOf(o.geolocation),
    pricePerHour: o.dphTotal ?? Infinity,
    storagePerHour: Number.isFinite(storage) ? storage : 0,
  };
}

/**
 * Matches of the fleet's filters and price cap, cheapest first (`want` bounds the search). With
 * `volume`, only offers on machines with a volume offer for the member's volume (volumes.ts).
 */
export async function searchCandidates(client: VastClient, inputs: FleetInputs, want: number): Promise<Candidate[]> {
  const caps = [inputs.offer.maxPricePerHour, inputs.maxPricePerHour].filter((v): v is number => v !== undefined);
  const filters = { ...inputs.offer, maxPricePerHour: caps.length > 0 ? Math.min(...caps) : undefined };
  // Some machines have no volume offer: a wider search leaves enough that have one.
  const limit = inputs.volume ? want * 10 + 50 : want * 3 + 10;
  const query = { ...offerQueryFor(filters, inputs.diskGb, directPortsNeeded(inputs)), limit: Math.min(1000, limit) };
  const offers = await client.offers.search(query);
  const ranked = offers
    .map((o, i) => ({ c: candidateOf(o), i }))
    .sort((a, b) => a.c.pricePerHour - b.c.pricePerHour || a.i - b.i)
    .map((x) => x.c);
  return inputs.volume ? withVolumeOffers(client, ranked, inputs.volume) : ranked;
}

/** Where members are: machine and country of each kept member. */
export interface Placement {
  machineId: number | null;
  country: string;
}

/** Which key the spread counts for a placement; undefined without spread. */
export function spreadKey(inputs: Pick<FleetInputs, "spread">, p: Placement): string | undefined {
  if (!inputs.spread) return undefined;
  return inputs.spread.by === "machine" ? `m${p.machineId ?? "?"}` : `c${p.country}`;
}

/**
 * Picks and claims up to `n` offers from `candidates` (cheapest first): unclaimed, not on a bad
 * machine, and within the spread given the members already `placed`.
 */
export function pickOffers(
  client: VastClient,
  inputs: Pick<FleetInputs, "spread">,
  candidates: readonly Candidate[],
  n: number,
  placed: readonly Placement[],
  badMachines: ReadonlySet<number>,
): Candidate[] {
  const used = new Map<string, number>();
  const bump = (p: Placement) => {
    const key = spreadKey(inputs, p);
    if (key !== undefined) used.set(key, (used.get(key) ?? 0) + 1);
  };
  placed.forEach(bump);
  const picked: Candidate[] = [];
  for (const c of candidates) {
    if (picked.length >= n) break;
    if (c.machineId !== null && badMachines.has(c.machineId)) continue;
    const key = spreadKey(inputs, c);
    if (key !== undefined && (used.get(key) ?? 0) >= (inputs.spread?.max ?? Infinity)) continue;
    if (!claim(client, c.id)) continue;
    picked.push(c);
    bump(c);
  }
  return picked;
}
