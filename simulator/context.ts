/** What every route module gets: the state, the clock and the test controls. */
import type { FaultRegistry } from "./http/faults";
import type { RateLimiter } from "./http/rate-limit";
import type { RequestLog } from "./http/request-log";
import type { Store } from "./store/store";
import type { ApiKeyRecord, UserRecord } from "./store/types";

export interface SimContext {
  store: Store;
  /** Simulator clock, epoch ms (injectable so tests need not sleep). */
  now: () => number;
  /** Milliseconds from creation to the end of an instance's boot. */
  bootMs: number;
  /** Offers of the bulk market shown beside the fixed catalogue (seed/offers.ts). */
  marketOffers: number;
  /** Rows carry a newline after every string value (options.ts `untrimmedStrings`). */
  untrimmedStrings?: boolean;
  faults: FaultRegistry;
  limiter: RateLimiter;
  log: RequestLog;
  /** Waits, but returns at once when the simulator closes. */
  sleep(ms: number): Promise<void>;
  /** Back to the seed state; faults, request log and rate-limit history cleared. */
  reset(): void;
}

/** The caller, resolved from the API key. */
export interface Account {
  user: UserRecord;
  key: ApiKeyRecord;
  /** Set when the caller used an instance's own key (`CONTAINER_API_KEY`): the instance id. */
  instanceId?: number;
}

export type AuthMode = "bearer" | "bearer-or-body" | "none";

/** Per-request bookkeeping kept on `request.sim`. */
export interface RequestSim {
  /** An API call (not a `/_sim` control call). */
  api: boolean;
  entry: import("./http/request-log").LoggedRequest | null;
  account: Account | null;
  dropAfter: boolean;
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** How the caller's key is read; `none` for control routes. Default `bearer`. */
    auth?: AuthMode;
    /** Error body shape of auth failures: `{error_msg}` for the serverless logs endpoint. */
    errorShape?: "error_msg";
  }
  interface FastifyRequest {
    sim: RequestSim;
  }
}
