/**
 * Hosts' volume listings as volume offers: a listing shows in the volume offer search of its
 * kind under its own id, with its size, price and the time left to its end date, and can be
 * rented like a seeded offer until it is unlisted.
 */
import type { SimContext } from "../context";
import { machineById } from "../seed/machines";
import type { VolumeOfferSeed } from "../seed/volume-offers";
import type { Store } from "../store/store";
import type { VolumeListingRecord } from "../store/volume-types";

/** Reliability shown on a host's listing (the simulator keeps no record of a host's past). */
const LISTING_RELIABILITY = 0.99;

export function volumeListings(store: Store): VolumeListingRecord[] {
  store.data.volumes.listings ??= [];
  return store.data.volumes.listings;
}

/** A listing as an offer seed; `duration` is the seconds left to its end date. */
export function listingAsOffer(l: VolumeListingRecord, nowMs: number): VolumeOfferSeed {
  const machine = l.machineId === null ? undefined : machineById(l.machineId);
  return {
    id: l.id,
    kind: l.kind,
    machineId: l.machineId,
    clusterId: l.clusterId,
    hostId: l.userId,
    diskSpace: l.sizeGb,
    storageCost: l.priceDisk,
    reliability: LISTING_RELIABILITY,
    geolocation: machine?.geolocation ?? "US",
    verified: true,
    inetDown: l.kind === "network" ? 10000 : 1000,
    duration: Math.max(0, Math.round(l.endDate - nowMs / 1000)),
  };
}

/** Listings whose end date has not passed, as offers. */
export function listedOffers(ctx: SimContext): { offer: VolumeOfferSeed; listing: VolumeListingRecord }[] {
  const now = ctx.now();
  return volumeListings(ctx.store)
    .filter((l) => l.endDate * 1000 > now)
    .map((listing) => ({ offer: listingAsOffer(listing, now), listing }));
}

/** The listing `id` as an offer, when it is listed and not past its end date. */
export function listedOffer(ctx: SimContext, id: number): VolumeOfferSeed | undefined {
  return listedOffers(ctx).find((x) => x.offer.id === id)?.offer;
}
