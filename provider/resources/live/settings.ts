/** Numeric provider settings read from stack config (`vastai:<name>`) or the environment. */
import { setting } from "../../context";

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

/** How long one listing of live objects serves other reads, ms (default 5000). */
export function liveCacheTtlMs(): number {
  return numberSetting("liveCacheTtlMs", "VASTAI_LIVE_CACHE_TTL_MS", 5000);
}
