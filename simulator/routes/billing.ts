/**
 * The billing history (vendor document: `GET /api/v0/charges`, `GET /api/v1/invoices`), as
 * domain/billing.ts derives it from the account's instances. Both need `billing_read`, a
 * `select_filters` date range (`day` for charges, `when` for invoices, Unix seconds) and page
 * with an opaque `after_token`. A missing or invalid `when` range of invoices is answered at
 * HTTP 200 with `success: false`, as the document says; charges answer 400.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { SimContext } from "../context";
import { requirePermission } from "../http/auth";
import { apiError, invalidArgs, show } from "../http/errors";
import { chargesOf, invoicesOf } from "../domain/billing";
import { servedNested } from "../domain/untrimmed";

type Query = Record<string, string | undefined>;
type Range = { gte?: number; gt?: number; lte?: number; lt?: number };

const MAX_CHARGES = 500;

function json(q: Query, name: string): unknown {
  const raw = q[name];
  if (raw === undefined || raw === "") return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    throw invalidArgs(`${name} must be JSON (got ${show(raw)})`);
  }
}

function rangeOf(filters: unknown, col: string): Range | undefined {
  if (!filters || typeof filters !== "object" || Array.isArray(filters)) return undefined;
  const r = (filters as Record<string, unknown>)[col];
  if (!r || typeof r !== "object" || Array.isArray(r)) return undefined;
  const out: Range = {};
  for (const [op, v] of Object.entries(r)) {
    if (!["gte", "gt", "lte", "lt"].includes(op) || typeof v !== "number" || !Number.isFinite(v)) return undefined;
    out[op as keyof Range] = v;
  }
  return (out.gte ?? out.gt) !== undefined && (out.lte ?? out.lt) !== undefined ? out : undefined;
}

/** Whether [start, end] overlaps the range (charges) or `at` lies in it (invoices). */
function overlaps(r: Range, start: number, end: number): boolean {
  const lo = r.gte ?? r.gt!;
  const hi = r.lte ?? r.lt!;
  return end >= lo && start <= hi;
}

function limitOf(q: Query, fallback: number, max: number): number {
  const raw = q.limit;
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d{1,6}$/.test(raw) || Number(raw) < 1) throw invalidArgs(`limit must be a whole number of at least 1 (got ${show(raw)})`);
  return Math.min(Number(raw), max);
}

function offsetOf(q: Query): number {
  const raw = q.after_token;
  if (raw === undefined || raw === "") return 0;
  try {
    const parsed = JSON.parse(Buffer.from(raw, "base64").toString("utf8")) as { offset?: unknown };
    if (typeof parsed.offset === "number" && Number.isInteger(parsed.offset) && parsed.offset >= 0) return parsed.offset;
  } catch {
    // answered below
  }
  throw apiError(400, "invalid_token", "Invalid pagination token");
}

function paged<T>(rows: T[], q: Query, fallback: number, max: number) {
  const latestFirst = q.latest_first !== "false" && q.latest_first !== "False";
  const ordered = latestFirst ? rows : [...rows].reverse();
  const offset = offsetOf(q);
  const limit = limitOf(q, fallback, max);
  const results = ordered.slice(offset, offset + limit);
  const next = offset + limit < ordered.length ? Buffer.from(JSON.stringify({ offset: offset + limit })).toString("base64") : null;
  return { success: true, count: results.length, total: rows.length, next_token: next, results };
}

function charges(ctx: SimContext, req: FastifyRequest) {
  const userId = requirePermission(req, "billing_read").user.id;
  const q = req.query as Query;
  const filters = json(q, "select_filters");
  const day = rangeOf(filters, "day");
  if (!day) throw invalidArgs('select_filters needs a day range in Unix seconds, e.g. {"day":{"gte":1767225600,"lte":1769903999}}');
  const typeFilter = (filters as Record<string, unknown>).type as { in?: unknown } | undefined;
  const types = typeFilter && Array.isArray(typeFilter.in) ? new Set(typeFilter.in.map(String)) : undefined;
  if (q.format !== undefined && q.format !== "table" && q.format !== "tree") throw invalidArgs(`format must be table or tree (got ${show(q.format)})`);
  const rows = chargesOf(ctx, userId).filter((c) => overlaps(day, c.start, c.end) && (!types || types.has(c.type)));
  const page = paged(rows, q, 100, MAX_CHARGES);
  return { ...page, results: page.results.map((r) => servedNested(ctx, r)) };
}

function invoices(ctx: SimContext, req: FastifyRequest) {
  const userId = requirePermission(req, "billing_read").user.id;
  const q = req.query as Query;
  const filters = json(q, "select_filters");
  const when = rangeOf(filters, "when");
  if (!when) return { success: false, error: "Invalid date range", count: 0, total: 0, results: [], next_token: null };
  const service = (filters as Record<string, unknown>).service as Record<string, unknown> | undefined;
  const keep = (s: string): boolean => {
    if (!service) return true;
    if (typeof service.eq === "string" && s !== service.eq) return false;
    if (typeof service.neq === "string" && s === service.neq) return false;
    if (Array.isArray(service.in) && !service.in.includes(s)) return false;
    if (Array.isArray(service.notin) && service.notin.includes(s)) return false;
    return true;
  };
  const rows = invoicesOf(ctx, userId)
    .filter((i) => overlaps(when, i.start, i.start) && keep(i.metadata.service))
    .map(({ id: _id, ...row }) => ({ ...row, items: [] }));
  return paged(rows, q, 60, 10_000);
}

export function registerBilling(app: FastifyInstance, ctx: SimContext): void {
  app.get("/api/v0/charges/", (req) => charges(ctx, req));
  app.get("/api/v1/invoices/", (req) => invoices(ctx, req));
}
