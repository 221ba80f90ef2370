/**
 * A host's volume listings: disk on a machine (`POST /api/v0/volumes/`, vendor client `list
 * volume`) or space on a network disk (`POST /api/v0/network_volumes/`, `list network volume`)
 * listed for renters' volumes, and their unlist (`POST /api/v0/volumes/unlist`, documented;
 * `POST /api/v0/network_volumes/unlist/`). The list answers carry no id the evidence names, so
 * a listing is found in the volume offer search (no default filters) by its machine, its
 * network disk (`disk_id` on the row) or its id.
 */
import type { RequestCore } from "../core";
import { ENDPOINTS } from "../endpoints";
import { BadRequestError, VastError, VastValidationError } from "../errors";
import { volumeListingAnswer } from "../schemas-volume-listings";
import type { DeleteResult } from "../types-templates";
import type { VolumeListing, VolumeListingTerms } from "../types-volume-listings";
import type { VolumeKind, VolumeOffer } from "../types-volumes";
import { SUCCESS_TRUE, deleteConfirmed } from "./confirm";
import { WriteNotSeenError } from "../errors";
import type { VolumesApi } from "./volumes";

const SECONDS_PER_DAY = 86_400;

/** The service's answer when the listing is not there (vendor document: unlist volume, 400). */
const GONE = /listing does not exist/i;
/** The service's answer when renters still hold volumes on it (vendor document: unlist volume, 400). */
const ACTIVE = /unable to delete active volume listing/i;

/** The service took a listing's terms (it answered the list call) but finding the listing again failed. */
export class VolumeListingUnreadError extends Error {
  constructor(override readonly cause: Error) {
    super(`the service took the listing's terms, but finding the listing again failed: ${cause.message}`);
    this.name = "VolumeListingUnreadError";
  }
}

/** The service refuses to unlist a listing renters still hold volumes on. */
export class VolumeListingActiveError extends VastError {
  constructor(
    readonly listingId: number,
    cause: BadRequestError,
  ) {
    super(
      `volume listing ${listingId} still has renters' volumes on it: the service does not unlist it while they exist ` +
        `(it answered: ${cause.serverMessage ?? cause.message}); it can be unlisted once they are deleted, or left to end at its end date`,
      { cause },
    );
    this.name = "VolumeListingActiveError";
  }
}

function positiveWhole(name: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value <= 0) {
    throw new VastValidationError(`${name} must be a positive whole number, got ${JSON.stringify(value) ?? String(value)}`);
  }
  return value;
}

function checkTerms(terms: VolumeListingTerms): Record<string, unknown> {
  const price = terms.pricePerGbMonth;
  if (typeof price !== "number" || !Number.isFinite(price) || price < 0) {
    throw new VastValidationError(`pricePerGbMonth must be a number of $/GB/month, 0 or more, got ${JSON.stringify(price) ?? String(price)}`);
  }
  const body: Record<string, unknown> = { size: positiveWhole("sizeGb", terms.sizeGb), price_disk: price };
  if (terms.endDate !== undefined) {
    if (!Number.isFinite(terms.endDate) || terms.endDate <= 0) throw new VastValidationError(`endDate must be Unix seconds, got ${String(terms.endDate)}`);
    body.end_date = terms.endDate;
  }
  return body;
}

function listingOf(kind: VolumeKind, o: VolumeOffer, nowMs: number): VolumeListing {
  const disk = o.raw.disk_id;
  return {
    id: o.id,
    kind,
    machineId: o.machineId,
    diskId: typeof disk === "number" ? disk : null,
    clusterId: o.clusterId,
    hostId: o.hostId,
    freeGb: o.diskSpaceGb,
    pricePerGbMonth: o.storageCostPerGbMonth,
    endDate: o.durationDays === null ? null : Math.round(nowMs / 1000 + o.durationDays * SECONDS_PER_DAY),
    raw: o.raw,
  };
}

/** Which listing to find: by id, by machine (local) or by network disk. */
export type VolumeListingKey = { id: number } | { machineId: number } | { diskId: number };

/** The volume listings area of the client. */
export class VolumeListingsApi {
  constructor(
    private readonly core: RequestCore,
    private readonly volumes: VolumesApi,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * List `sizeGb` of a machine's disk for volumes at `pricePerGbMonth` (or change the terms of
   * its listing), then find the listing. Not resent after a lost answer: `find` to check.
   */
  async listOnMachine(machineId: number, terms: VolumeListingTerms): Promise<{ listing: VolumeListing | null; message: string | null }> {
    const body = { ...checkTerms(terms), machine: positiveWhole("machineId", machineId) };
    const { message } = await this.core.request({ endpoint: ENDPOINTS.volumeListingCreate, body, schema: volumeListingAnswer });
    return { listing: await this.readBack("local", { machineId }, terms), message };
  }

  /** List space on a network disk as a network volume offer (or change its terms), then find the listing. */
  async listOnNetworkDisk(diskId: number, terms: VolumeListingTerms): Promise<{ listing: VolumeListing | null; message: string | null }> {
    const body = { disk_id: positiveWhole("diskId", diskId), ...checkTerms(terms) };
    const { message } = await this.core.request({ endpoint: ENDPOINTS.networkVolumeListingCreate, body, schema: volumeListingAnswer });
    return { listing: await this.readBack("network", { diskId }, terms), message };
  }

  /** The listing just written, found again; a failed look-up says the terms were written. */
  private async readBack(kind: VolumeKind, key: VolumeListingKey, terms: VolumeListingTerms): Promise<VolumeListing | null> {
    let listing: VolumeListing | null;
    try {
      listing = await this.find(kind, key);
    } catch (error) {
      throw new VolumeListingUnreadError(error as Error);
    }
    // The documented answer alone proves nothing: the listing must be there, at the price sent.
    const call = kind === "network" ? ENDPOINTS.networkVolumeListingCreate : ENDPOINTS.volumeListingCreate;
    const what = `${kind === "network" ? "network volume" : "volume"} listing of ${"diskId" in key ? `network disk ${key.diskId}` : `machine ${(key as { machineId: number }).machineId}`}`;
    if (!listing) throw new WriteNotSeenError(what, "listing", call, "the volume offers show no listing there");
    const live = listing.pricePerGbMonth;
    const sent = terms.pricePerGbMonth;
    if (live !== null && Math.abs(live - sent) > 1e-9 * Math.max(1, Math.abs(sent))) {
      throw new WriteNotSeenError(what, "listing", call, `the volume offers show it at $${live}/GB/month, not the $${sent}/GB/month sent`);
    }
    return listing;
  }

  /**
   * The listing of one kind by id, machine or network disk, as the volume offer search shows
   * it (no default filters, so a listing fully rented or unverified is found too); null when
   * it is not listed.
   */
  async find(kind: VolumeKind, key: VolumeListingKey): Promise<VolumeListing | null> {
    const filters = "id" in key ? { id: { eq: positiveWhole("listing id", key.id) } } : "machineId" in key ? { machineId: { eq: positiveWhole("machineId", key.machineId) } } : {};
    const rows = await this.volumes.searchOffers(kind, { filters, noDefaults: true, order: [["id", "desc"]] });
    const now = this.now();
    const match = rows.find((o) =>
      "id" in key ? o.id === key.id : "machineId" in key ? o.machineId === key.machineId : o.raw.disk_id === positiveWhole("diskId", key.diskId),
    );
    return match ? listingOf(kind, match, now) : null;
  }

  /**
   * Unlist one listing. One the service does not know resolves `{alreadyGone: true}`; one
   * renters still hold volumes on throws VolumeListingActiveError.
   */
  async unlist(kind: VolumeKind, id: number): Promise<DeleteResult> {
    positiveWhole("listing id", id);
    const endpoint = kind === "network" ? ENDPOINTS.networkVolumeListingDelete : ENDPOINTS.volumeListingDelete;
    try {
      return await deleteConfirmed({
        what: `${kind === "network" ? "network volume" : "volume"} listing ${id}`,
        // The documented answer alone proves nothing: the delete counts once a read shows it gone.
        readBack: true,
        run: () => this.core.request({ endpoint, body: { id }, schema: volumeListingAnswer, documented: SUCCESS_TRUE }),
        isGone: (error) => error instanceof BadRequestError && GONE.test(error.serverMessage ?? ""),
        stillThere: async () => (await this.find(kind, { id })) !== null,
      });
    } catch (error) {
      if (error instanceof BadRequestError && ACTIVE.test(error.serverMessage ?? "")) throw new VolumeListingActiveError(id, error);
      throw error;
    }
  }
}
