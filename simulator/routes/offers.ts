/**
 * Offer search `POST /api/v0/bundles/` with a query object (api-facts: Offers), and the
 * disabled bundle-accept endpoint that answers `{}` (spec: Instances).
 */
import type { FastifyInstance } from "fastify";
import type { SimContext } from "../context";
import { FilterError, matches, type FieldReader } from "../domain/filters";
import { catalogue, countryCode, offerState, offerView } from "../domain/offers";
import { served } from "../domain/untrimmed";
import { invalidArgs, show } from "../http/errors";
import { bodyOf, idParam, optNumber, type Body } from "../http/validate";

// Query keys that are not field filters.
const CONTROL_KEYS = new Set(["order", "type", "limit", "allocated_storage", "disable_bundling", "extra_ids"]);
// The document spells on-demand `ondemand`; the vendor's client sends `on-demand`.
const TYPES = new Set(["on-demand", "ondemand", "bid", "reserved", "ask"]);

/**
 * How the search reads a field of an offer row. A location matches by its name or its country
 * code. A driver version is compared as the number `driver_vers` when the filter gives a
 * number (535086005, as the vendor's client sends it) and as text otherwise (where only
 * equality is meaningful: as text, 550.107.02 sorts below 550.54.15). `ubuntu_version` reads
 * the row's `os_version` (vendor document: an alias).
 */
function readerFor(view: Record<string, unknown>): FieldReader {
  return (field) => {
    const v = view[field];
    if (field === "geolocation" && typeof v === "string") return [v, countryCode(v)];
    if (field === "driver_version") return [v, view.driver_vers];
    if (field === "ubuntu_version") return [view.os_version];
    return [v];
  };
}

function orderOf(query: Body): [string, number][] {
  const order = query.order ?? [["dph_total", "asc"]];
  if (!Array.isArray(order)) throw invalidArgs(`order must be a list like [["dph_total", "asc"]] (got ${show(order)})`);
  return order.map((o) => {
    const [field, dir = "asc"] = Array.isArray(o) ? o : [o];
    if (typeof field !== "string" || (dir !== "asc" && dir !== "desc")) {
      throw invalidArgs(`order entries must be [field, "asc" | "desc"] (got ${show(o)})`);
    }
    return [field, dir === "asc" ? 1 : -1];
  });
}

function sortKey(a: unknown, b: unknown): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a ?? "").localeCompare(String(b ?? ""));
}

function search(ctx: SimContext, raw: unknown): { offers: Record<string, unknown>[] } {
  let query = bodyOf(raw);
  if (query.q && typeof query.q === "object") query = query.q as Body;
  const type = query.type ?? "on-demand";
  if (typeof type !== "string" || !TYPES.has(type)) throw invalidArgs(`type must be on-demand, bid or reserved (got ${show(type)})`);
  const limit = optNumber(query, "limit");
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw invalidArgs(`limit must be a positive integer (got ${limit})`);
  const storage = optNumber(query, "allocated_storage");
  if (storage !== undefined && !(storage > 0)) throw invalidArgs(`allocated_storage must be a positive number of GB (got ${storage})`);
  // No implicit filters: the service answers what is asked (the vendor's client adds its own).
  const filters: Body = {};
  for (const [k, v] of Object.entries(query)) if (!CONTROL_KEYS.has(k)) filters[k] = v;
  const order = orderOf(query);
  let offers: Record<string, unknown>[];
  try {
    // Gone: removed by the control API, or taken by an instance (domain/offers.ts).
    offers = catalogue(ctx.marketOffers).filter((o) => offerState(ctx.store, o.id) !== "gone")
      .map((o) => offerView(ctx.store, o, storage))
      .filter((v) => matches(readerFor(v), filters));
  } catch (err) {
    if (err instanceof FilterError) throw invalidArgs(`Invalid query: ${err.message}`);
    throw err;
  }
  offers.sort((a, b) => {
    for (const [field, dir] of order) {
      const c = sortKey(a[field], b[field]) * dir;
      if (c !== 0) return c;
    }
    return (a.id as number) - (b.id as number);
  });
  return { offers: (limit === undefined ? offers : offers.slice(0, limit)).map((o) => served(ctx, o)) };
}

export function registerOffers(app: FastifyInstance, ctx: SimContext): void {
  app.post("/api/v0/bundles", (req) => search(ctx, req.body));
  // The older client sends the query as ?q=<json>.
  app.get("/api/v0/bundles", (req) => {
    const q = (req.query as Record<string, string | undefined>).q;
    if (q === undefined) return search(ctx, {});
    try {
      return search(ctx, JSON.parse(q));
    } catch (err) {
      if (err instanceof SyntaxError) throw invalidArgs("q must be a JSON query object");
      throw err;
    }
  });
  app.put<{ Params: { id: string } }>("/api/v0/bundles/:id", (req) => {
    idParam(req.params.id, "bundle id");
    const body = bodyOf(req.body);
    for (const f of ["price", "max_start", "min_duration"]) optNumber(body, f);
    // Disabled on the service: it answers an empty object (spec: Instances).
    return {};
  });
}
