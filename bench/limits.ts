/**
 * The rate limits of the benchmark and the lower bounds they set. The service's realistic
 * limits (one call a second on the strictest endpoints) would make a run of 200 instances take
 * minutes, so every interval of the service and of the client is multiplied by the same factor:
 * the simulator gets the scaled table, the client its default intervals scaled alike, and the
 * lower bounds come from the scaled table. Ratios to the bound do not depend on the factor.
 */
import { DEFAULT_INTERVALS_MS, DEFAULT_RETRY_POLICY, REALISTIC_RATE_LIMITS, type RateLimitTable } from "./deps";

export interface BenchSettings {
  /** Factor applied to every rate-limit interval (service and client) and to retry backoff. */
  scale: number;
  /** Fixed latency the simulator adds to every response, ms. */
  latencyMs: number;
  /** Resource operations the engine runs at once (the plugin serves them concurrently). */
  parallel: number;
}

export const DEFAULTS: BenchSettings = { scale: 0.5, latencyMs: 25, parallel: 10 };

/** Instances per page of the paged list, as the provider reads it. */
export const PAGE_SIZE = 25;

/** The simulator's table: the realistic limits times `scale`. */
export function serviceLimits(scale: number): RateLimitTable {
  return Object.fromEntries(Object.entries(REALISTIC_RATE_LIMITS).map(([k, ms]) => [k, ms * scale]));
}

/** The client's pacing: its own default intervals times `scale`. */
export function clientPacing(scale: number): Record<string, number> {
  return Object.fromEntries(Object.entries(DEFAULT_INTERVALS_MS).map(([k, ms]) => [k, ms * scale]));
}

/** The client's backoff between retries, scaled like the intervals so waits keep their proportions. */
export function scaledBackoff(scale: number): { baseMs: number; capMs: number } {
  return { baseMs: DEFAULT_RETRY_POLICY.backoff.baseMs * scale, capMs: DEFAULT_RETRY_POLICY.backoff.capMs * scale };
}

/**
 * The naive baseline's retry wait: a random wait up to the official command-line client's
 * first wait, 0.15 s (api-facts), scaled like the intervals, the same after every 429. A naive
 * loop comes back soon and as often as it takes, rather than backing off for seconds.
 */
export function naiveBackoff(scale: number): { baseMs: number; capMs: number } {
  return { baseMs: 150 * scale, capMs: 150 * scale };
}

function interval(table: RateLimitTable, key: string): number {
  return table[key] ?? table["*"] ?? 0;
}

export type Operation = "create" | "refresh" | "diff" | "destroy";

/**
 * The shortest time an operation on `n` instances can take under `table` with `latencyMs` on
 * every response: calls of one endpoint one interval apart, and each chain of dependent calls
 * at least one response time per call.
 * - create: n creations; the last one's answer, then one read that shows it running;
 * - refresh, diff: the paged list, ceil(n/25) pages, each needing the previous page's token;
 * - destroy: n deletions.
 */
export function lowerBoundMs(op: Operation, n: number, table: RateLimitTable, latencyMs: number): number {
  switch (op) {
    case "create":
      return (n - 1) * interval(table, "PUT /api/v0/asks/{id}") + 2 * latencyMs;
    case "refresh":
    case "diff": {
      const pages = Math.ceil(n / PAGE_SIZE);
      return (pages - 1) * Math.max(interval(table, "GET /api/v1/instances"), latencyMs) + latencyMs;
    }
    case "destroy":
      return (n - 1) * interval(table, "DELETE /api/v0/instances/{id}") + latencyMs;
  }
}

/** The target for a refresh (and a diff) of `n` instances: list calls. */
export function refreshCallTarget(n: number): number {
  return Math.ceil(n / PAGE_SIZE) + 1;
}

/**
 * Waits out the interval of the slowest endpoint an operation calls (the paged list, else the
 * instance endpoints), as the pause between two pulumi commands does, so no operation starts
 * inside the previous one's last interval.
 */
export function idle(settings: BenchSettings, usesPagedList: boolean): Promise<void> {
  const pacing = clientPacing(settings.scale);
  const ms = usesPagedList ? pacing["GET /api/v1/instances/"] : pacing["PUT /api/v0/asks/{id}/"];
  return new Promise((resolve) => setTimeout(resolve, ms));
}
