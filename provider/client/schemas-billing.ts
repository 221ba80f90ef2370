/** Wire schemas (snake_case) and public types of the billing history: charges and invoices. */
import { z } from "zod";
import { anyNumber, anyRecord, anyString, trimmedRow } from "./schema-helpers";
import type { BillingPage, Charge, ChargeItem, Invoice } from "./types-billing";

// The public types live in types-billing.ts (no zod there).
export type { BillingPage, Charge, ChargeItem, Invoice } from "./types-billing";


// Strings trimmed, as every row the client reads (the vendor's client strips every string of a row).
const item = trimmedRow(z.looseObject({ type: anyString, start: anyNumber, end: anyNumber, description: anyString, amount: z.number() })).transform((i): ChargeItem => ({ type: i.type, start: i.start, end: i.end, description: i.description, amount: i.amount }));

const charge = trimmedRow(
  z.looseObject({ type: anyString, source: anyString, start: anyNumber, end: anyNumber, description: anyString, amount: z.number(), metadata: anyRecord, items: z.array(item).nullish() }),
).transform(
    (c): Charge => ({ type: c.type, source: c.source, start: c.start, end: c.end, description: c.description, amount: c.amount, metadata: c.metadata ?? {}, items: c.items ?? [] }),
  );

const invoice = trimmedRow(
  z.looseObject({ type: anyString, source: anyString, start: anyNumber, end: anyNumber, description: anyString, amount: z.number(), metadata: anyRecord }),
).transform((i): Invoice => ({ type: i.type, source: i.source, start: i.start, end: i.end ?? null, description: i.description, amount: i.amount, metadata: i.metadata ?? {} }));

function page<T>(row: z.ZodType<T>): z.ZodType<BillingPage<T>> {
  return z
    .looseObject({ results: z.array(row).nullish(), total: anyNumber, next_token: z.string().nullish() })
    .transform((p) => ({ results: p.results ?? [], total: p.total, nextToken: p.next_token ?? null }));
}

export const chargePageResponse: z.ZodType<BillingPage<Charge>> = page(charge);
export const invoicePageResponse: z.ZodType<BillingPage<Invoice>> = page(invoice);
