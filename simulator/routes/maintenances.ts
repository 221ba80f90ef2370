/**
 * Maintenance windows for many machines at once (spec: POST maintenances/batch; api-facts:
 * list and cancel). Machines the caller does not own come back as `not_found` entries.
 * One machine at a time, as the vendor's client does it (vendor document: PUT
 * /machines/{machine_id}/dnotify/ schedules, PUT /machines/{machine_id}/cancel_maint/ cancels
 * every window of the machine); both share the windows of the batch routes.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { SimContext } from "../context";
import { maintenanceView } from "../domain/maintenance-view";
import { account } from "../http/auth";
import { apiError, invalidArgs, show } from "../http/errors";
import { bodyOf, idParam, optString, type Body } from "../http/validate";
import { machineById } from "../seed/machines";
import { NOT_OWNED_MSG } from "./machines";

const CATEGORIES = ["disk", "gpu", "internet", "other", "power", "software"];
const BATCH_MAX = 100;
const YEAR_S = 366 * 24 * 3600;

/** 1..100 integers, as `field` must be. */
function idList(body: Body, field: string): number[] {
  const v = body[field];
  if (!Array.isArray(v) || v.length === 0) throw invalidArgs(`${field} must be a non-empty list`);
  if (v.length > BATCH_MAX) throw invalidArgs(`${field} must contain at most ${BATCH_MAX} entries`);
  if (!v.every((x) => Number.isInteger(x))) throw invalidArgs(`${field} must contain only integers (got ${show(v)})`);
  return [...new Set(v as number[])];
}

function checkWindow(ctx: SimContext, body: Body) {
  const sdate = body.sdate;
  if (!Number.isInteger(sdate)) throw invalidArgs(`sdate must be a Unix timestamp in seconds (got ${show(sdate)})`);
  const now = ctx.now() / 1000;
  if ((sdate as number) <= now) throw invalidArgs(`sdate must be in the future (got ${sdate}, now ${Math.floor(now)})`);
  if ((sdate as number) > now + YEAR_S) throw invalidArgs(`sdate must be within 1 year from now (got ${sdate})`);
  const d = body.duration ?? 1;
  if (typeof d !== "number" || !Number.isFinite(d) || d <= 0) throw invalidArgs("duration must be a positive number");
  const category = optString(body, "maintenance_category") ?? "other";
  if (!CATEGORIES.includes(category)) throw invalidArgs(`maintenance_category must be one of: ${CATEGORIES.join(", ")}`);
  // Shorter windows count as one hour (spec: minimum effective value 1).
  return { sdate: sdate as number, duration: Math.max(1, d), category, reason: optString(body, "maintenance_reason") ?? "" };
}

function schedule(ctx: SimContext, request: FastifyRequest) {
  const userId = account(request).user.id;
  const body = bodyOf(request.body);
  const ids = idList(body, "machine_ids");
  const w = checkWindow(ctx, body);
  const results = ids.map((machineId) => {
    const m = machineById(machineId);
    if (!m || m.ownerId !== userId) return { success: false, machine_id: machineId, error: "not_found", msg: NOT_OWNED_MSG };
    ctx.store.data.maintenances.push({
      id: ctx.store.nextId("maintenance"), machineId, userId, startTime: w.sdate, durationHours: w.duration,
      category: w.category, reason: w.reason, createdAt: ctx.now(), cancelledAt: null,
    });
    return { success: true, machine_id: machineId, notifications_sent: m.rentalsRunning };
  });
  if (!results.some((r) => r.success)) {
    throw apiError(404, "not_found", `None of the machine_ids is a machine you own: ${NOT_OWNED_MSG}`, { results });
  }
  ctx.store.changed();
  return { success: true, results };
}

function list(ctx: SimContext, request: FastifyRequest) {
  const userId = account(request).user.id;
  const raw = (request.query as Record<string, string | undefined>).machine_ids;
  let wanted: number[] | undefined;
  if (raw !== undefined && raw !== "") {
    const text = raw.trim().startsWith("[") ? raw.trim().slice(1, -1) : raw;
    wanted = text.split(",").filter((s) => s.trim() !== "").map(Number);
    if (wanted.some((n) => !Number.isInteger(n))) throw invalidArgs(`machine_ids must be a list of integers (got ${show(raw)})`);
  }
  return ctx.store.data.maintenances
    .filter((m) => m.userId === userId && m.cancelledAt === null && (!wanted || wanted.includes(m.machineId)))
    .map(maintenanceView);
}

function cancel(ctx: SimContext, request: FastifyRequest) {
  const userId = account(request).user.id;
  const ids = idList(bodyOf(request.body), "maintenance_ids");
  const results = ids.map((id) => {
    const m = ctx.store.data.maintenances.find((x) => x.id === id && x.userId === userId && x.cancelledAt === null);
    if (!m) return { success: false, maintenance_id: id, msg: "No such maintenance id or not owned" };
    m.cancelledAt = ctx.now();
    return { success: true, maintenance_id: id, msg: "Maintenance cancelled" };
  });
  ctx.store.changed();
  return { success: results.some((r) => r.success), results };
}

type MachineRequest = FastifyRequest<{ Params: { id: string } }>;

/** The caller's machine named in the path; 404 as the document lists otherwise. */
function ownedMachine(request: MachineRequest, userId: number) {
  const machineId = idParam(request.params.id, "machine_id");
  const m = machineById(machineId);
  if (!m || m.ownerId !== userId) throw apiError(404, "not_found", NOT_OWNED_MSG, { machine_id: machineId, user_id: userId });
  return m;
}

/** The vendor's client sends sdate as Unix seconds (a float); the document shows date-time text. */
function sdateOf(body: Body): Body {
  const v = body.sdate;
  if (typeof v === "number" && Number.isFinite(v)) return { ...body, sdate: Math.floor(v) };
  if (typeof v === "string" && v.trim() !== "") {
    const ms = /^\d+(\.\d+)?$/.test(v.trim()) ? Number(v) * 1000 : Date.parse(v);
    if (Number.isFinite(ms)) return { ...body, sdate: Math.floor(ms / 1000) };
  }
  return body;
}

function notify(ctx: SimContext, request: MachineRequest) {
  const userId = account(request).user.id;
  const m = ownedMachine(request, userId);
  const w = checkWindow(ctx, sdateOf(bodyOf(request.body)));
  ctx.store.data.maintenances.push({
    id: ctx.store.nextId("maintenance"), machineId: m.id, userId, startTime: w.sdate, durationHours: w.duration,
    category: w.category, reason: w.reason, createdAt: ctx.now(), cancelledAt: null,
  });
  ctx.store.changed();
  return { success: true, you_sent: `${m.rentalsRunning} notifications sent` };
}

function cancelMachine(ctx: SimContext, request: MachineRequest) {
  const userId = account(request).user.id;
  const m = ownedMachine(request, userId);
  const open = ctx.store.data.maintenances.filter((x) => x.machineId === m.id && x.userId === userId && x.cancelledAt === null);
  for (const x of open) x.cancelledAt = ctx.now();
  if (open.length > 0) ctx.store.changed();
  return { success: true, ctime: ctx.now() / 1000, machine_id: m.id, msg: `deleted ${open.length} scheduled maintenance window(s) on machine ${m.id}` };
}

export function registerMaintenances(app: FastifyInstance, ctx: SimContext): void {
  app.put<{ Params: { id: string } }>("/api/v0/machines/:id/dnotify", (req) => notify(ctx, req));
  app.put<{ Params: { id: string } }>("/api/v0/machines/:id/cancel_maint", (req) => cancelMachine(ctx, req));
  app.post("/api/v0/machines/maintenances/batch", (req) => schedule(ctx, req));
  app.delete("/api/v0/machines/maintenances/batch", (req) => cancel(ctx, req));
  app.get("/api/v0/machines/maintenances", (req) => list(ctx, req));
}
