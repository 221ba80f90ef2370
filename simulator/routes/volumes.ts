/**
 * Volumes (vendor document: Volumes; the vendor's client: search/create/show/delete volume):
 * `POST /api/v0/volumes/search/` and `/network_volumes/search/` search the volume offers,
 * `PUT /api/v0/volumes/` and `/network_volumes/` rent a volume (`{id: offer, size: GB, name?}`,
 * answered `{success, volume_name: "V.<id>"}`), `GET /api/v0/volumes/?owner=me&type=` lists
 * both kinds, `DELETE /api/v0/volumes/` deletes one by id (the document's JSON body or the
 * vendor client's `?id=`). A volume instances still use is not deleted: 400 naming them (the
 * vendor's client: "All instances using the volume must be destroyed before deletion").
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { SimContext } from "../context";
import { FilterError, matches, type FieldReader } from "../domain/filters";
import { countryCode } from "../domain/offers";
import { listedOffers } from "../domain/volume-listings";
import { endedVolume } from "../domain/billing";
import { checkVolumeSpace, instancesUsing, rentVolume, volumeOfferGone, volumeOfferSeed, volumeOfferView, volumeView } from "../domain/volumes";
import { requirePermission } from "../http/auth";
import { apiError, invalidArgs, notFound, show } from "../http/errors";
import { bodyOf, idParam, optNumber, optString, type Body } from "../http/validate";
import { VOLUME_OFFER_SEEDS } from "../seed/volume-offers";
import type { VolumeRecord } from "../store/volume-types";

type Kind = VolumeRecord["kind"];

const CONTROL_KEYS = new Set(["order", "limit", "allocated_storage"]);
const LIST_TYPES: Record<string, Kind | "all"> = { local_volume: "local", network_volume: "network", all_volume: "all" };
const NAME_MAX = 256;
const none = { config: { auth: "none" as const } };

function reader(view: Record<string, unknown>): FieldReader {
  return (field) => {
    const v = view[field];
    return field === "geolocation" && typeof v === "string" ? [v, countryCode(v)] : [v];
  };
}

function search(ctx: SimContext, kind: Kind, raw: unknown) {
  const query = bodyOf(raw);
  const limit = optNumber(query, "limit");
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw invalidArgs(`limit must be a positive integer (got ${limit})`);
  const storage = optNumber(query, "allocated_storage") ?? 1;
  if (!(storage > 0)) throw invalidArgs(`allocated_storage must be a positive number of GB (got ${storage})`);
  const order = query.order ?? [["score", "desc"]];
  if (!Array.isArray(order) || !order.every((o) => Array.isArray(o) && typeof o[0] === "string" && (o[1] === "asc" || o[1] === "desc"))) {
    throw invalidArgs(`order must be a list like [["storage_cost", "asc"]] (got ${show(order)})`);
  }
  const filters: Body = {};
  for (const [k, v] of Object.entries(query)) if (!CONTROL_KEYS.has(k)) filters[k] = v;
  let offers: Record<string, unknown>[];
  try {
    const seeded = VOLUME_OFFER_SEEDS.filter((o) => o.kind === kind && !volumeOfferGone(ctx.store, o.id)).map((o) => volumeOfferView(ctx.store, o, storage));
    // Hosts' listings (volume-listings.ts); a network listing also names its disk.
    const listed = listedOffers(ctx)
      .filter((x) => x.offer.kind === kind)
      .map((x) => ({ ...volumeOfferView(ctx.store, x.offer, storage), ...(x.listing.diskId === null ? {} : { disk_id: x.listing.diskId }) }));
    offers = [...seeded, ...listed].filter((v) => matches(reader(v), filters));
  } catch (err) {
    if (err instanceof FilterError) throw invalidArgs(`Invalid query: ${err.message}`);
    throw err;
  }
  offers.sort((a, b) => {
    for (const [field, dir] of order as [string, string][]) {
      const x = a[field];
      const y = b[field];
      const c = typeof x === "number" && typeof y === "number" ? x - y : String(x ?? "").localeCompare(String(y ?? ""));
      if (c !== 0) return dir === "asc" ? c : -c;
    }
    return (a.id as number) - (b.id as number);
  });
  return { offers: limit === undefined ? offers : offers.slice(0, limit) };
}

function create(ctx: SimContext, kind: Kind, request: FastifyRequest) {
  const acc = requirePermission(request, "instance_write");
  const body = bodyOf(request.body);
  const offerId = body.id;
  if (!Number.isInteger(offerId) || (offerId as number) <= 0) throw invalidArgs(`id must be the integer id of a volume offer (got ${show(offerId)})`);
  const size = body.size ?? 15;
  if (!Number.isInteger(size) || (size as number) <= 0) throw invalidArgs(`size must be a positive whole number of GB (got ${show(size)})`);
  const name = optString(body, "name", NAME_MAX) ?? "";
  const offer = volumeOfferSeed(offerId as number, ctx);
  if (!offer || offer.kind !== kind || volumeOfferGone(ctx.store, offer.id)) {
    throw notFound("no_such_ask", `No ${kind === "network" ? "network volume" : "volume"} offer by id ${String(offerId)} is available.`);
  }
  checkVolumeSpace(ctx.store, offer, size as number);
  const v = rentVolume(ctx, acc.user.id, offer, size as number, name);
  ctx.store.changed();
  return { success: true, volume_name: `V.${v.id}` };
}

function list(ctx: SimContext, request: FastifyRequest) {
  const acc = requirePermission(request, "instance_read");
  const q = request.query as Record<string, string | undefined>;
  const type = LIST_TYPES[q.type ?? "all_volume"];
  if (!type) throw invalidArgs(`type must be local_volume, network_volume or all_volume (got ${show(q.type)})`);
  const rows = ctx.store.data.volumes.items.filter((v) => v.userId === acc.user.id && (type === "all" || v.kind === type));
  return { volumes: rows.map((v) => volumeView(ctx, v)) };
}

function remove(ctx: SimContext, request: FastifyRequest) {
  const acc = requirePermission(request, "instance_write");
  const q = request.query as Record<string, string | undefined>;
  const given = bodyOf(request.body).id ?? (q.id === undefined ? undefined : /^\d+$/.test(q.id) ? Number(q.id) : q.id);
  if (!Number.isInteger(given) || (given as number) <= 0) throw invalidArgs("Please provide a valid volume ID.");
  const v = ctx.store.data.volumes.items.find((x) => x.id === given && x.userId === acc.user.id);
  if (!v) throw notFound("no_such_volume", "Volume with that ID does not exist.");
  const users = instancesUsing(ctx.store, v.id);
  if (users.length > 0) {
    throw apiError(400, "invalid_args", `Volume ${v.id} is in use by instance(s) ${users.map((i) => i.id).join(", ")}; destroy them before deleting the volume.`);
  }
  ctx.store.data.volumes.items = ctx.store.data.volumes.items.filter((x) => x !== v);
  ctx.store.data.endedVolumes.push(endedVolume(ctx, v));
  ctx.store.changed();
  return { success: true };
}

function setVolumeOfferState(ctx: SimContext, idText: string, raw: unknown) {
  const id = idParam(idText, "volume offer id");
  if (!volumeOfferSeed(id)) throw notFound("no_such_ask", `No volume offer with id ${id} in the catalogue`);
  const state = bodyOf(raw).state;
  if (state !== "available" && state !== "gone") throw invalidArgs(`state must be "available" or "gone" (got ${show(state)})`);
  ctx.store.data.volumes.offerStates[String(id)] = state;
  ctx.store.changed();
  return { success: true, id, state };
}

export function registerVolumes(app: FastifyInstance, ctx: SimContext): void {
  app.post("/api/v0/volumes/search", (req) => search(ctx, "local", req.body));
  app.post("/api/v0/network_volumes/search", (req) => search(ctx, "network", req.body));
  app.put("/api/v0/volumes", (req) => create(ctx, "local", req));
  app.put("/api/v0/network_volumes", (req) => create(ctx, "network", req));
  app.get("/api/v0/volumes", (req) => list(ctx, req));
  app.delete("/api/v0/volumes", (req) => remove(ctx, req));
  // Control: take a volume offer off the market (`gone`) or bring it back.
  app.post<{ Params: { id: string } }>("/_sim/volume-offers/:id", none, (req) => setVolumeOfferState(ctx, req.params.id, req.body));
}
