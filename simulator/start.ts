/** `startSimulator`: state, controls and server wired together, listening on loopback. */
// First: without its optional peer dependencies the simulator stops here with a clear message.
import { OnstartRunner } from "./onstart-runner";
import "./peers";
import type { AddressInfo } from "net";
import type { SimContext } from "./context";
import { FaultRegistry } from "./http/faults";
import { RateLimiter } from "./http/rate-limit";
import { RequestLog } from "./http/request-log";
import { resolveOptions, type ResolvedOptions, type SimulatorOptions } from "./options";
import { initialState } from "./seed/initial-state";
import { DEFAULT_API_KEY, SEED } from "./seed/seed";
import { buildServer } from "./server";
import { Sleeper } from "./sleeper";
import { stateView, type StateView } from "./state-view";
import { ApiError } from "./http/errors";
import { StateFile, StateLockLost } from "./store/persistence";
import { Store } from "./store/store";
import type { SimData } from "./store/types";

/** A running simulator: its URL, key, state and controls; `close()` stops it. */
export interface Simulator {
  /** Management API base URL, e.g. http://127.0.0.1:18080 (no trailing slash). */
  url: string;
  /** Serverless API base URL (`POST {runUrl}/get_workergroup_logs`). */
  runUrl: string;
  /** API key of the default account. */
  apiKey: string;
  /** User id of the default account (SEED.user.id). */
  userId: number;
  /** The live objects, as `GET /_sim/state` returns them. */
  state(): StateView;
  close(): Promise<void>;
}

/** A key given explicitly replaces the default account's primary key of a loaded state. */
function applyApiKey(data: SimData, apiKey: string | undefined): string {
  const primary = data.apiKeys.find((k) => k.userId === SEED.user.id && k.primary && k.deletedAt === null);
  if (!primary) throw new Error("Simulator state has no active primary key for the default account");
  if (apiKey !== undefined) primary.key = apiKey;
  return primary.key;
}

/** Starts the API simulator on 127.0.0.1 (a free port unless `port` is given). */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const opts = resolveOptions(options);
  // A lost lock stops the simulator: nothing more is answered, so nothing more is acknowledged.
  const onLost: { stop?: () => void } = {};
  const stateFile = opts.stateFile
    ? await StateFile.open(opts.stateFile, {
        staleMs: opts.stateLockStaleMs,
        onLost: (error) => {
          onLost.stop?.();
          opts.onStateLockLost?.(error);
        },
      })
    : undefined;
  try {
    const sim = await serve(opts, stateFile);
    onLost.stop = () => void sim.close().catch(() => undefined);
    if (stateFile?.lost) onLost.stop();
    return sim;
  } catch (err) {
    // A simulator that did not start must not keep the state file from the next one.
    await stateFile?.close();
    throw err;
  }
}

async function serve(opts: ResolvedOptions, stateFile: StateFile | undefined): Promise<Simulator> {
  const loaded = stateFile?.load();
  const data = loaded ?? initialState(opts.apiKey ?? DEFAULT_API_KEY);
  const apiKey = applyApiKey(data, opts.apiKey);
  const store = new Store(data, opts.now);
  const sleeper = new Sleeper();
  const faults = new FaultRegistry();
  const limiter = new RateLimiter(opts.rateLimits, opts.now);
  const log = new RequestLog({ maxEntries: opts.logEntries, maxBodyBytes: opts.logBodyBytes, keepSecrets: opts.logSecrets });
  const ctx: SimContext = {
    store,
    now: opts.now,
    bootMs: opts.bootMs,
    marketOffers: opts.marketOffers,
    untrimmedStrings: opts.untrimmedStrings,
    faults,
    limiter,
    log,
    sleep: (ms) => sleeper.sleep(ms),
    reset: () => {
      store.replace(initialState(apiKey));
      faults.clear();
      log.clear();
      limiter.reset();
    },
  };
  let saved = -1;
  const persist = (): void => {
    if (stateFile && store.version !== saved) {
      try {
        stateFile.save(store.data);
      } catch (err) {
        // The change is not written: the request must not be acknowledged.
        if (err instanceof StateLockLost) throw new ApiError(503, { success: false, error: "state_lock_lost", msg: err.message });
        throw err;
      }
      saved = store.version;
    }
  };
  persist();
  const app = buildServer(ctx, {
    latencyMs: opts.latencyMs,
    persist,
    requestTimeoutMs: opts.requestTimeoutMs,
    keepAliveTimeoutMs: opts.keepAliveTimeoutMs,
    idleTimeoutMs: opts.idleTimeoutMs,
  });
  // Each instance's onstart as a process, matched to the instances after every answer (option runOnstart).
  const runner = opts.runOnstart ? new OnstartRunner(opts.runOnstart) : undefined;
  if (runner) app.addHook("onResponse", async () => runner.reconcile(store.data.instances));
  await app.listen({ port: opts.port, host: opts.host });
  const address = app.server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  let closing: Promise<void> | undefined;
  return {
    url,
    runUrl: `${url}/run`,
    apiKey,
    userId: SEED.user.id,
    state: () => stateView(ctx),
    close() {
      // Idempotent: a second close waits for the first.
      closing ??= (async () => {
        sleeper.cancelAll();
        runner?.close();
        await app.close();
        try {
          if (!stateFile?.lost) persist();
        } finally {
          await stateFile?.close();
        }
      })();
      return closing;
    },
  };
}
