/**
 * The provider behind `VolumeListing` and `NetworkVolumeListing`: one resource is the listing
 * of disk for volumes on one machine (or of space on one network disk) that the account hosts;
 * its id is the machine id (or the disk id), the listing's own id is the `listingId` output.
 *
 * Lifecycle decisions:
 * - create checks that the machine is one the account hosts (`GET /machines/{id}/?owner=me`;
 *   the search shows every host's offers), lists (`POST /api/v0/volumes/` or
 *   `/network_volumes/`, every term in one call), then finds the listing in the volume offer
 *   search. A machine or disk that already has a
 *   listing is not taken over silently: the create fails and names `importId` (the machine or
 *   disk id), which adopts the listing and applies the declared terms. The one exception is a
 *   listing with exactly the declared price on a resource that carries the stack identity:
 *   that is what an earlier, killed run of this create made, and it is adopted.
 * - read finds the listing in the volume offer search (no default filters). One no longer
 *   listed (unlisted outside Pulumi, or past its end date) makes the resource gone (the next
 *   `up` lists it again); a price or end date changed outside Pulumi shows as drift.
 * - update lists again with every term (the service's list call is also how terms change).
 * - A list call whose answer is lost is not resent blindly (kit/create-once.ts): the listing
 *   with the declared terms looked up over the look-up window is taken as what it made; only
 *   when none shows is the call sent again.
 * - delete unlists the listing (`POST /api/v0/volumes/unlist` or `/network_volumes/unlist/`):
 *   the one the search shows for the machine or disk, else the recorded `listingId` (the
 *   service's "Volume listing does not exist" then counts as already gone).
 *   Renters' volumes already rented stay; while any exist the service refuses to unlist, and
 *   the delete fails saying so.
 */
import type { VolumeListing } from "../../client/types-volume-listings";
import { VolumeListingUnreadError } from "../../client/areas/volume-listings";
import { getClient } from "../../context";
import { ImportableImpl, PartialFailure, Props, createAtMostOnce, currentTiming, identityMarker, jsonClean, lookUp, userInputs } from "../kit";
import { toUnixSeconds } from "../maintenanceWindow/inputs";
import { END_DATE_TOLERANCE_S, LOCAL, changedInputs, checkListing, diffListing, planOf, type ListingKind, type ListingPlan } from "./inputs";

function keyOf(k: ListingKind, place: number) {
  return k.kind === "network" ? { diskId: place } : { machineId: place };
}

function outputsOf(listing: VolumeListing | null, prior: Props = {}): Props {
  return {
    listingId: listing?.id ?? prior.listingId ?? null,
    listed: listing !== null,
    freeGb: listing?.freeGb ?? prior.freeGb ?? null,
    endDateUnix: listing?.endDate ?? prior.endDateUnix ?? null,
    clusterId: listing?.clusterId ?? prior.clusterId ?? null,
    hostId: listing?.hostId ?? prior.hostId ?? null,
  };
}

/** Whether the live listing has the declared price (and end date, when one is declared). */
function sameTerms(live: VolumeListing, plan: ListingPlan): boolean {
  const end = plan.terms.endDate;
  return live.pricePerGbMonth === plan.terms.pricePerGbMonth && (end === undefined || (live.endDate !== null && Math.abs(live.endDate - end) <= END_DATE_TOLERANCE_S));
}

function notFoundAfterList(k: ListingKind, place: number, message: string | null): Error {
  return new Error(
    `${k.type}: the service accepted the listing of ${k.placeNoun} ${place}${message ? ` ("${message}")` : ""} but the volume offer search does not show it; ` +
      "run `pulumi refresh` later, or check the listing in the console",
  );
}

/**
 * The answer of a list call; when the service took the terms but the listing could not be
 * found again, a partial failure that records the terms as written (state never keeps the
 * terms it replaced).
 */
async function written<T>(call: Promise<T>, id: string, inputs: Props, outs: Props): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof VolumeListingUnreadError) throw new PartialFailure(error.message, id, inputs, outs);
    throw error;
  }
}

/** The provider of one of the two kinds. */
export function listingProvider(k: ListingKind): ImportableImpl {
  const send = (place: number, plan: ListingPlan) =>
    k.kind === "network" ? getClient().volumeListings.listOnNetworkDisk(place, plan.terms) : getClient().volumeListings.listOnMachine(place, plan.terms);
  /**
   * Lists at most once per lost answer: after a lost one, the listing with the declared terms
   * looked up over the look-up window is what it made; only when none shows is it sent again.
   */
  const list = (place: number, plan: ListingPlan): Promise<{ listing: VolumeListing | null; message: string | null }> =>
    createAtMostOnce({
      send: () => send(place, plan),
      recover: async () => {
        const found = await lookUp(async () => {
          const live = await getClient().volumeListings.find(k.kind, keyOf(k, place));
          return live && sameTerms(live, plan) ? live : undefined;
        });
        return found && { listing: found, message: null };
      },
    });
  return {
    importing: {
      type: k.type,
      noun: k.kind === "network" ? "network volume listing" : "volume listing",
      idRule: `must be the id of a ${k.placeNoun} of this account that has a listing, such as "${k.kind === "network" ? "8101" : "50001"}"`,
      validId: (id) => /^[1-9]\d{0,11}$/.test(id),
      verify: (id, declared) => (String(declared[k.placeKey]) === id ? undefined : `the declared ${k.placeKey} is ${String(declared[k.placeKey])}, not ${id}`),
    },

    async check(olds, news) {
      return checkListing(k, olds, news, currentTiming().now());
    },

    async diff(_id, olds, news) {
      return diffListing(k, olds, news);
    },

    async create(inputs) {
      const plan = planOf(k, inputs);
      // The search shows every host's offers: a machine that is not ours is named as such, not as "already listed".
      if (k.kind === "local" && !(await getClient().machines.get(plan.place))) {
        throw new Error(
          `${k.type}: machineId ${plan.place} is not a machine this account hosts (the service lists no such machine for it). ` +
            "List only your own machines; getMachines() shows them.",
        );
      }
      const live = await getClient().volumeListings.find(k.kind, keyOf(k, plan.place));
      if (live && !(identityMarker(inputs) !== undefined && sameTerms(live, plan))) {
        throw new Error(
          `${k.type}: ${k.placeNoun} ${plan.place} already has a ${k.kind === "network" ? "network volume" : "volume"} listing (${live.id}` +
            (live.pricePerGbMonth !== null ? `, at $${live.pricePerGbMonth}/GB/month` : "") +
            `), not made by this resource. Nothing was changed. To manage that listing, set importId: "${plan.place}": ` +
            "the declared terms then replace the current ones, and destroying the resource unlists it.",
        );
      }
      const { listing, message } = await written(list(plan.place, plan), String(plan.place), inputs, { ...inputs, listed: true });
      if (!listing) throw notFoundAfterList(k, plan.place, message);
      return { id: String(plan.place), outs: jsonClean({ ...inputs, ...outputsOf(listing) }) as Props };
    },

    async read(id, props) {
      const listing = await getClient().volumeListings.find(k.kind, keyOf(k, Number(props[k.placeKey] ?? id)));
      if (!listing) return { id: "" };
      const inputs = userInputs(props);
      // Drift: the declared price and end date take the values the service shows.
      const current: Props = { ...inputs };
      if (current[k.placeKey] === undefined) current[k.placeKey] = Number(id);
      if (inputs.pricePerGbMonth !== undefined && listing.pricePerGbMonth !== null) current.pricePerGbMonth = listing.pricePerGbMonth;
      const declaredEnd = toUnixSeconds(inputs.endDate);
      if (declaredEnd !== undefined && listing.endDate !== null && Math.abs(listing.endDate - declaredEnd) > END_DATE_TOLERANCE_S) current.endDate = listing.endDate;
      return { id, props: jsonClean({ ...props, ...current, ...outputsOf(listing, props) }) as Props, inputs: current };
    },

    async update(_id, olds, news) {
      const plan = planOf(k, news);
      let listing: VolumeListing | null = null;
      if (changedInputs(k, olds, news).length > 0 || olds.listed !== true) {
        const answer = await written(list(plan.place, plan), _id, news, { ...olds, ...userInputs(news), listed: true });
        if (!answer.listing) throw notFoundAfterList(k, plan.place, answer.message);
        listing = answer.listing;
      }
      return { outs: jsonClean({ ...olds, ...userInputs(news), ...outputsOf(listing, olds), listed: true }) as Props };
    },

    async delete(id, props) {
      const api = getClient().volumeListings;
      const place = Number(props[k.placeKey] ?? id);
      const live = await api.find(k.kind, keyOf(k, place));
      const listingId = live?.id ?? (typeof props.listingId === "number" ? props.listingId : undefined);
      if (listingId === undefined) return;
      await api.unlist(k.kind, listingId);
    },
  };
}

export const provider = listingProvider(LOCAL);
