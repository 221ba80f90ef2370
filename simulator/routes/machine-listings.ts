/**
 * A host's listing of a machine (vendor document: PUT /machines/create_asks, DELETE
 * /machines/{machine_id}/asks, PUT /machines/{machine_id}/minbid, PUT /machines/create_bids,
 * DELETE /machines/{machine_id}/defjob; the vendor's client sends the same bodies). Terms live
 * in `machineListings` and show on the machine record (`listed_gpu_cost`, `min_bid_price`, ...).
 *
 * `vol_size`, `vol_price` and `duration` (the vendor's client sends every key): `vol_size` left
 * out or null offers half the machine's disk as a volume contract (the vendor's client's help:
 * "Defaults to half of available disk. Set 0 to not create a volume contract offer"); `vol_price`
 * is refused with `vol_size` 0 ("Invalid if vol_size is 0") and defaults to `price_disk`;
 * `duration` (`n days|weeks|months|years` or seconds) keeps the end date that far ahead and
 * cannot be combined with `end_date`.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { SimContext } from "../context";
import { account } from "../http/auth";
import { apiError, invalidArgs, notFound, show } from "../http/errors";
import { bodyOf, idParam, optInt, optNumber, type Body } from "../http/validate";
import { machineById, type MachineSeed } from "../seed/machines";
import type { MachineListingRecord } from "../store/types";
import { NOT_OWNED_MSG } from "./machines";

/** The service's defaults for terms never given (vendor client: storage $0.10/GB/month, discount 0.4, 1 GPU). */
const DEFAULTS = {
  listed_gpu_cost: 0.4,
  listed_storage_cost: 0.1,
  listed_inet_up_cost: 0,
  listed_inet_down_cost: 0,
  min_bid_price: 0.2,
  min_chunk: 1,
  end_date: null,
  credit_discount_max: 0.4,
};

const UNIT_S: Record<string, number> = { day: 86_400, week: 7 * 86_400, month: 30 * 86_400, year: 365 * 86_400 };

/** Seconds of a `duration` (`n days`, `n weeks`, `n months`, `n years`, or seconds); undefined when absent. */
function durationSeconds(v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === "number" && Number.isInteger(v) && v > 0) return v;
  const m = typeof v === "string" ? /^\s*(\d+)\s*(day|week|month|year)s?\s*$/i.exec(v) : null;
  if (m && Number(m[1]) > 0) return Number(m[1]) * UNIT_S[m[2].toLowerCase()];
  if (typeof v === "string" && /^\d+$/.test(v.trim()) && Number(v) > 0) return Number(v);
  throw invalidArgs(`duration must be "n days", "n weeks", "n months", "n years" or a number of seconds (got ${show(v)})`);
}

function price(body: Body, field: string): number | undefined {
  const v = optNumber(body, field);
  if (v !== undefined && v < 0) throw invalidArgs(`${field} must not be negative (got ${show(v)})`);
  return v;
}

/** The caller's machine, or the error the vendor document gives for another's. */
function owned(ctx: SimContext, request: FastifyRequest, machineId: unknown, status: 403 | 404): MachineSeed {
  if (!Number.isInteger(machineId)) throw invalidArgs(`machine must be a machine id (got ${show(machineId)})`);
  const m = machineById(machineId as number);
  if (!m || m.ownerId !== account(request).user.id) {
    throw status === 403 ? apiError(403, "not_authorized", "Only machine owner can create ask contracts") : notFound("not_found", NOT_OWNED_MSG);
  }
  return m;
}

function listings(ctx: SimContext): Record<string, MachineListingRecord> {
  ctx.store.data.machineListings ??= {};
  return ctx.store.data.machineListings;
}

function createAsks(ctx: SimContext, request: FastifyRequest) {
  const body = bodyOf(request.body);
  const m = owned(ctx, request, body.machine, 403);
  const minChunk = optInt(body, "min_chunk");
  if (minChunk !== undefined && (minChunk < 1 || minChunk > m.numGpus)) {
    throw invalidArgs(`min_chunk must be from 1 to the machine's ${m.numGpus} GPUs (got ${minChunk})`);
  }
  const discount = optNumber(body, "credit_discount_max");
  if (discount !== undefined && (discount < 0 || discount > 1)) throw invalidArgs(`credit_discount_max must be a fraction from 0 to 1 (got ${discount})`);
  let endDate = optNumber(body, "end_date");
  if (endDate !== undefined && endDate <= ctx.now() / 1000) throw invalidArgs(`end_date must be in the future (got ${endDate})`);
  const duration = durationSeconds(body.duration);
  if (duration !== undefined && endDate !== undefined) throw invalidArgs("duration cannot be combined with end_date");
  if (duration !== undefined) endDate = Math.floor(ctx.now() / 1000) + duration;
  const disk = 500 * m.numGpus;
  const volSize = body.vol_size === undefined || body.vol_size === null ? Math.floor(disk / 2) : optInt(body, "vol_size");
  if (volSize === undefined || volSize < 0 || volSize > disk) throw invalidArgs(`vol_size must be from 0 to the machine's ${disk} GB of disk (got ${show(body.vol_size)})`);
  const volPrice = price(body, "vol_price");
  if (volPrice !== undefined && volSize === 0) throw invalidArgs("vol_price is invalid when vol_size is 0");
  const before = listings(ctx)[String(m.id)];
  const base = before ?? { ...DEFAULTS, listed: true, defjob: null };
  const next: MachineListingRecord = {
    ...base,
    listed: true,
    listed_gpu_cost: price(body, "price_gpu") ?? base.listed_gpu_cost,
    listed_storage_cost: price(body, "price_disk") ?? base.listed_storage_cost,
    listed_inet_up_cost: price(body, "price_inetu") ?? base.listed_inet_up_cost,
    listed_inet_down_cost: price(body, "price_inetd") ?? base.listed_inet_down_cost,
    min_bid_price: price(body, "price_min_bid") ?? base.min_bid_price,
    min_chunk: minChunk ?? base.min_chunk,
    end_date: endDate ?? base.end_date,
    credit_discount_max: discount ?? base.credit_discount_max,
    vol_size: volSize,
    vol_price: volPrice ?? null,
    duration: duration !== undefined ? String(body.duration) : null,
  };
  listings(ctx)[String(m.id)] = next;
  // A new end date extends the running client contracts to it.
  const extended = endDate !== undefined && endDate !== before?.end_date ? m.rentalsRunning : 0;
  return { success: true, extended };
}

function unlist(ctx: SimContext, request: FastifyRequest<{ Params: { id: string } }>) {
  const m = owned(ctx, request, idParam(request.params.id, "machine_id"), 404);
  const current = listings(ctx)[String(m.id)];
  if (current) listings(ctx)[String(m.id)] = { ...current, listed: false };
  return { success: true, machine_id: m.id, user_id: m.ownerId };
}

function minBid(ctx: SimContext, request: FastifyRequest<{ Params: { id: string } }>) {
  const body = bodyOf(request.body);
  const m = owned(ctx, request, idParam(request.params.id, "machine_id"), 403);
  const p = body.price;
  if (typeof p !== "number" || !Number.isFinite(p) || p < 0) throw apiError(422, "invalid_args", `price must be a non-negative number (got ${show(p)})`);
  const current = listings(ctx)[String(m.id)] ?? { ...DEFAULTS, listed: false, defjob: null };
  listings(ctx)[String(m.id)] = { ...current, min_bid_price: p };
  return { success: true, you_sent: body };
}

function createBids(ctx: SimContext, request: FastifyRequest) {
  const body = bodyOf(request.body);
  const m = owned(ctx, request, body.machine, 403);
  const need = (field: string) => {
    const v = price(body, field);
    if (v === undefined) throw invalidArgs(`${field} is required`);
    return v;
  };
  const image = body.image;
  if (typeof image !== "string" || image.trim() === "") throw invalidArgs(`image must be a Docker image name (got ${show(image)})`);
  const args = body.args ?? [];
  if (!Array.isArray(args) || !args.every((a) => typeof a === "string")) throw invalidArgs(`args must be a list of strings (got ${show(args)})`);
  const defjob = { price_gpu: need("price_gpu"), price_inetu: need("price_inetu"), price_inetd: need("price_inetd"), image, args: args as string[] };
  const current = listings(ctx)[String(m.id)] ?? { ...DEFAULTS, listed: false, defjob: null };
  listings(ctx)[String(m.id)] = { ...current, defjob };
  return { success: true, machine_id: m.id, user_id: m.ownerId, you_sent: body };
}

function removeDefjob(ctx: SimContext, request: FastifyRequest<{ Params: { id: string } }>) {
  const m = owned(ctx, request, idParam(request.params.id, "machine_id"), 404);
  const current = listings(ctx)[String(m.id)];
  if (current) listings(ctx)[String(m.id)] = { ...current, defjob: null };
  return { success: true, machine_id: m.id, user_id: m.ownerId };
}

export function registerMachineListings(app: FastifyInstance, ctx: SimContext): void {
  app.put("/api/v0/machines/create_asks", (req) => createAsks(ctx, req));
  app.delete<{ Params: { id: string } }>("/api/v0/machines/:id/asks", (req) => unlist(ctx, req));
  app.put<{ Params: { id: string } }>("/api/v0/machines/:id/minbid", (req) => minBid(ctx, req));
  app.put("/api/v0/machines/create_bids", (req) => createBids(ctx, req));
  app.delete<{ Params: { id: string } }>("/api/v0/machines/:id/defjob", (req) => removeDefjob(ctx, req));
}
