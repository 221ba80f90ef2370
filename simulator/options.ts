/** Options of `startSimulator` and their defaults. */
import { DEFAULT_API_KEY } from "./seed/seed";
import { MAX_MARKET_OFFERS } from "./seed/offers";
import type { RateLimitSetting } from "./http/rate-limit";

/** Options of `startSimulator` (and of the `vastai-simulator` command). */
export interface SimulatorOptions {
  /** TCP port; 0 (default) picks a free one. */
  port?: number;
  /** Loopback only: `127.0.0.1` (default), `::1` or `localhost`. Anything else is refused. */
  host?: "127.0.0.1" | "::1" | "localhost";
  /** API key of the default account (default `SEED.apiKey`, "sim-default-api-key"). */
  apiKey?: string;
  /** Milliseconds from instance creation to `running` (default 200; 0 = running on the first read). */
  bootMs?: number;
  /**
   * Single-GPU offers of a bulk market shown beside the fixed catalogue of 24 (default 0, at
   * most 2000): enough distinct offers for a stack that rents many instances at once.
   */
  marketOffers?: number;
  /** `off` (default), `realistic` (REALISTIC_RATE_LIMITS), or a table of minimum intervals in ms. */
  rateLimits?: RateLimitSetting;
  /** Fixed delay added to every API response, ms (default 0). */
  latencyMs?: number;
  /** Keep state in this JSON file across restarts (written atomically after each change). */
  stateFile?: string;
  /** Clock in epoch ms (default Date.now); inject one to step instance boots without sleeping. */
  now?: () => number;
  /**
   * Ms a client has to send a whole request, headers and body (default 30000); a connection
   * still sending after that gets 408 and is closed, so a slow client cannot hold it forever.
   */
  requestTimeoutMs?: number;
  /** Ms an idle keep-alive connection stays open after a response (default 5000). */
  keepAliveTimeoutMs?: number;
  /** Ms of socket inactivity after which a connection is closed, 0 = never (default 120000). */
  idleTimeoutMs?: number;
  /** Bytes of a request body kept in the request log (default 16384); the rest is cut off. */
  logBodyBytes?: number;
  /** Requests kept in the request log; the oldest go first (default 10000). */
  logEntries?: number;
  /**
   * Keep secret values (keys, passwords, env values, private keys) in the request log instead
   * of `[redacted]` (default false). For test suites that check what a client sends; never
   * for a simulator other users of the machine can reach.
   */
  logSecrets?: boolean;
  /**
   * Ms after which the state file's lock, not refreshed, counts as left by a dead simulator and
   * may be taken over (default 10000, at least 2000). A simulator paused longer than this
   * (SIGSTOP, a suspended laptop) may lose its lock to another: it then stops writing.
   */
  stateLockStaleMs?: number;
  /**
   * Called once when the state file's lock was lost (another simulator took the file over).
   * The simulator has then stopped answering and writes nothing more; the default only stops it.
   */
  onStateLockLost?: (error: Error) => void;
  /**
   * Serve instance and offer rows with a newline after every string value, as the live service
   * is seen to (api-facts: Live quirks; its own client strips them). Default false.
   */
  untrimmedStrings?: boolean;
  /**
   * Run each instance's `onstart` as a real process on this machine (default false), so an
   * in-machine guard acts on its own: see onstart-runner.ts. `{env}` adds environment
   * variables (e.g. a fast guard tick). Only for tests that write those scripts.
   */
  runOnstart?: boolean | import("./onstart-runner").RunOnstartOptions;
}

export interface ResolvedOptions {
  port: number;
  host: string;
  apiKey: string | undefined;
  bootMs: number;
  marketOffers: number;
  rateLimits: RateLimitSetting;
  latencyMs: number;
  stateFile: string | undefined;
  now: () => number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  idleTimeoutMs: number;
  logBodyBytes: number;
  logEntries: number;
  logSecrets: boolean;
  stateLockStaleMs: number;
  onStateLockLost: ((error: Error) => void) | undefined;
  untrimmedStrings: boolean;
  runOnstart: import("./onstart-runner").RunOnstartOptions | undefined;
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

function nonNegative(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) throw new Error(`Simulator option ${name} must be a number >= 0 (got ${value})`);
  return value;
}

// A zero here would mean "no limit", which is what these options exist to prevent.
function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`Simulator option ${name} must be a whole number >= 1 (got ${value})`);
  return value;
}

function marketSize(value: number | undefined): number {
  if (value === undefined) return 0;
  if (!Number.isInteger(value) || value < 0 || value > MAX_MARKET_OFFERS) {
    throw new Error(`Simulator option marketOffers must be a whole number from 0 to ${MAX_MARKET_OFFERS} (got ${value})`);
  }
  return value;
}

export function resolveOptions(opts: SimulatorOptions = {}): ResolvedOptions {
  const host = opts.host ?? "127.0.0.1";
  if (!LOOPBACK.has(host)) {
    throw new Error(`Simulator option host must be a loopback address (127.0.0.1, ::1 or localhost), got "${host}"`);
  }
  const port = nonNegative("port", opts.port, 0);
  if (!Number.isInteger(port) || port > 65535) throw new Error(`Simulator option port must be an integer 0-65535 (got ${port})`);
  if (opts.apiKey !== undefined && !/^\S{8,}$/.test(opts.apiKey)) {
    throw new Error("Simulator option apiKey must be at least 8 characters without spaces");
  }
  return {
    port,
    // "localhost" may resolve to several addresses; one loopback address keeps the URL exact.
    host: host === "localhost" ? "127.0.0.1" : host,
    apiKey: opts.apiKey,
    bootMs: nonNegative("bootMs", opts.bootMs, 200),
    marketOffers: marketSize(opts.marketOffers),
    rateLimits: opts.rateLimits ?? "off",
    latencyMs: nonNegative("latencyMs", opts.latencyMs, 0),
    stateFile: opts.stateFile,
    now: opts.now ?? Date.now,
    requestTimeoutMs: positive("requestTimeoutMs", opts.requestTimeoutMs, 30_000),
    keepAliveTimeoutMs: positive("keepAliveTimeoutMs", opts.keepAliveTimeoutMs, 5_000),
    idleTimeoutMs: nonNegative("idleTimeoutMs", opts.idleTimeoutMs, 120_000),
    logBodyBytes: positive("logBodyBytes", opts.logBodyBytes, 16 * 1024),
    logEntries: positive("logEntries", opts.logEntries, 10_000),
    logSecrets: opts.logSecrets ?? false,
    stateLockStaleMs: Math.max(2000, positive("stateLockStaleMs", opts.stateLockStaleMs, 10_000)),
    onStateLockLost: opts.onStateLockLost,
    untrimmedStrings: opts.untrimmedStrings ?? false,
    runOnstart: opts.runOnstart === true ? {} : opts.runOnstart || undefined,
  };
}

export { DEFAULT_API_KEY };
