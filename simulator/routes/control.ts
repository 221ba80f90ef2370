/**
 * Control API for tests and demos under `/_sim` (no auth: the server listens on loopback only,
 * and http/guard.ts keeps web pages out).
 */
import type { FastifyInstance } from "fastify";
import type { SimContext } from "../context";
import { setMarketPrice } from "../domain/bids";
import { catalogueOffer } from "../domain/offers";
import { machineById } from "../seed/machines";
import { MARKET_FIRST_OFFER_ID, MAX_MARKET_OFFERS } from "../seed/offers";
import { invalidArgs, notFound, show } from "../http/errors";
import { parseFault } from "../http/faults";
import { redactState } from "../http/redact";
import { bodyOf, idParam, optInt } from "../http/validate";
import { SEED } from "../seed/seed";
import { stateView } from "../state-view";
import { build } from "./instance-create";
import type { OfferState } from "../store/types";

const OFFER_STATES = new Set(["available", "unavailable", "gone"]);
const none = { config: { auth: "none" as const } };

function setInstanceStatus(ctx: SimContext, idText: string, raw: unknown) {
  const id = idParam(idText, "instance id");
  const body = bodyOf(raw);
  const inst = ctx.store.data.instances.find((i) => i.id === id);
  if (!inst) throw notFound("no_such_instance", `No instance with id ${id}`);
  const value = body.actual_status;
  if (value !== null && typeof value !== "string") {
    throw invalidArgs(`actual_status must be a string or null (got ${show(value)})`);
  }
  inst.statusOverride = { value };
  ctx.store.changed();
  return { success: true, id, actual_status: value };
}

/**
 * The GPU utilization instance `id` reports (`gpu_util`, percent 0-100, on its rows while it
 * runs, and what the stand-in `nvidia-smi` of its start command prints when onstart runs).
 */
function setGpuUtil(ctx: SimContext, idText: string, raw: unknown) {
  const id = idParam(idText, "instance id");
  const inst = ctx.store.data.instances.find((i) => i.id === id);
  if (!inst) throw notFound("no_such_instance", `No instance with id ${id}`);
  const value = bodyOf(raw).gpu_util;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > 100) {
    throw invalidArgs(`gpu_util must be a percent from 0 to 100 (got ${show(value)})`);
  }
  inst.gpuUtil = value;
  ctx.store.changed();
  return { success: true, id, gpu_util: value };
}

function setOfferState(ctx: SimContext, idText: string, raw: unknown) {
  const id = idParam(idText, "offer id");
  if (!catalogueOffer(ctx.marketOffers, id)) throw notFound("no_such_ask", `No offer with id ${id} in the catalogue`);
  const body = bodyOf(raw);
  const price = body.dph_total;
  if (price !== undefined) {
    // The host changed its price: searches show the new one, rentals from now on pay it.
    if (typeof price !== "number" || !Number.isFinite(price) || price <= 0) throw invalidArgs(`dph_total must be a positive $/hour (got ${show(price)})`);
    ctx.store.data.offerPrices = { ...(ctx.store.data.offerPrices ?? {}), [String(id)]: price };
    if (body.state === undefined) {
      ctx.store.changed();
      return { success: true, id, dph_total: price };
    }
  }
  const state = body.state;
  if (typeof state !== "string" || !OFFER_STATES.has(state)) {
    throw invalidArgs(`state must be "available", "unavailable" or "gone" (got ${show(state)})`);
  }
  ctx.store.data.offerStates[String(id)] = state as OfferState;
  if (state === "available") {
    // Queued starts go ahead once the offer is back (api-facts: resources_unavailable).
    for (const inst of ctx.store.data.instances) {
      if (inst.offerId === id && inst.startQueued) {
        inst.startQueued = false;
        inst.bootStartedAt = ctx.now();
        inst.finalStatus = "running";
      }
    }
  }
  ctx.store.changed();
  return { success: true, id, state };
}

/**
 * Adds `count` running instances to the main account at once: an account that already holds
 * many instances (other stacks, other tools) without paying the creation rate limit to set it
 * up. They sit on bulk-market offers this simulator does not show (beyond `marketOffers`), so
 * the offers a test rents stay free (a rented offer is taken, domain/offers.ts).
 */
function addInstances(ctx: SimContext, raw: unknown) {
  const body = bodyOf(raw);
  const count = optInt(body, "count") ?? 1;
  if (count < 1 || count > 10_000) throw invalidArgs(`count must be between 1 and 10000 (got ${show(body.count)})`);
  const label = typeof body.label === "string" ? body.label : "unrelated";
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const hidden = MAX_MARKET_OFFERS - ctx.marketOffers;
    const offerId = hidden > 0 ? MARKET_FIRST_OFFER_ID + ctx.marketOffers + (i % hidden) : SEED.offerIds[i % SEED.offerIds.length];
    const inst = build(ctx, { userId: SEED.user.id, offerId, body: { label }, template: undefined, image: "ubuntu:22.04", env: [] });
    inst.bootStartedAt = 0; // booted long ago: running at once
    ctx.store.data.instances.push(inst);
    ids.push(inst.id);
  }
  ctx.store.changed();
  return { success: true, ids };
}

function setNextBoot(ctx: SimContext, raw: unknown) {
  const body = bodyOf(raw);
  const status = body.actual_status;
  if (typeof status !== "string" || status === "") throw invalidArgs(`actual_status must be a status such as "exited" (got ${show(status)})`);
  const times = optInt(body, "times") ?? 1;
  if (times < 1) throw invalidArgs(`times must be at least 1 (got ${times})`);
  const message = body.status_msg;
  if (message !== undefined && typeof message !== "string") throw invalidArgs(`status_msg must be a string (got ${show(message)})`);
  ctx.store.data.nextBoot = { actualStatus: status, remaining: times, ...(message === undefined ? {} : { statusMsg: message }) };
  ctx.store.changed();
  return { success: true, actual_status: status, times };
}

/**
 * Another renter bids `price` ($/hour) for machine `id`: interruptible instances bidding less
 * are outbid (stopped by the service, kept, `is_bid` true, status_msg saying why).
 */
function setMarket(ctx: SimContext, idText: string, raw: unknown) {
  const id = idParam(idText, "machine id");
  if (!machineById(id)) throw notFound("no_such_machine", `No machine with id ${id} in the catalogue`);
  const price = bodyOf(raw).price;
  if (typeof price !== "number" || !Number.isFinite(price) || price <= 0) throw invalidArgs(`price must be a positive $/hour (got ${show(price)})`);
  const outbid = setMarketPrice(ctx.store, id, price);
  ctx.store.changed();
  return { success: true, machine_id: id, price, outbid };
}

/**
 * Publishes ports of machine `id` on loopback: `{ports: {"8000/tcp": 45678}}` makes instances on
 * it show container port 8000 at 127.0.0.1:45678 (a port a test listens on, or one nobody
 * does, for an instance that never becomes ready); `{ports: {}}` clears them.
 */
function setMachinePorts(ctx: SimContext, idText: string, raw: unknown) {
  const id = idParam(idText, "machine id");
  if (!machineById(id)) throw notFound("no_such_machine", `No machine with id ${id} in the catalogue`);
  const ports = bodyOf(raw).ports;
  if (!ports || typeof ports !== "object" || Array.isArray(ports)) throw invalidArgs(`ports must be an object such as {"8000/tcp": 45678} (got ${show(ports)})`);
  const checked: Record<string, number> = {};
  for (const [key, port] of Object.entries(ports as Record<string, unknown>)) {
    if (!/^\d+\/(tcp|udp)$/.test(key)) throw invalidArgs(`ports keys are "PORT/tcp" or "PORT/udp" (got ${show(key)})`);
    if (typeof port !== "number" || !Number.isInteger(port) || port < 1 || port > 65535) throw invalidArgs(`ports.${key} must be a port 1 to 65535 (got ${show(port)})`);
    checked[key] = port;
  }
  const all = { ...(ctx.store.data.machinePorts ?? {}) };
  if (Object.keys(checked).length === 0) delete all[String(id)];
  else all[String(id)] = checked;
  ctx.store.data.machinePorts = all;
  ctx.store.changed();
  return { success: true, machine_id: id, ports: checked };
}

/**
 * Machine `id` refuses in-place updates (`update_template`) with `reason`, as the service does
 * when the machine cannot recreate the container there; `{reason: null}` accepts them again.
 */
function refuseUpdates(ctx: SimContext, idText: string, raw: unknown) {
  const id = idParam(idText, "machine id");
  if (!machineById(id)) throw notFound("no_such_machine", `No machine with id ${id} in the catalogue`);
  const reason = bodyOf(raw).reason;
  if (reason !== null && (typeof reason !== "string" || reason === "")) throw invalidArgs(`reason must be a non-empty string, or null to accept updates (got ${show(reason)})`);
  const all = { ...(ctx.store.data.refuseUpdates ?? {}) };
  if (reason === null) delete all[String(id)];
  else all[String(id)] = reason;
  ctx.store.data.refuseUpdates = all;
  ctx.store.changed();
  return { success: true, machine_id: id, reason };
}

/** The next `ignore` creates that carry a bid rent on-demand instead (the service's silent trap). */
function ignoreBids(ctx: SimContext, raw: unknown) {
  const n = optInt(bodyOf(raw), "ignore") ?? 1;
  if (n < 0) throw invalidArgs(`ignore must be 0 or more (got ${n})`);
  ctx.store.data.ignoreBids = n;
  ctx.store.changed();
  return { success: true, ignore: n };
}

export function registerControl(app: FastifyInstance, ctx: SimContext): void {
  app.get("/_sim/health", none, () => ({ ok: true }));
  app.post("/_sim/reset", none, () => {
    ctx.reset();
    return { success: true };
  });
  // Env values, scripts and command lines are masked unless the simulator keeps secrets (logSecrets).
  app.get("/_sim/state", none, () => (ctx.log.keepsSecrets ? stateView(ctx) : redactState(stateView(ctx))));
  app.post<{ Params: { id: string } }>("/_sim/instances/:id/status", none, (req) =>
    setInstanceStatus(ctx, req.params.id, req.body),
  );
  app.post<{ Params: { id: string } }>("/_sim/instances/:id/gpu", none, (req) => setGpuUtil(ctx, req.params.id, req.body));
  app.post<{ Params: { id: string } }>("/_sim/offers/:id", none, (req) => setOfferState(ctx, req.params.id, req.body));
  app.post("/_sim/next-boot", none, (req) => setNextBoot(ctx, req.body));
  app.post<{ Params: { id: string } }>("/_sim/machines/:id/market", none, (req) => setMarket(ctx, req.params.id, req.body));
  app.post("/_sim/bids", none, (req) => ignoreBids(ctx, req.body));
  app.post<{ Params: { id: string } }>("/_sim/machines/:id/refuse-updates", none, (req) => refuseUpdates(ctx, req.params.id, req.body));
  app.post<{ Params: { id: string } }>("/_sim/machines/:id/ports", none, (req) => setMachinePorts(ctx, req.params.id, req.body));
  app.post("/_sim/instances", none, (req) => addInstances(ctx, req.body));
  app.get("/_sim/faults", none, () => ({ faults: ctx.faults.list() }));
  app.post("/_sim/faults", none, (req) => {
    const spec = parseFault(bodyOf(req.body));
    ctx.faults.add(spec);
    return { success: true, fault: spec };
  });
  app.delete("/_sim/faults", none, () => {
    ctx.faults.clear();
    return { success: true };
  });
  app.get("/_sim/requests", none, () => ctx.log.list());
  app.delete("/_sim/requests", none, () => {
    ctx.log.clear();
    return { success: true };
  });
}
