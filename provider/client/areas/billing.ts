/**
 * The billing history: per-contract charges (`GET /api/v0/charges/`) and invoices, that is
 * top-ups, transfers and payouts (`GET /api/v1/invoices/`). Both take a required date range in
 * `select_filters` (`day` for charges, `when` for invoices, Unix seconds) and page with
 * `after_token` / `next_token`.
 */
import type { RequestCore } from "../core";
import { ENDPOINTS, endpointKey, type Endpoint } from "../endpoints";
import { PagingLoopError, VastValidationError } from "../errors";
import { chargePageResponse, invoicePageResponse } from "../schemas-billing";
import type { BillingPage, Charge, Invoice } from "../types-billing";

/** The service's largest charges page; the vendor's client asks at most 100 of either. */
export const MAX_CHARGES_PAGE = 500;
/** Pages one walk follows at most (at the largest page, 250,000 charges). */
export const MAX_BILLING_PAGES = 500;

/** The kinds of charge the service reports. */
export const CHARGE_TYPES = ["instance", "volume", "serverless"] as const;
/** One kind of charge: `instance`, `volume` or `serverless`. */
export type ChargeType = (typeof CHARGE_TYPES)[number];

/** A time range of a billing query: start and end as a Date, Unix seconds or an ISO 8601 date. */
export interface BillingRange {
  /** Start of the range, Unix seconds (UTC) or a Date. */
  start: number | Date;
  /** End of the range, Unix seconds (UTC) or a Date; default now. */
  end?: number | Date;
  /** Rows per page. */
  limit?: number;
  /** Newest first (the service's default true). */
  latestFirst?: boolean;
  afterToken?: string | null;
}

/** A charges query: the range, the types and the page size. */
export interface ChargeQuery extends BillingRange {
  /** Only these contract types. */
  types?: ChargeType[];
}

/** An invoices query: the range, the services and the page size. */
export interface InvoiceQuery extends BillingRange {
  /** Only these payment services (`stripe_payments`, `transfer`, `coinbase`, ...). */
  services?: string[];
}

function seconds(name: string, v: number | Date | undefined, fallback: number): number {
  if (v === undefined) return fallback;
  const s = v instanceof Date ? Math.floor(v.getTime() / 1000) : v;
  if (!Number.isFinite(s) || s < 0) throw new VastValidationError(`${name} must be a Date or Unix seconds (got ${String(v)})`);
  if (s > 1e11) throw new VastValidationError(`${name} must be Unix seconds, not milliseconds (got ${s})`);
  return Math.floor(s);
}

function range(q: BillingRange): { gte: number; lte: number } {
  if (q.start === undefined || q.start === null) throw new VastValidationError("start is required: a Date or Unix seconds (the service needs a date range)");
  const gte = seconds("start", q.start, NaN);
  const lte = seconds("end", q.end, Math.ceil(Date.now() / 1000));
  if (lte < gte) throw new VastValidationError(`end (${lte}) must not be before start (${gte})`);
  return { gte, lte };
}

function limitOf(limit: number | undefined, max: number | undefined): number | undefined {
  if (limit === undefined) return undefined;
  if (!Number.isInteger(limit) || limit < 1 || (max !== undefined && limit > max)) {
    throw new VastValidationError(`limit must be a whole number from 1${max !== undefined ? ` to ${max}` : ""} (got ${limit})`);
  }
  return limit;
}

/** The billing area of the client: charges and invoices, every page read. */
export class BillingApi {
  constructor(private readonly core: RequestCore) {}

  /** One page of charges in the range (`format=table`: one row per instance or volume). */
  chargesPage(q: ChargeQuery): Promise<BillingPage<Charge>> {
    const filters: Record<string, unknown> = { day: range(q) };
    if (q.types) {
      const bad = q.types.filter((t) => !(CHARGE_TYPES as readonly string[]).includes(t));
      if (bad.length > 0) throw new VastValidationError(`types: ${bad.join(", ")} is not a charge type; types are ${CHARGE_TYPES.join(", ")}`);
      filters.type = { in: q.types };
    }
    return this.core.request({
      endpoint: ENDPOINTS.chargesList,
      query: {
        select_filters: JSON.stringify(filters),
        format: "table",
        latest_first: q.latestFirst,
        limit: limitOf(q.limit, MAX_CHARGES_PAGE),
        after_token: q.afterToken ?? undefined,
      },
      schema: chargePageResponse,
    });
  }

  /** One page of invoices in the range. */
  invoicesPage(q: InvoiceQuery): Promise<BillingPage<Invoice>> {
    const filters: Record<string, unknown> = { when: range(q) };
    if (q.services) filters.service = { in: q.services };
    return this.core.request({
      endpoint: ENDPOINTS.invoicesList,
      query: { select_filters: JSON.stringify(filters), latest_first: q.latestFirst, limit: limitOf(q.limit, undefined), after_token: q.afterToken ?? undefined },
      schema: invoicePageResponse,
    });
  }

  /** Every charge in the range, walking the pages. */
  charges(q: Omit<ChargeQuery, "afterToken">): Promise<Charge[]> {
    return walk(ENDPOINTS.chargesList, (afterToken) => this.chargesPage({ ...q, afterToken }));
  }

  /** Every invoice in the range, walking the pages. */
  invoices(q: Omit<InvoiceQuery, "afterToken">): Promise<Invoice[]> {
    return walk(ENDPOINTS.invoicesList, (afterToken) => this.invoicesPage({ ...q, afterToken }));
  }
}

/** Follows next_token; a token seen before is a PagingLoopError, and more than MAX_BILLING_PAGES pages an error saying to narrow the range. */
async function walk<T>(endpoint: Endpoint, pageAt: (afterToken: string | null) => Promise<BillingPage<T>>): Promise<T[]> {
  const all: T[] = [];
  const seen = new Set<string>();
  let token: string | null = null;
  for (let pages = 1; ; pages++) {
    const p: BillingPage<T> = await pageAt(token);
    all.push(...p.results);
    if (!p.nextToken || p.results.length === 0) return all;
    if (seen.has(p.nextToken)) throw new PagingLoopError(endpointKey(endpoint), pages);
    if (pages >= MAX_BILLING_PAGES) throw new VastValidationError(`${endpointKey(endpoint)}: more than ${MAX_BILLING_PAGES} pages; ask for a shorter date range`);
    seen.add(p.nextToken);
    token = p.nextToken;
  }
}

