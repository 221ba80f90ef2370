/**
 * Pacing to the limit: the default intervals sit just above the service's limits, and no two
 * sends of one endpoint go out closer than its interval, even when timers fire late.
 */
import { REALISTIC_RATE_LIMITS } from "pulumi-vastai/simulator";
import { createClient } from "../../provider/client";
import { DEFAULT_INTERVALS_MS, ENDPOINTS, endpointKey } from "../../provider/client/endpoints";
import { Pacer } from "../../provider/client/pacing";

const KEY = "perf-pacing-key-123";
const EP = "PUT /api/v0/asks/{id}/";
const defaults = { intervalsMs: { [EP]: 100 }, defaultIntervalMs: 100 };

let seq = 0;
/** A fresh scope per test: the registry is process-wide on purpose. */
const url = () => `http://perf-pacing-${++seq}.invalid`;

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, set: (v: number) => (t = v) };
}

/** The simulator's rate-limit key of an endpoint: no trailing slash, run endpoints under /run. */
function limitOf(e: (typeof ENDPOINTS)[keyof typeof ENDPOINTS]): number {
  const route = (e.base === "run" ? `/run${e.route}` : e.route).replace(/(.)\/$/, "$1").replace("{machine_id}", "{id}");
  return REALISTIC_RATE_LIMITS[`${e.method} ${route}`] ?? REALISTIC_RATE_LIMITS["*"];
}

describe("default intervals", () => {
  it("pace every endpoint within 15% of the service's realistic limit, so a burst runs at the service's pace", () => {
    const far = Object.values(ENDPOINTS)
      .map((e) => ({ endpoint: endpointKey(e), pacedMs: DEFAULT_INTERVALS_MS[endpointKey(e)], limitMs: limitOf(e) }))
      .filter((x) => x.pacedMs > x.limitMs * 1.15);
    expect(far).toEqual([]);
  });
});

describe("dispatch spacing", () => {
  it("gives a caller that wakes on time no extra wait", () => {
    const c = clock();
    const p = new Pacer(url(), KEY, defaults, {}, c.now);
    const t0 = c.now();
    const waits = [p.reserve(EP)!, p.reserve(EP)!];
    expect(waits).toEqual([0, 100]);
    expect(p.dispatch(EP, t0)).toBe(0);
    c.set(t0 + 100);
    expect(p.dispatch(EP, t0 + 100)).toBe(0);
  });

  it("sends the next call one interval after a caller that woke late, not at its own slot", () => {
    const c = clock();
    const p = new Pacer(url(), KEY, defaults, {}, c.now);
    const t0 = c.now();
    p.reserve(EP);
    p.reserve(EP);
    c.set(t0 + 30); // the first caller's timer fired 30 ms late
    expect(p.dispatch(EP, t0)).toBe(0);
    c.set(t0 + 100);
    expect(p.dispatch(EP, t0 + 100)).toBe(30);
  });

  it("spreads callers released together by a stalled event loop one interval apart", () => {
    const c = clock();
    const p = new Pacer(url(), KEY, defaults, {}, c.now);
    const t0 = c.now();
    const slots = [0, 1, 2].map(() => t0 + p.reserve(EP)!);
    c.set(t0 + 400);
    expect(slots.map((s) => p.dispatch(EP, s))).toEqual([0, 100, 200]);
    // A newcomer queues behind them instead of going out at once.
    expect(p.reserve(EP)).toBe(300);
  });

  it("adds nothing when pacing is off", () => {
    const c = clock();
    const p = new Pacer(url(), KEY, defaults, false, c.now);
    expect([p.dispatch(EP, c.now()), p.dispatch(EP, c.now())]).toEqual([0, 0]);
  });

  it("keeps the client's sends an interval apart when a sleep overshoots", async () => {
    let t = 5_000_000;
    const sentAt: number[] = [];
    let first = true;
    const client = createClient({
      apiKey: KEY,
      apiUrl: url(),
      pacing: { intervalsMs: { "PUT /api/v0/instances/{id}/": 100 } },
      now: () => t,
      // The first sleep overshoots by 60 ms, as a timer on a busy event loop does.
      sleep: async (ms) => {
        t += ms + (first ? 60 : 0);
        first = false;
      },
      transport: async () => {
        sentAt.push(t);
        return { status: 200, body: JSON.stringify({ success: true }), contentType: "application/json" };
      },
    });
    await Promise.all([1, 2, 3].map((n) => client.instances.setLabel(1, `l${n}`)));
    const gaps = sentAt.slice(1).map((s, i) => s - sentAt[i]);
    expect(gaps.every((g) => g >= 100)).toBe(true);
    expect(sentAt).toHaveLength(3);
  });
});
