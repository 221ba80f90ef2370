/**
 * The retry policy, separate from pacing (pacing.ts) and from the transport: it only decides
 * whether a failed attempt is tried again and how long to wait first. got's own retry is off;
 * this is the only place that resends.
 */
import { BackoffOptions, DEFAULT_BACKOFF, backoffDelay } from "./backoff";

export interface RetryPolicy {
  /** Attempts in all, including the first. */
  maxAttempts: number;
  /** Total time budget of one call across all attempts and waits, ms. */
  deadlineMs: number;
  backoff: BackoffOptions;
}

/** Four attempts (the official CLI makes three), within ten minutes in all. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 4,
  deadlineMs: 600_000,
  backoff: DEFAULT_BACKOFF,
};

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
  random(): number;
}

export interface RetryHooks<T> {
  /** Make attempt `n` (1-based); `remainingMs` is what is left of the deadline. */
  attempt(n: number, remainingMs: number): Promise<T>;
  /** Whether this failure may be tried again (the caller knows the request's idempotency). */
  isRetryable(error: unknown): boolean;
  /** The error to throw when giving up on a retryable failure after `attempts` attempts. */
  giveUp(error: unknown, attempts: number): unknown;
  /** Told before each wait, for logging. */
  onRetry?(error: unknown, attempt: number, delayMs: number): void;
  /** The error to throw when the deadline ran out before any attempt. */
  deadlineExceeded(): unknown;
}

export async function withRetry<T>(hooks: RetryHooks<T>, policy: RetryPolicy, clock: Clock): Promise<T> {
  const start = clock.now();
  const remaining = () => start + policy.deadlineMs - clock.now();
  let lastError: unknown = undefined;
  for (let n = 1; ; n++) {
    if (remaining() <= 0) throw n === 1 ? hooks.deadlineExceeded() : hooks.giveUp(lastError, n - 1);
    try {
      return await hooks.attempt(n, remaining());
    } catch (error) {
      lastError = error;
      if (!hooks.isRetryable(error)) throw error;
      if (n >= policy.maxAttempts) throw hooks.giveUp(error, n);
      const delay = backoffDelay(n, clock.random, policy.backoff);
      // Waiting past the deadline would only end in a timeout: stop now with the real cause.
      if (delay >= remaining()) throw hooks.giveUp(error, n);
      hooks.onRetry?.(error, n, delay);
      await clock.sleep(delay);
    }
  }
}
