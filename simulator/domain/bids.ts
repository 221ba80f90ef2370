/**
 * Interruptible (bid) rentals: the going price of a machine, and who it outbids. The seed's
 * `min_bid` of an offer (60% of its on-demand price) is the floor; the control API raises a
 * machine's market price above it (`POST /_sim/machines/{id}/market`). A bid instance whose bid
 * is below the market price is outbid: the service stops it (actual_status `stopped`, the
 * renter's intended status still `running`, the reason in status_msg) and keeps it, billing
 * storage, until a bid at or above the market price starts it again.
 */
import type { Store } from "../store/store";
import type { InstanceRecord } from "../store/types";
import { noteStopped } from "./stopped";
import { seedOffer as offerSeed } from "../seed/offers";

/** The floor bid of an offer: 60% of its on-demand price, as the search shows `min_bid`. */
export function seedMinBid(offerId: number): number | undefined {
  const o = offerSeed(offerId);
  return o ? Math.round(o.dphTotal * 60) / 100 : undefined;
}

/** The lowest winning bid on the machine of `offerId` now, $/hour. */
export function minBidOf(store: Store, offerId: number): number | undefined {
  const o = offerSeed(offerId);
  if (!o) return undefined;
  const market = store.data.marketPrices?.[String(o.machineId)];
  const floor = seedMinBid(offerId) ?? 0;
  return market !== undefined && market > floor ? market : floor;
}

export const OUTBID_MSG = "Outbid: a higher bid took the machine; the instance is stopped until your bid wins again";

/** Sets the market price of a machine; bid instances below it are outbid. Returns the ids outbid now. */
export function setMarketPrice(store: Store, machineId: number, price: number, nowMs: number): number[] {
  store.data.marketPrices = { ...(store.data.marketPrices ?? {}), [String(machineId)]: price };
  const outbid: number[] = [];
  for (const inst of store.data.instances) {
    if (inst.machineId !== machineId || inst.bidPrice === null || inst.outbid) continue;
    if (inst.bidPrice < price) {
      inst.outbid = true;
      noteStopped(inst, nowMs);
      outbid.push(inst.id);
    }
  }
  return outbid;
}

/**
 * After a bid change: an outbid instance whose bid wins again boots again; a running one whose
 * new bid is below the machine's going price is outbid now (stopped, as by a higher bid).
 */
export function rebid(store: Store, inst: InstanceRecord, price: number, now: number): void {
  inst.bidPrice = price;
  const needed = minBidOf(store, inst.offerId) ?? 0;
  if (!inst.outbid) {
    if (price < needed) inst.outbid = true;
    noteStopped(inst, now);
    return;
  }
  if (price < needed) return;
  inst.outbid = false;
  noteStopped(inst, now);
  inst.bootStartedAt = now;
  inst.finalStatus = "running";
}
