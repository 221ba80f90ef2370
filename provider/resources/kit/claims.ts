/**
 * Offer claims of one plugin process. The engine runs the creates of one \`pulumi up\` in
 * parallel in one process; without claims, every Instance and every Fleet member created from
 * the same offer filters would pick the same cheapest offer at once, and all but one would be
 * refused (or, on a service that takes the second rental silently, fail later). A create claims
 * an offer before renting it and skips offers another create holds. Claims belong to the
 * process's client (one per plugin process, as the shared readers do).
 */
import type { VastClient } from "../../client";

let claimsByClient = new WeakMap<VastClient, Set<number>>();

function claimsOf(client: VastClient): Set<number> {
  let claims = claimsByClient.get(client);
  if (!claims) {
    claims = new Set();
    claimsByClient.set(client, claims);
  }
  return claims;
}

/** Claims \`offerId\` for this process; false when another create holds it. */
export function claim(client: VastClient, offerId: number): boolean {
  const claims = claimsOf(client);
  if (claims.has(offerId)) return false;
  claims.add(offerId);
  return true;
}

export function release(client: VastClient, offerId: number): void {
  claimsOf(client).delete(offerId);
}

export function isClaimed(client: VastClient, offerId: number): boolean {
  return claimsOf(client).has(offerId);
}

/** Offers this process holds. */
export function claimCount(client: VastClient): number {
  return claimsOf(client).size;
}

let choosingByClient = new WeakMap<VastClient, number>();

/**
 * Marks a create as choosing an offer until the returned function is called: creates that start
 * together all search before any of them claims, so each asks for (and keeps) as many more
 * matches as there are creates choosing at once, and then takes the first one nobody claimed.
 */
export function startChoosing(client: VastClient): () => void {
  choosingByClient.set(client, (choosingByClient.get(client) ?? 0) + 1);
  let done = false;
  return () => {
    if (done) return;
    done = true;
    choosingByClient.set(client, Math.max(0, (choosingByClient.get(client) ?? 1) - 1));
  };
}

/** Creates of this process choosing an offer now (the caller included). */
export function choosingCount(client: VastClient): number {
  return choosingByClient.get(client) ?? 0;
}

/** Forgets every claim (tests). */
export function resetClaims(): void {
  claimsByClient = new WeakMap();
  choosingByClient = new WeakMap();
}
