/**
 * Rate limits like the service's (api-facts: Rate limits): a minimum interval between calls,
 * per endpoint and per key. A refused call gets 429 with a plain-text body and no
 * Retry-After header, and applies nothing; it does not restart the interval.
 */

/** Minimum interval in milliseconds between two calls of one endpoint with one key. */
export type RateLimitTable = Readonly<Record<string, number>>;
/** The simulator's rate limits: `off`, `realistic`, or a table of minimum intervals in ms. */
export type RateLimitSetting = "off" | "realistic" | RateLimitTable;

/**
 * The `realistic` table. Keys are `METHOD /route/{param}` without a trailing slash; `*` is the
 * interval of every endpoint not listed. The strictest endpoints allow about one call a second
 * (instance update, SSH keys, the paged instance list); instance creation is looser.
 */
export const REALISTIC_RATE_LIMITS: RateLimitTable = {
  "*": 100,
  "PUT /api/v0/instances/{id}": 1000,
  "GET /api/v1/instances": 1000,
  "GET /api/v0/ssh": 1000,
  "POST /api/v0/ssh": 1000,
  "PUT /api/v0/ssh/{id}": 1000,
  "DELETE /api/v0/ssh/{id}": 1000,
  "POST /api/v0/instances/{id}/ssh": 1000,
  "DELETE /api/v0/instances/{id}/ssh/{keyId}": 1000,
  "PUT /api/v0/instances/bid_price/{id}": 1000,
  "PUT /api/v0/instances/reboot/{id}": 1000,
  "PUT /api/v0/instances/recycle/{id}": 1000,
  "PUT /api/v0/instances/prepay/{id}": 1000,
  "PUT /api/v0/instances/update_template/{id}": 1000,
  "PUT /api/v0/subaccounts/regenerate_keys": 1000,
  "POST /api/v0/machines/maintenances/batch": 1000,
  "DELETE /api/v0/machines/maintenances/batch": 1000,
  "PUT /api/v0/asks/{id}": 200,
  "POST /api/v0/asks/{id}": 200,
  "GET /api/v0/instances": 200,
  "GET /api/v0/instances/{id}": 200,
  "GET /api/v0/instances/balance/{id}": 200,
  "DELETE /api/v0/instances/{id}": 200,
  "POST /run/get_workergroup_logs": 1000,
  // The run host's other worker-group call, paced as its logs call.
  "POST /run/get_workergroup_workers": 1000,
};

/** `PUT /api/v0/instances/:id/` -> `PUT /api/v0/instances/{id}`: the key of the tables above. */
export function routeKey(method: string, routeUrl: string): string {
  const path = routeUrl.replace(/:([A-Za-z_]+)/g, "{$1}").replace(/(.)\/$/, "$1");
  return `${method} ${path}`;
}

export function rateLimitBody(intervalMs: number): string {
  return `API requests too frequent: endpoint threshold=${intervalMs / 1000}`;
}

export class RateLimiter {
  private readonly table: RateLimitTable;
  private last = new Map<string, number>();

  constructor(
    setting: RateLimitSetting,
    private readonly now: () => number,
  ) {
    this.table = setting === "off" ? {} : setting === "realistic" ? REALISTIC_RATE_LIMITS : setting;
  }

  intervalOf(key: string): number {
    return this.table[key] ?? this.table["*"] ?? 0;
  }

  /** Records the call and returns 0 when allowed, else the interval that refused it. */
  admit(key: string, apiKey: string): number {
    const interval = this.intervalOf(key);
    if (interval <= 0) return 0;
    const slot = `${key}\n${apiKey}`;
    const t = this.now();
    const prev = this.last.get(slot);
    if (prev !== undefined && t - prev < interval) return interval;
    this.last.set(slot, t);
    return 0;
  }

  reset(): void {
    this.last.clear();
  }
}
