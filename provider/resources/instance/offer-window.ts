/**
 * One offer search shared by the creates of a process that use the same filters. A run of many
 * Instances made from one set of `offer` filters would otherwise search once per create, each
 * search asking for more rows as the process claims more offers (the offers it rented are
 * claimed for good). Instead, the matches of one search form a window: each create takes the
 * first matches nobody in this process has claimed, and the window is searched again only when
 * too few unclaimed matches are left for the creates choosing now, when it is older than
 * `vastai:offerWindowMs`, or when an offer of it turned out taken (404 no_such_ask): then the
 * matches beyond it may be gone too. A search asks for a fixed number of rows beyond the creates
 * choosing at that moment and the claimed rows the last search showed, so the rows searched per
 * create stay constant on average however long the run.
 *
 * Creates that need a search while one is running wait for it and share its answer.
 */
import type { Offer, OfferSearch, VastClient } from "../../client";
import { choosingCount, currentTiming, isClaimed, numberSetting } from "../kit";

/** Rows a search asks for beyond the creates choosing now and the claimed rows seen last time. */
export const WINDOW_ROWS = 40;

/** Unclaimed matches a window must still hold for each create choosing, beyond its first pick (fallbacks). */
const SPARE_PER_SEARCH = 2;

/** How long a window serves creates, ms (default 60000): offers come and go on the market. */
export function offerWindowMs(): number {
  return numberSetting("offerWindowMs", "VASTAI_OFFER_WINDOW_MS", 60_000);
}

interface Window {
  rows: Offer[];
  at: number;
  /** The last search returned fewer rows than it asked for: every match was in it. */
  complete: boolean;
  /** Rows of the last search this process had claimed (in flight or rented). */
  held: number;
  stale: boolean;
  searching?: Promise<void>;
}

let windowsByClient = new WeakMap<VastClient, Map<string, Window>>();

function windowOf(client: VastClient, key: string): Window {
  let byKey = windowsByClient.get(client);
  if (!byKey) {
    byKey = new Map();
    windowsByClient.set(client, byKey);
  }
  let w = byKey.get(key);
  if (!w) {
    w = { rows: [], at: 0, complete: false, held: 0, stale: true };
    byKey.set(key, w);
  }
  return w;
}

const free = (client: VastClient, w: Window) => w.rows.filter((o) => !isClaimed(client, o.id));

/**
 * The matches of `query` in the window (its `limit` is the window's own), as the service ordered
 * them; the caller skips the claimed ones. `fresh` forces a new search (the caller's matches
 * were all taken).
 */
export async function windowSearch(client: VastClient, query: OfferSearch, options: { fresh?: boolean } = {}): Promise<Offer[]> {
  const key = JSON.stringify({ ...query, limit: undefined });
  const w = windowOf(client, key);
  if (options.fresh) w.stale = true;
  for (let round = 0; ; round++) {
    if (w.searching) {
      await w.searching;
      continue;
    }
    const choosing = Math.max(1, choosingCount(client));
    const left = free(client, w);
    const old = currentTiming().now() - w.at > offerWindowMs();
    const enough = left.length >= choosing + SPARE_PER_SEARCH || (w.complete && left.length >= 1);
    // A third search in one call means the service keeps showing claimed offers: give what there is.
    if (!w.stale && !old && (enough || round >= 3)) return w.rows;
    w.searching = search(client, w, query, choosing).finally(() => {
      w.searching = undefined;
    });
    await w.searching;
  }
}

async function search(client: VastClient, w: Window, query: OfferSearch, choosing: number): Promise<void> {
  const limit = WINDOW_ROWS + choosing + w.held;
  const rows = await client.offers.search({ ...query, limit });
  w.rows = rows;
  w.at = currentTiming().now();
  w.complete = rows.length < limit;
  w.held = rows.filter((o) => isClaimed(client, o.id)).length;
  w.stale = false;
}

/** An offer of a window turned out taken: the next create searches again. */
export function offerTaken(client: VastClient, offerId: number): void {
  for (const w of windowsByClient.get(client)?.values() ?? []) if (w.rows.some((o) => o.id === offerId)) w.stale = true;
}

/** Forgets every window (tests). */
export function resetOfferWindows(): void {
  windowsByClient = new WeakMap();
}
