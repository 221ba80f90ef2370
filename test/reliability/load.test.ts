/**
 * Load: 100 instances created at once, as `pulumi up` does with its default parallelism
 * (`--parallel` is unbounded by default, so all 100 creates start together), against the
 * simulator's realistic per-endpoint rate limits, from the same offer filters on a market of
 * single-GPU offers (the simulator's bulk market): all succeed, each on an offer of its own (the
 * creates claim their offers in the process, as on the service two rentals of one offer cannot
 * both land), no 429 reaches the user, and the run reports the calls made and the calls the
 * service refused (from its request log).
 *
 * `npm test` scales every interval (the service's rate-limit table, the client's pacing
 * table, backoff and poll interval) by the fast profile's factor; `npm run test:faults` runs
 * them unscaled.
 */
import { REALISTIC_RATE_LIMITS, type RateLimitTable } from "pulumi-vastai/simulator";
import { DEFAULT_INTERVALS_MS, DEFAULT_INTERVAL_MS } from "../../provider/client/endpoints";
import { DEFAULT_RETRY_POLICY } from "../../provider/client/retry";
import { createVia, driven, type Entry } from "./support/drive";
import { profile } from "./support/profile";
import { print } from "./support/report";
import { Rig, startRig, type LoggedRequest } from "./support/rig";
import { SECRET_VALUES } from "./support/scenarios";

const INSTANCES = 100;
const p = profile();
const scale = (ms: number) => Math.max(1, Math.ceil(ms * p.loadScale));
const scaled = (table: Readonly<Record<string, number>>) => Object.fromEntries(Object.entries(table).map(([k, v]) => [k, scale(v)]));

let rig: Rig;
beforeAll(async () => {
  rig = await startRig(p, { apiKey: SECRET_VALUES.apiKey, bootMs: 0, marketOffers: 150, rateLimits: scaled(REALISTIC_RATE_LIMITS) as RateLimitTable });
  // The product's timing (pacing table, retry policy, 10 s status polls), scaled.
  rig.freshClient({
    pacing: { intervalsMs: scaled(DEFAULT_INTERVALS_MS), defaultIntervalMs: scale(DEFAULT_INTERVAL_MS) },
    maxAttempts: DEFAULT_RETRY_POLICY.maxAttempts,
    backoff: { baseMs: scale(DEFAULT_RETRY_POLICY.backoff.baseMs), capMs: scale(DEFAULT_RETRY_POLICY.backoff.capMs) },
    timeoutMs: scale(120_000),
  });
  rig.settings({ pollIntervalMs: scale(10_000) });
});
afterAll(() => rig?.close());

function byEndpoint(log: LoggedRequest[]): string {
  const rows = new Map<string, { made: number; refused: number }>();
  for (const r of log) {
    const key = `${r.method} ${r.path.replace(/\/$/, "").replace(/\/\d+(?=\/|$)/g, "/{id}")}`;
    const row = rows.get(key) ?? { made: 0, refused: 0 };
    row.made++;
    if (r.status === 429) row.refused++;
    rows.set(key, row);
  }
  return [...rows.entries()].map(([k, v]) => `  ${k.padEnd(34)} made ${String(v.made).padStart(4)}, refused ${v.refused}`).join("\n");
}

it(`creates ${INSTANCES} instances at once under realistic rate limits: all run on distinct offers, none duplicated, no 429 reaches the caller`, async () => {
  const instance = driven("instance");
  const started = Date.now();
  const results = await Promise.allSettled(
    Array.from({ length: INSTANCES }, (_, i) =>
      createVia(instance, { offer: { numGpus: 1, maxPricePerHour: 5 }, image: "nvidia/cuda:12.4.1-runtime-ubuntu22.04", label: `fleet-${i}` }),
    ),
  );
  const ms = Date.now() - started;
  const failures = results.filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => String((r.reason as Error).message));
  expect(failures).toEqual([]);
  const entries = results.map((r) => (r as PromiseFulfilledResult<Entry>).value);
  const live = (await rig.liveState()).instances;
  expect(live).toHaveLength(INSTANCES);
  expect(new Set(entries.map((e) => e.id))).toEqual(new Set(live.map((i) => String(i.id))));
  expect(entries.every((e) => e.outs.actualStatus === "running")).toBe(true);
  expect(new Set(entries.map((e) => e.outs.offerId)).size).toBe(INSTANCES);

  const log = await rig.requests();
  const refused = log.filter((r) => r.status === 429).length;
  print(
    `\nLoad (${p.name}: rate limits and client timing x${p.loadScale}; ${INSTANCES} creates at once, as Pulumi's unbounded default --parallel)\n` +
      `${INSTANCES} instances running in ${(ms / 1000).toFixed(1)} s; calls made ${log.length}, refused (429) ${refused}, ` +
      `failed creates 0\n${byEndpoint(log)}`,
  );
}, 240_000);
