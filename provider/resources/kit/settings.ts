/**
 * Settings and timing of the providers. Waits have their own deadlines (Pulumi's
 * customTimeouts do not reach dynamic providers); intervals are settings so tests and contract
 * runs through the plugin can poll fast. Each is read from stack config (`vastai:<name>`),
 * explicit settings of the process, or the environment (provider/context.ts `setting`).
 */
import { setting } from "../../context";

export interface Timing {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** The clock and sleep the providers use; tests may replace them (`setTiming`). */
let timing: Timing = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export function currentTiming(): Timing {
  return timing;
}

/** Replace the clock and sleep (tests); returns the previous ones. */
export function setTiming(next: Partial<Timing>): Timing {
  const previous = timing;
  timing = { ...timing, ...next };
  return previous;
}

/**
 * A non-negative number of milliseconds (or other unit) from `vastai:<name>` or `envName`,
 * else `fallback`. A value that is not a number is an error naming the setting.
 */
export function numberSetting(name: string, envName: string, fallback: number): number {
  const raw = setting(name, envName);
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) {
    throw new Error(`setting vastai:${name} (or ${envName}) must be a number >= 0, got "${raw}"`);
  }
  return value;
}

/**
 * How long one listing of live objects serves other reads, ms (default 120000). A plugin
 * process lives for one Pulumi operation: the listing a refresh or the first diffs make serves
 * the rest of a large `up` instead of expiring while its creates run (writes of the process
 * itself are never served stale, see kit/live).
 */
export function liveCacheTtlMs(): number {
  return numberSetting("liveCacheTtlMs", "VASTAI_LIVE_CACHE_TTL_MS", 120_000);
}

/** Interval between status polls while waiting for an object, ms (default 10000, as the vendor suggests). */
export function pollIntervalMs(): number {
  return numberSetting("pollIntervalMs", "VASTAI_POLL_INTERVAL_MS", 10_000);
}

/** Look-ups after a lost create response before concluding nothing was created (default 3). */
export function lostResponseLookups(): number {
  return Math.max(1, Math.floor(numberSetting("lostResponseLookups", "VASTAI_LOST_RESPONSE_LOOKUPS", 3)));
}
