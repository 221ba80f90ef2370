/** Lookups of the account's money: the user record (balance, credit) and the billing history. */
import * as pulumi from "@pulumi/pulumi";
import type { Charge, ChargeType, Invoice } from "../client";
import { VastValidationError } from "../client/errors";
import { LookupOptions, clientOf, knownArgs, outputVariant } from "./common";

/** The account behind the key: who it is and what it holds. Never a key, token or session id. */
export interface UserInfo {
  id: number;
  email?: string;
  username?: string;
  /** Dollars, as the service gives it. */
  balance?: number;
  /** Dollars of credit left. */
  credit?: number;
}

/** The current user (`GET /api/v0/users/current/`): id, e-mail, name, balance and credit only. */
export async function getUser(options?: LookupOptions): Promise<UserInfo> {
  const u = await clientOf(options).users.current();
  return { id: u.id, email: u.email, username: u.username, balance: u.balance, credit: u.credit };
}
/** `getUser` as an Output. */
export function getUserOutput(options?: LookupOptions): pulumi.Output<UserInfo> {
  return pulumi.output(getUser(options));
}

interface RangeArgs {
  /** Start of the range: a Date, an ISO 8601 string with a time zone, or Unix seconds. */
  start: Date | string | number;
  /** End of the range (same forms); default now. */
  end?: Date | string | number;
  /** Rows per page the walk asks for (charges at most 500). */
  pageSize?: number;
}

/** Arguments of `getCharges`: the time range, the charge types and the page size. */
export interface ChargesArgs extends RangeArgs {
  /** Only these contract types: `instance`, `volume`, `serverless`. */
  types?: ChargeType[];
}

/** Arguments of `getInvoices`: the time range, the services and the page size. */
export interface InvoicesArgs extends RangeArgs {
  /** Only these payment services: `stripe_payments`, `transfer`, `coinbase`, `bitpay`, `crypto.com`, `instance_prepay`, `paypal_manual`, `wise_manual`. */
  services?: string[];
}

function when(lookup: string, name: string, v: Date | string | number | undefined): number | Date | undefined {
  if (v === undefined || v instanceof Date || typeof v === "number") return v;
  if (typeof v === "string" && /^\d{4}-\d\d-\d\d(T.*(Z|[+-]\d\d:?\d\d))?$/.test(v) && !Number.isNaN(Date.parse(v))) return new Date(v);
  throw new VastValidationError(`${lookup}: ${name} must be a Date, Unix seconds or an ISO 8601 date such as 2026-01-01 or 2026-01-01T00:00:00Z (got ${JSON.stringify(v)})`);
}

function rangeOf(lookup: string, args: RangeArgs) {
  if (!args || typeof args !== "object") throw new VastValidationError(`${lookup}: pass { start, end? } (the service needs a date range)`);
  if (args.start === undefined) throw new VastValidationError(`${lookup}: start is required (the service needs a date range)`);
  return { start: when(lookup, "start", args.start)!, end: when(lookup, "end", args.end), limit: args.pageSize };
}

async function named<T>(lookup: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof VastValidationError && !error.message.startsWith(lookup)) throw new VastValidationError(`${lookup}: ${error.message}`);
    throw error;
  }
}

/**
 * Per-contract charges in the range (`GET /api/v0/charges/`), every page: one row per instance
 * or volume, with the `gpu`/`disk`/bandwidth `items` and the `amount` in dollars.
 */
export async function getCharges(args: ChargesArgs, options?: LookupOptions): Promise<Charge[]> {
  knownArgs("getCharges", args, ["start", "end", "types", "pageSize"]);
  return named("getCharges", () => clientOf(options).billing.charges({ ...rangeOf("getCharges", args), types: args.types }));
}
/** `getCharges` with Pulumi inputs, as an Output. */
export const getChargesOutput = outputVariant(getCharges);

/** Invoices in the range (`GET /api/v1/invoices/`), every page: top-ups, transfers, payouts, refunds. */
export async function getInvoices(args: InvoicesArgs, options?: LookupOptions): Promise<Invoice[]> {
  knownArgs("getInvoices", args, ["start", "end", "services", "pageSize"]);
  return named("getInvoices", () => clientOf(options).billing.invoices({ ...rangeOf("getInvoices", args), services: args.services }));
}
/** `getInvoices` with Pulumi inputs, as an Output. */
export const getInvoicesOutput = outputVariant(getInvoices);
