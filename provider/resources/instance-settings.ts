/**
 * Timing of the Instance provider. Waits have their own deadlines (Pulumi's customTimeouts do
 * not reach dynamic providers); the poll interval is a setting so tests and contract runs
 * through the plugin can poll fast: stack config `vastai:pollIntervalMs` or
 * `VASTAI_POLL_INTERVAL_MS` (default 10000, as the vendor suggests).
 */
import { numberSetting } from "./live/settings";

export interface Timing {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** The clock and sleep the provider uses; tests may replace them (`setInstanceTiming`). */
let timing: Timing = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export function instanceTiming(): Timing {
  return timing;
}

/** Replace the clock and sleep (tests); returns the previous ones. */
export function setInstanceTiming(next: Partial<Timing>): Timing {
  const previous = timing;
  timing = { ...timing, ...next };
  return previous;
}

/** Interval between status polls while waiting for an instance, ms. */
export function pollIntervalMs(): number {
  return numberSetting("pollIntervalMs", "VASTAI_POLL_INTERVAL_MS", 10_000);
}

/** Status lookups after a lost create response before concluding nothing was created. */
export function lostResponseLookups(): number {
  return Math.max(1, Math.floor(numberSetting("lostResponseLookups", "VASTAI_LOST_RESPONSE_LOOKUPS", 3)));
}
