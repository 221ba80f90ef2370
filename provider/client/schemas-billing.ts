/** Wire schemas (snake_case) and public types of the billing history: charges and invoices. */
import { z } from "zod";
import { anyNumber, anyRecord, anyString } from "./schema-helpers";

/** One part of a charge: `gpu`, `disk`, `bwd` (download), `bwu` (upload). */
export interface ChargeItem {
  type: string | undefined;
  /** Unix seconds. */
  start: number | undefined;
  end: number | undefined;
  description: string | undefined;
  /** Dollars. */
  amount: number;
}

/** What one contract (an instance, a volume, a serverless group) cost. */
export interface Charge {
  /** `instance`, `volume`, or `serverless` (tree format). */
  type: string | undefined;
  /** `{type}-{id}`, e.g. `instance-12345678`. */
  source: string | undefined;
  /** Unix seconds. */
  start: number | undefined;
  end: number | undefined;
  description: string | undefined;
  /** Dollars, rounded to 3 decimals by the service. */
  amount: number;
  /** `template_id`, `label`, `endpoint_id`, `workergroup_id` when set. */
  metadata: Record<string, unknown>;
  items: ChargeItem[];
}

/** A billing transaction: a top-up, a transfer, a payout, a refund. */
export interface Invoice {
  /** `credit`, `transfer`, `payout`, `refund`, `reserved`. */
  type: string | undefined;
  /** `stripe`, `coinbase`, or the sender's e-mail for transfers. */
  source: string | undefined;
  /** Created, Unix seconds. */
  start: number | undefined;
  /** Paid, Unix seconds; null while unpaid. */
  end: number | null;
  description: string | undefined;
  /** Dollars: negative for charges, positive for transfers and payouts (as the service gives it). */
  amount: number;
  /** `invoice_id`, `service`. */
  metadata: Record<string, unknown>;
}

export interface BillingPage<T> {
  results: T[];
  /** Matching rows in all pages. */
  total: number | undefined;
  /** Pass as `afterToken` for the next page; null on the last. */
  nextToken: string | null;
}

const item = z
  .looseObject({ type: anyString, start: anyNumber, end: anyNumber, description: anyString, amount: z.number() })
  .transform((i): ChargeItem => ({ type: i.type, start: i.start, end: i.end, description: i.description, amount: i.amount }));

const charge = z
  .looseObject({ type: anyString, source: anyString, start: anyNumber, end: anyNumber, description: anyString, amount: z.number(), metadata: anyRecord, items: z.array(item).nullish() })
  .transform(
    (c): Charge => ({ type: c.type, source: c.source, start: c.start, end: c.end, description: c.description, amount: c.amount, metadata: c.metadata ?? {}, items: c.items ?? [] }),
  );

const invoice = z
  .looseObject({ type: anyString, source: anyString, start: anyNumber, end: anyNumber, description: anyString, amount: z.number(), metadata: anyRecord })
  .transform((i): Invoice => ({ type: i.type, source: i.source, start: i.start, end: i.end ?? null, description: i.description, amount: i.amount, metadata: i.metadata ?? {} }));

function page<T>(row: z.ZodType<T>): z.ZodType<BillingPage<T>> {
  return z
    .looseObject({ results: z.array(row).nullish(), total: anyNumber, next_token: z.string().nullish() })
    .transform((p) => ({ results: p.results ?? [], total: p.total, nextToken: p.next_token ?? null }));
}

export const chargePageResponse: z.ZodType<BillingPage<Charge>> = page(charge);
export const invoicePageResponse: z.ZodType<BillingPage<Invoice>> = page(invoice);
