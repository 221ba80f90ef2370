/**
 * Timing of the reliability runs. `npm test` uses the fast profile; `npm run test:faults`
 * sets RELIABILITY_PROFILE=full, which faults every endpoint an operation touches (not only
 * the one that carries its effect) and runs the load test against the unscaled rate limits.
 *
 * The slow-response fault holds a request for `slowDelayMs`, longer than the client timeout,
 * and the service then applies it. The provider's lost-response look-ups span
 * `pollIntervalMs * (lostResponseLookups - 1)` after the timeout, which covers that delay with
 * room to spare on a loaded machine, as in production three look-ups 10 s apart follow a
 * 120 s client timeout that already exceeds the service's gateway timeout.
 */
export interface Profile {
  name: "fast" | "full";
  /** Per-request client timeout, ms. */
  clientTimeoutMs: number;
  /** How long the slow-response fault holds a request before the service acts on it, ms. */
  slowDelayMs: number;
  /** Instance status polls and lost-response lookups, ms apart. */
  pollIntervalMs: number;
  /** Lookups after a lost create response before concluding nothing was made. */
  lostResponseLookups: number;
  /** Backoff between retries, ms. */
  backoff: { baseMs: number; capMs: number };
  /** Client attempts per call (the product default is 4). */
  maxAttempts: number;
  /** Fault every endpoint an operation touches, not only the one that carries its effect. */
  allEndpoints: boolean;
  /** Factor applied to the realistic rate-limit table (service) and the client's pacing table in the load test. */
  loadScale: number;
}

const FAST: Profile = {
  name: "fast",
  clientTimeoutMs: 150,
  slowDelayMs: 300,
  pollIntervalMs: 50,
  lostResponseLookups: 6,
  backoff: { baseMs: 1, capMs: 5 },
  maxAttempts: 4,
  allEndpoints: false,
  loadScale: 0.1,
};

const FULL: Profile = {
  ...FAST,
  name: "full",
  clientTimeoutMs: 250,
  slowDelayMs: 500,
  pollIntervalMs: 150,
  allEndpoints: true,
  loadScale: 1,
};

export function profile(): Profile {
  return process.env.RELIABILITY_PROFILE === "full" ? FULL : FAST;
}

export function describeProfile(p: Profile): string {
  return (
    `profile ${p.name}: client timeout ${p.clientTimeoutMs} ms, slow response ${p.slowDelayMs} ms, ` +
    `${p.maxAttempts} attempts, backoff ${p.backoff.baseMs}-${p.backoff.capMs} ms, ` +
    `lost-response lookups ${p.lostResponseLookups} x ${p.pollIntervalMs} ms`
  );
}
