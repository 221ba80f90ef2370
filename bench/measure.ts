/** Running work P at a time, and what one operation cost: calls from the request log, and time. */
import type { LoggedRequest } from "./deps";
import type { SimProcess } from "./sim";

export interface Cost {
  /** Requests the service received (refused ones included). */
  calls: number;
  /** Requests that change something (any method but GET). */
  writes: number;
  /** Requests refused with 429. */
  refused: number;
  /** Refused requests by endpoint (`PUT /api/v0/asks/{id}/`), when there were any. */
  refusedBy?: Record<string, number>;
  /** Calls of the instance lists (paged and unpaged). */
  listCalls: number;
  /** Wall time of the operation, ms. */
  timeMs: number;
  /** Items whose operation failed. */
  failures: number;
  /** The first failure's message, if any. */
  firstError?: string;
}

/** Runs `work` for every item, at most `parallel` at once; counts failures instead of stopping. */
export async function pool<T>(items: readonly T[], parallel: number, work: (item: T, index: number) => Promise<void>) {
  let next = 0;
  let failures = 0;
  let firstError: string | undefined;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      try {
        await work(items[i], i);
      } catch (error) {
        failures++;
        firstError ??= (error as Error).message;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, worker));
  return { failures, firstError };
}

const LIST_PATH = /^\/api\/v[01]\/instances\/?$/;

export function costOf(log: readonly LoggedRequest[], timeMs: number, outcome: { failures: number; firstError?: string }): Cost {
  const refused = log.filter((r) => r.status === 429);
  const refusedBy: Record<string, number> = {};
  for (const r of refused) {
    const endpoint = `${r.method} ${r.path.replace(/\/\d+(?=\/|$)/g, "/{id}")}`;
    refusedBy[endpoint] = (refusedBy[endpoint] ?? 0) + 1;
  }
  return {
    calls: log.length,
    writes: log.filter((r) => r.method !== "GET").length,
    refused: refused.length,
    ...(refused.length > 0 ? { refusedBy } : {}),
    listCalls: log.filter((r) => r.method === "GET" && LIST_PATH.test(r.path)).length,
    timeMs,
    failures: outcome.failures,
    firstError: outcome.firstError,
  };
}

/** Clears the request log, runs the operation, and reads what it cost. */
export async function measure(sim: SimProcess, run: () => Promise<{ failures: number; firstError?: string }>): Promise<Cost> {
  await sim.clearLog();
  const started = performance.now();
  const outcome = await run();
  const timeMs = performance.now() - started;
  return costOf(await sim.log(), timeMs, outcome);
}
