/**
 * The retry policy, separate from pacing (pacing.ts) and from the transport: it only decides
 * whether a failed attempt is tried again and how long to wait first. got's own retry is off;
 * this is the only place that resends.
 */
import { BackoffOptions, DEFAULT_BACKOFF, backoffDelay } from "./backoff";
import type { RetryableFailure } from "./errors";

/** How the client retries: attempts, total deadline and capped exponential backoff. */
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
  /** Told before each wait, for logging. */
  onRetry?(error: unknown, attempt: number, delayMs: number): void;
  /** The error to throw when the deadline ran out before any attempt. */
  deadlineExceeded(): unknown;
}

/**
 * Whether a failure may be tried again: the error says so itself (errors.ts decides once, where
 * it is made, from the status, the request's idempotency and whether it was sent).
 */
export function isRetryable(error: unknown): error is RetryableFailure {
  return typeof error === "object" && error !== null && (error as Partial<RetryableFailure>).retryable === true;
}

/** Gives up on a retryable failure: it carries the attempts from now on, and is thrown as is. */
function giveUp(error: RetryableFailure, attempts: number): RetryableFailure {
  error.gaveUpAfter(attempts);
  return error;
}

export async function withRetry<T>(hooks: RetryHooks<T>, policy: RetryPolicy, clock: Clock): Promise<T> {
  const start = clock.now();
  const remaining = () => start + policy.deadlineMs - clock.now();
  let lastError: RetryableFailure | undefined = undefined;
  for (let n = 1; ; n++) {
    if (remaining() <= 0) throw lastError ? giveUp(lastError, n - 1) : hooks.deadlineExceeded();
    try {
      return await hooks.attempt(n, remaining());
    } catch (error) {
      if (!isRetryable(error)) throw error;
      lastError = error;
      if (n >= policy.maxAttempts) throw giveUp(error, n);
      // A Retry-After is a floor under the backoff (the pacer holds the whole lane as long).
      const delay = Math.max(backoffDelay(n, clock.random, policy.backoff), error.retryAfterMs ?? 0);
      // Waiting past the deadline would only end in a timeout: stop now with the real cause.
      if (delay >= remaining()) throw giveUp(error, n);
      hooks.onRetry?.(error, n, delay);
      await clock.sleep(delay);
    }
  }
}
