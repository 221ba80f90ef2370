/** Public (camelCase) types of the billing history. Wire forms: schemas-billing.ts. */

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

/** One page of charges or invoices, with the token of the next page. */
export interface BillingPage<T> {
  results: T[];
  /** Matching rows in all pages. */
  total: number | undefined;
  /** Pass as `afterToken` for the next page; null on the last. */
  nextToken: string | null;
}
