/**
 * The hooks every API request passes through, in this order: request log, injected faults,
 * authentication, rate limit; then the route; then latency, persistence and `drop: "after"`.
 * Control routes (`/_sim/...`) skip all of it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { SimContext } from "../context";
import { authenticate, checkInstanceKey } from "./auth";
import { isControlRequest } from "./guard";
import { echoBody, type FaultSpec } from "./faults";
import { rateLimitBody, routeKey } from "./rate-limit";
import { pathOf } from "./request-log";

export interface PipelineOptions {
  /** Fixed delay added to every API response, ms. */
  latencyMs: number;
  /** Writes the state file when the state changed. */
  persist(): void;
}

function drop(request: FastifyRequest, reply: FastifyReply, when: "before" | "after"): void {
  if (request.sim.entry) {
    request.sim.entry.dropped = when;
    request.sim.entry.status = 0;
  }
  reply.raw.destroy();
}

function sendFault(fault: FaultSpec, reply: FastifyReply): void {
  reply.code(fault.status ?? 500);
  for (const [name, value] of Object.entries(fault.headers ?? {})) reply.header(name, value);
  if (typeof fault.body === "string") {
    const looksJson = /^\s*[[{]/.test(fault.body);
    reply.type(fault.contentType ?? (looksJson ? "application/json" : "text/plain; charset=utf-8")).send(fault.body);
  } else if (fault.body === undefined && fault.status === 429) {
    reply.type(fault.contentType ?? "text/plain; charset=utf-8").send("API requests too frequent");
  } else {
    const body = fault.body ?? { success: false, error: "simulated_fault", msg: `Injected fault: HTTP ${fault.status ?? 500}` };
    if (fault.contentType) reply.type(fault.contentType);
    reply.send(body);
  }
}

/** Returns true when the fault answered (or dropped) the request itself. */
async function applyFault(ctx: SimContext, fault: FaultSpec, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  if (fault.delayMs) await ctx.sleep(fault.delayMs);
  if (fault.drop === "before") {
    reply.hijack();
    drop(request, reply, "before");
    return true;
  }
  if (fault.drop === "after") request.sim.dropAfter = true;
  if (fault.echo !== undefined) {
    sendFault({ ...fault, status: fault.status ?? 400, body: echoBody(fault.echo, request.body) }, reply);
    return true;
  }
  if (fault.status !== undefined || fault.body !== undefined) {
    sendFault(fault, reply);
    return true;
  }
  // Headers alone go onto the route's own answer (a Date a year ahead, an extra header).
  for (const [name, value] of Object.entries(fault.headers ?? {})) reply.header(name, value);
  return false;
}

export function registerPipeline(app: FastifyInstance, ctx: SimContext, opts: PipelineOptions): void {
  app.decorateRequest("sim", null as never);

  app.addHook("onRequest", async (request) => {
    const api = !isControlRequest(request);
    request.sim = { api, entry: api ? ctx.log.start(request) : null, account: null, dropAfter: false };
  });

  app.addHook("preHandler", async (request, reply) => {
    if (!request.sim.api) return;
    if (request.sim.entry) ctx.log.setBody(request.sim.entry, request.body);
    const fault = ctx.faults.take(request.method, pathOf(request.url));
    if (fault && (await applyFault(ctx, fault, request, reply))) return reply;
    if (request.is404 || request.routeOptions.config.auth === "none") return;
    request.sim.account = authenticate(ctx, request);
    if (request.sim.account.instanceId !== undefined) {
      if (request.sim.entry) request.sim.entry.instanceKey = request.sim.account.instanceId;
      checkInstanceKey(request, request.sim.account);
    }
    const interval = ctx.limiter.admit(routeKey(request.method, request.routeOptions.url ?? ""), request.sim.account.key.key);
    if (interval > 0) return reply.code(429).type("text/plain; charset=utf-8").send(rateLimitBody(interval));
  });

  app.addHook("onSend", async (request, reply, payload) => {
    // The service's Date header is its clock; clients judge start times by it.
    if (request.sim?.api && !reply.hasHeader("date")) reply.header("date", new Date(ctx.now()).toUTCString());
    if (request.sim?.api && opts.latencyMs > 0) await ctx.sleep(opts.latencyMs);
    opts.persist();
    if (request.sim?.dropAfter) drop(request, reply, "after");
    return payload;
  });

  app.addHook("onResponse", async (request, reply) => {
    const entry = request.sim?.entry;
    if (entry && !entry.dropped) entry.status = reply.statusCode;
  });
}
