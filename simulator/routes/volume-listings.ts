/**
 * A host's volume listings (the vendor's client: `list volume`, `list volumes`, `unlist
 * volume`, `list network volume`, `unlist network volume`; the vendor document lists only
 * `POST /api/v0/volumes/unlist`):
 *
 * - `POST /api/v0/volumes/` `{machine: id | [ids], size: GB, price_disk: $/GB/month, end_date?}`
 *   lists disk on the caller's machine(s) for volumes;
 * - `POST /api/v0/network_volumes/` `{disk_id, size, price_disk, end_date?}` lists space on
 *   one of the caller's network disks as a network volume offer;
 * - `POST /api/v0/volumes/unlist` and `/api/v0/network_volumes/unlist/` `{id}` unlist one,
 *   answered `{success, msg: "Unlisted Volume <id>."}`; the 400 answers carry the document's
 *   messages ("Volume listing does not exist", "Unable to delete active volume listing", ...).
 *
 * What the evidence does not say is kept simple and stated: a machine (or a network disk) has
 * at most one listing, and listing it again changes that listing's terms (as `list machine`
 * changes a machine's listing); an end date left out is 3 months ahead for a machine and
 * 1 month for a network disk (the vendor client's help texts); a listing renters still hold
 * volumes on is not unlisted ("Unable to delete active volume listing"); a listing past its
 * end date leaves the searches. The list answers are `{success, msg}` (the vendor's client
 * prints `msg` for a network listing and the whole answer for a machine).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { SimContext } from "../context";
import { volumeListings } from "../domain/volume-listings";
import { account } from "../http/auth";
import { ApiError, apiError, invalidArgs, show } from "../http/errors";
import { bodyOf, optNumber, type Body } from "../http/validate";
import { machineById } from "../seed/machines";
import { networkDiskById } from "../seed/network-disks";
import { SEED } from "../seed/seed";
import type { VolumeListingRecord } from "../store/volume-types";
import { FIRST_VOLUME_LISTING_ID } from "../store/volume-types";

type Kind = VolumeListingRecord["kind"];

const DAY = 86_400;
/** End date when none is given: days ahead (the vendor client's help: 3 months, 1 month). */
const DEFAULT_DAYS: Record<Kind, number> = { local: 90, network: 30 };
/** The most GB one machine lists for volumes in this simulator (it keeps no disk sizes). */
export const MACHINE_VOLUME_MAX_GB = 4000;

function sizeOf(body: Body, max: number, where: string): number {
  const size = body.size ?? 15;
  if (!Number.isInteger(size) || (size as number) <= 0) throw invalidArgs(`size must be a positive whole number of GB (got ${show(size)})`);
  if ((size as number) > max) throw invalidArgs(`size ${show(size)} GB is more than the ${max} GB ${where} holds`);
  return size as number;
}

function priceOf(body: Body, fallback: number): number {
  const p = optNumber(body, "price_disk") ?? fallback;
  if (p < 0) throw invalidArgs(`price_disk must not be negative (got ${show(p)})`);
  return p;
}

function endOf(ctx: SimContext, body: Body, kind: Kind): number {
  const nowS = ctx.now() / 1000;
  const end = optNumber(body, "end_date");
  if (end === undefined) return Math.round(nowS + DEFAULT_DAYS[kind] * DAY);
  if (end <= nowS) throw invalidArgs(`end_date must be in the future (got ${end})`);
  return end;
}

/** Lists (or re-lists, changing the terms) the listing of one machine or disk. */
function upsert(ctx: SimContext, key: Pick<VolumeListingRecord, "kind" | "userId" | "machineId" | "diskId" | "clusterId">, terms: Pick<VolumeListingRecord, "sizeGb" | "priceDisk" | "endDate">): VolumeListingRecord {
  const all = volumeListings(ctx.store);
  const existing = all.find((l) => l.kind === key.kind && l.userId === key.userId && l.machineId === key.machineId && l.diskId === key.diskId);
  if (existing) {
    Object.assign(existing, terms);
    return existing;
  }
  const nextId = Math.max(FIRST_VOLUME_LISTING_ID, ...all.map((l) => l.id + 1));
  const record: VolumeListingRecord = { id: nextId, ...key, ...terms };
  all.push(record);
  return record;
}

function listLocal(ctx: SimContext, request: FastifyRequest) {
  const userId = account(request).user.id;
  const body = bodyOf(request.body);
  const given = body.machine;
  const ids = Array.isArray(given) ? given : [given];
  if (ids.length === 0 || !ids.every((m) => Number.isInteger(m) && (m as number) > 0)) {
    throw invalidArgs(`machine must be a machine id or a list of them (got ${show(given)})`);
  }
  for (const m of ids as number[]) {
    const machine = machineById(m);
    if (!machine || machine.ownerId !== userId) throw apiError(403, "not_authorized", `Only the machine's owner can list volumes on it (machine ${m})`);
  }
  const terms = { sizeGb: sizeOf(body, MACHINE_VOLUME_MAX_GB, "a machine"), priceDisk: priceOf(body, 0.1), endDate: endOf(ctx, body, "local") };
  const made = (ids as number[]).map((m) => upsert(ctx, { kind: "local", userId, machineId: m, diskId: null, clusterId: null }, terms));
  ctx.store.changed();
  return { success: true, msg: made.map((l) => `Listed volume ${l.id} on machine ${String(l.machineId)}.`).join(" ") };
}

function listNetwork(ctx: SimContext, request: FastifyRequest) {
  const userId = account(request).user.id;
  const body = bodyOf(request.body);
  const diskId = body.disk_id;
  if (!Number.isInteger(diskId) || (diskId as number) <= 0) throw invalidArgs(`disk_id must be the id of a network disk (got ${show(diskId)})`);
  const disk = networkDiskById(diskId as number);
  // Seeded disks belong to the default account.
  if (!disk || userId !== SEED.user.id) throw apiError(404, "not_found", `No network disk ${show(diskId)} on this account`);
  const terms = { sizeGb: sizeOf(body, disk.sizeGb, `network disk ${disk.id}`), priceDisk: priceOf(body, 0.15), endDate: endOf(ctx, body, "network") };
  const l = upsert(ctx, { kind: "network", userId, machineId: null, diskId: disk.id, clusterId: disk.clusterId }, terms);
  ctx.store.changed();
  return { success: true, msg: `Listed network volume ${l.id} on disk ${disk.id}.` };
}

/** A 400 with the document's body for this endpoint: `{success: false, msg}`. */
function refused(msg: string): ApiError {
  return new ApiError(400, { success: false, msg });
}

function unlist(ctx: SimContext, kind: Kind, request: FastifyRequest) {
  const userId = account(request).user.id;
  const id = bodyOf(request.body).id;
  if (id === undefined || id === null) throw refused("You must pass in `id` in the body of the request");
  const all = volumeListings(ctx.store);
  const l = all.find((x) => x.id === id && x.kind === kind && x.userId === userId);
  if (!l) throw refused("Volume listing does not exist");
  if (ctx.store.data.volumes.items.some((v) => v.offerId === l.id)) throw refused("Unable to delete active volume listing");
  ctx.store.data.volumes.listings = all.filter((x) => x !== l);
  ctx.store.changed();
  return { success: true, msg: `Unlisted Volume ${l.id}.` };
}

export function registerVolumeListings(app: FastifyInstance, ctx: SimContext): void {
  app.post("/api/v0/volumes", (req) => listLocal(ctx, req));
  app.post("/api/v0/network_volumes", (req) => listNetwork(ctx, req));
  app.post("/api/v0/volumes/unlist", (req) => unlist(ctx, "local", req));
  app.post("/api/v0/network_volumes/unlist", (req) => unlist(ctx, "network", req));
}
