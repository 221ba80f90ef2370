/**
 * Capped exponential backoff with full jitter: attempt n (1-based, the attempt that just
 * failed) waits a uniformly random time in [0, min(capMs, baseMs * 2^(n-1))). Full jitter
 * spreads clients that failed together, so they do not come back together.
 */

export interface BackoffOptions {
  /** Ceiling of the first wait, ms. */
  baseMs: number;
  /** Largest possible wait, ms. */
  capMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 500, capMs: 20_000 };

/** Upper bound of the wait after failed attempt `attempt` (1-based). */
export function backoffCeiling(attempt: number, options: BackoffOptions = DEFAULT_BACKOFF): number {
  if (!Number.isInteger(attempt) || attempt < 1) {
    throw new RangeError(`attempt must be an integer >= 1, got ${attempt}`);
  }
  // 2^(attempt-1) overflows to Infinity for huge attempts; Math.min keeps the cap.
  return Math.min(options.capMs, options.baseMs * 2 ** (attempt - 1));
}

/**
 * The wait after failed attempt `attempt`, in whole ms. `random` returns a number in [0, 1)
 * (injectable so tests are deterministic).
 */
export function backoffDelay(
  attempt: number,
  random: () => number = Math.random,
  options: BackoffOptions = DEFAULT_BACKOFF,
): number {
  const ceiling = backoffCeiling(attempt, options);
  const r = Math.min(Math.max(random(), 0), 1);
  return Math.min(Math.floor(r * ceiling), Math.max(ceiling - 1, 0));
}
