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

/** Forgets every claim (tests). */
export function resetClaims(): void {
  claimsByClient = new WeakMap();
}
