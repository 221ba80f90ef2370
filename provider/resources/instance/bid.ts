/**
 * Interruptible (spot) rentals. `bidPricePerHour` is the bid for the whole instance in
 * $/hour, sent as the create's `price` (the vendor document: "Bid price per machine (in
 * $/hour)"); the service bills the bid, and `pricePerHour` shows it. A changed bid is set in
 * place (`PUT /api/v0/instances/bid_price/{id}/`); adding or removing the bid (on-demand <->
 * interruptible) replaces the instance.
 *
 * A create whose instance the service rented on-demand (`is_bid` false: a bid it did not take
 * is billed at the on-demand price without a word) fails, and the instance is destroyed first.
 *
 * Outbidding: the service stops an instance whose bid another renter beat and keeps it
 * (billing storage): `is_bid` true, `actual_status` stopped while the renter's
 * `intended_status` is still running. `onOutbid` says what the next `pulumi up` does:
 * `replace` (default) rents again from the filters, `rebid` raises the bid to the machine's
 * going price (`min_bid`) when that is at most `maxBidPricePerHour`, `keep` leaves it.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { Instance, Offer, VastClient } from "../../client";
import { BID_PRICE_MAX, CREATE_BID_PRICE_MAX } from "../../client";
import { Props, containsUnknown, deepEqual } from "../kit";
import { bidLeftToSchedule, hasOffBid, scheduleOf } from "./schedule";
import { normalizeStatus } from "./status";

export type OutbidPolicy = "replace" | "rebid" | "keep";

const bid = (what: string, max: number, why: string) =>
  z
    .number({ error: `must be a number (${what})` })
    .min(0.001, `must be at least 0.001 (${what})`)
    .max(max, `must be at most ${max} (${what}; ${why})`);

export const SPOT_INPUTS = {
  // Creation takes bids up to 128 $/hour; a bid changed in place (rebid, update) at most 32.
  bidPricePerHour: bid(
    "$/hour for the whole instance",
    CREATE_BID_PRICE_MAX,
    `the create endpoint takes no more; changes in place are limited to ${BID_PRICE_MAX}`,
  ).optional(),
  onOutbid: z.enum(["replace", "rebid", "keep"], { error: "must be one of replace, rebid, keep" }).optional(),
  maxBidPricePerHour: bid("$/hour for the whole instance, the most a rebid offers", BID_PRICE_MAX, "the service's bid endpoint takes no more").optional(),
  cancelUnavailable: z.boolean({ error: "must be true or false" }).optional(),
};

const known = (news: Props, key: string) => news[key] !== undefined && news[key] !== null && !containsUnknown(news[key]);
const absent = (news: Props, key: string) => news[key] === undefined || news[key] === null;

/** Rules between the spot inputs; skipped where a value is unknown during preview. */
export function spotFailures(news: Props): pulumi.dynamic.CheckFailure[] {
  const out: pulumi.dynamic.CheckFailure[] = [];
  const fail = (property: string, reason: string) => out.push({ property, reason: `${property}: ${reason}` });
  const noBid = absent(news, "bidPricePerHour");
  if (noBid && known(news, "onOutbid")) fail("onOutbid", "only applies to an interruptible instance: give bidPricePerHour");
  if (noBid && known(news, "maxBidPricePerHour")) fail("maxBidPricePerHour", "only applies to an interruptible instance: give bidPricePerHour");
  if (news.onOutbid === "rebid" && absent(news, "maxBidPricePerHour")) {
    fail("maxBidPricePerHour", "is required with onOutbid \"rebid\": the most the bid may be raised to, $/hour");
  }
  const b = news.bidPricePerHour;
  const m = news.maxBidPricePerHour;
  if (typeof b === "number" && typeof m === "number" && m < b) {
    fail("maxBidPricePerHour", `must be at least bidPricePerHour (${b}); got ${m}`);
  }
  return out;
}

export function policyOf(props: Props): OutbidPolicy {
  const p = props.onOutbid;
  return p === "rebid" || p === "keep" ? p : "replace";
}

/** Stopped by the service because its bid lost: a bid, stopped, while the renter wants it running. */
export function isOutbid(instance: Instance): boolean {
  return instance.isBid === true && normalizeStatus(instance.actualStatus) === "stopped" && normalizeStatus(instance.intendedStatus) === "running";
}

/** Adding or removing a bid turns on-demand into interruptible or back: a new rental. */
export function bidKindChanged(olds: Props, news: Props): boolean {
  return absent(olds, "bidPricePerHour") !== absent(news, "bidPricePerHour");
}

/** A create that asked for a bid and got an on-demand rental: why, for the error. */
export function onDemandInstead(props: Props, instance: Instance | null): string | undefined {
  if (absent(props, "bidPricePerHour") || !instance || instance.isBid !== false) return undefined;
  return (
    `the service rented it on-demand (is_bid false) although bidPricePerHour ${String(props.bidPricePerHour)} was sent, ` +
    `so it would be billed at the on-demand price`
  );
}

/** The bid a rebid offers: the machine's going price rounded up to a cent, at least the current bid. */
export function rebidPrice(instance: Instance, current: number): number | undefined {
  const going = instance.minBid;
  if (typeof going !== "number") return undefined;
  return Math.max(current, Math.ceil(going * 100 - 1e-9) / 100);
}

/**
 * What the diff does about an outbid instance: the property to replace on, "update" (rebid
 * in place), or undefined (keep, or not outbid).
 */
export function outbidDiff(props: Props, instance: Instance): "outbid" | "update" | undefined {
  if (!isOutbid(instance)) return undefined;
  const policy = policyOf(props);
  if (policy === "replace") return "outbid";
  return policy === "rebid" ? "update" : undefined;
}

/**
 * In place: a changed bid is set; an outbid instance under `rebid` gets the going price (at
 * most `maxBidPricePerHour`). Returns whether the instance is to start again (the caller waits).
 */
export async function applyBid(client: VastClient, id: number, olds: Props, news: Props): Promise<boolean> {
  const wanted = news.bidPricePerHour;
  if (typeof wanted !== "number") return false;
  // With a schedule (schedule.ts): in its off-hours the bid is the start job's to send; in its
  // on-hours, or once the schedule is removed, an instance still at the losing bid gets the declared one.
  if (bidLeftToSchedule(news)) return false;
  if (scheduleOf(news) || scheduleOf(olds)) {
    const live = await client.instances.get(id);
    if (live && hasOffBid(live)) {
      await client.instanceActions.changeBid(id, wanted);
      return true;
    }
  }
  let price = wanted;
  let restarts = false;
  if (policyOf(news) === "rebid") {
    const live = await client.instances.get(id);
    if (live && isOutbid(live)) {
      const max = typeof news.maxBidPricePerHour === "number" ? news.maxBidPricePerHour : wanted;
      const needed = rebidPrice(live, wanted);
      if (needed === undefined) throw new Error(`Instance ${id} was outbid and the service shows no going price (min_bid) to rebid at`);
      if (needed > max) {
        throw new Error(
          `Instance ${id} was outbid: the going price is ${needed} $/hour, above maxBidPricePerHour ${max}; ` +
            `raise maxBidPricePerHour, or set onOutbid "replace" to rent elsewhere`,
        );
      }
      price = needed;
      restarts = true;
    }
  }
  if (!restarts && deepEqual(olds.bidPricePerHour, wanted)) return false;
  await client.instanceActions.changeBid(id, price);
  return restarts;
}

export const OUTBID_AT_BOOT = "outbid (its bid is below the machine's going price)";

/** For the boot wait: an instance rented outbid never runs until someone bids more. */
export function outbidAtBoot(instance: Instance): string | undefined {
  return isOutbid(instance) ? OUTBID_AT_BOOT : undefined;
}

/** Offers a bid can win now: those whose `min_bid` is at most the bid (an offer without one is kept). */
export function withinBid(offers: readonly Offer[], bid: number): Offer[] {
  return offers.filter((o) => o.minBid === undefined || o.minBid <= bid);
}
