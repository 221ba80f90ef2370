/**
 * One listing of the account's instances for a whole `pulumi up`: the diffs of the fleets list
 * the account once (ceil(instances/25) calls, shared by every fleet diffed in the process), and
 * the update that follows reuses that listing for the members' status and for the members a
 * killed run left (they predate this process, so any listing it made shows them) instead of
 * listing again. A listing serves for the live-cache TTL; a member absent from it is confirmed
 * by a read of its own before it counts as gone (it may have been made after the listing).
 */
import type { Instance, VastClient } from "../../client";
import { currentTiming, liveCacheTtlMs } from "../kit";
import { liveInstances } from "../instance/live";

const listings = new WeakMap<VastClient, { at: number; items: Promise<Instance[]> }>();

/** Every instance of the account, from this process's listing when it is recent enough. */
export function accountInstances(client: VastClient): Promise<Instance[]> {
  const now = currentTiming().now();
  const cached = listings.get(client);
  if (cached && now - cached.at <= liveCacheTtlMs()) return cached.items;
  const items = liveInstances(client).list({ fresh: true });
  listings.set(client, { at: now, items });
  items.catch(() => listings.delete(client));
  return items;
}

/** After this process changed the account's instances: the next ask lists again. */
export function forgetListing(client: VastClient): void {
  listings.delete(client);
}
