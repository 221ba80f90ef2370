/**
 * Actions on one instance (vendor document; paths and bodies as the vendor's client sends
 * them): `PUT /api/v0/instances/bid_price/{id}/` (`{client_id: "me", price}`), reboot and
 * recycle (`PUT` with `{}`), prepay (`PUT {amount}`) and the prepaid balance (`GET`).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { SimContext } from "../context";
import { rebid } from "../domain/bids";
import { offerSeed } from "../domain/offers";
import { account, requirePermission } from "../http/auth";
import { apiError, invalidArgs, notFound, show } from "../http/errors";
import { bodyOf, idParam } from "../http/validate";
import type { InstanceRecord } from "../store/types";

type IdRequest = FastifyRequest<{ Params: { id: string } }>;

/** The bid range of the bid endpoint, $/hour (vendor document). */
const BID_MIN = 0.001;
const BID_MAX = 32;
/** Most discount a prepayment earns (vendor document). */
const MAX_DISCOUNT = 0.4;

function own(ctx: SimContext, request: IdRequest, error = "no_such_instance"): InstanceRecord {
  const id = idParam(request.params.id, "instance id");
  const inst = ctx.store.data.instances.find((i) => i.id === id && i.userId === account(request).user.id);
  if (!inst) throw notFound(error, `Instance with that ID does not exist (${id}).`);
  return inst;
}

function changeBid(ctx: SimContext, request: IdRequest) {
  requirePermission(request, "instance_write");
  const inst = own(ctx, request);
  const price = bodyOf(request.body).price;
  if (typeof price !== "number" || !Number.isFinite(price) || price < BID_MIN || price > BID_MAX) {
    throw invalidArgs(`Please set a bid price >= ${BID_MIN} and <= ${BID_MAX} (got ${show(price)}).`);
  }
  if (inst.bidPrice === null) throw invalidArgs(`Instance ${inst.id} is on-demand: only an interruptible instance has a bid.`);
  rebid(ctx.store, inst, price, ctx.now());
  ctx.store.changed();
  return { success: true };
}

/** Reboot and recycle restart the container on the same machine: the boot runs again. */
function restart(ctx: SimContext, request: IdRequest, what: "reboots" | "recycles") {
  requirePermission(request, "instance_write");
  const inst = own(ctx, request, "invalid_args");
  if (inst.intendedStatus === "stopped" || inst.outbid) {
    throw apiError(400, "invalid_args", `Instance ${inst.id} is stopped; start it before a ${what === "reboots" ? "reboot" : "recycle"}.`);
  }
  inst[what] = (inst[what] ?? 0) + 1;
  inst.bootStartedAt = ctx.now();
  inst.finalStatus = "running";
  ctx.store.changed();
  return { success: true };
}

function prepay(ctx: SimContext, request: IdRequest) {
  requirePermission(request, "instance_write");
  const id = idParam(request.params.id, "instance id");
  const inst = ctx.store.data.instances.find((i) => i.id === id && i.userId === account(request).user.id);
  // The vendor document answers an unknown id with 400 and a bare msg.
  if (!inst) throw apiError(400, "invalid_args", "No such instance");
  const amount = bodyOf(request.body).amount;
  if (typeof amount !== "number" || !Number.isFinite(amount) || amount <= 0) throw invalidArgs(`amount must be a positive number of dollars (got ${show(amount)})`);
  inst.prepaid = (inst.prepaid ?? 0) + amount;
  ctx.store.changed();
  return { success: true, ...terms(inst) };
}

/** Months the prepaid balance covers at the instance's price, and the discount that earns. */
function terms(inst: InstanceRecord): { timescale: number; discount_rate: number } {
  const perMonth = (inst.bidPrice ?? offerSeed(inst.offerId)?.dphTotal ?? 1) * 24 * 30;
  const months = (inst.prepaid ?? 0) / perMonth;
  const rate = months >= 3 ? 0.3 : months >= 1 ? 0.2 : 0;
  return { timescale: Math.round(months * 1000) / 1000, discount_rate: Math.min(MAX_DISCOUNT, rate) };
}

function balance(ctx: SimContext, request: IdRequest) {
  requirePermission(request, "instance_read");
  const inst = own(ctx, request);
  const t = terms(inst);
  return {
    success: true,
    refundable_deposit: inst.prepaid ?? 0,
    total_discount: Math.round((inst.prepaid ?? 0) * t.discount_rate * 100) / 100,
    discount_months: Math.floor(t.timescale),
  };
}

export function registerInstanceActions(app: FastifyInstance, ctx: SimContext): void {
  app.put<{ Params: { id: string } }>("/api/v0/instances/bid_price/:id", (req) => changeBid(ctx, req));
  app.put<{ Params: { id: string } }>("/api/v0/instances/reboot/:id", (req) => restart(ctx, req, "reboots"));
  app.put<{ Params: { id: string } }>("/api/v0/instances/recycle/:id", (req) => restart(ctx, req, "recycles"));
  app.put<{ Params: { id: string } }>("/api/v0/instances/prepay/:id", (req) => prepay(ctx, req));
  app.get<{ Params: { id: string } }>("/api/v0/instances/balance/:id", (req) => balance(ctx, req));
}
