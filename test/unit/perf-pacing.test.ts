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

  it("keeps the client's sends an interval apart when a timer fires late", async () => {
    const time = virtualTime(5_000_000, 60);
    const sentAt: number[] = [];
    const client = createClient({
      apiKey: KEY,
      apiUrl: url(),
      pacing: { intervalsMs: { "PUT /api/v0/instances/{id}/": 100 } },
      now: time.now,
      sleep: time.sleep,
      transport: async () => {
        sentAt.push(time.now());
        return { status: 200, body: JSON.stringify({ success: true }), contentType: "application/json" };
      },
    });
    await time.run(Promise.all([1, 2, 3].map((n) => client.instances.setLabel(1, `l${n}`))));
    const gaps = sentAt.slice(1).map((s, i) => s - sentAt[i]);
    expect(sentAt).toHaveLength(3);
    expect(gaps.every((g) => g >= 100)).toBe(true);
  });
});

/**
 * A clock that moves only from one timer to the next; the first timer fires `lateMs` late,
 * as a timer on a busy event loop does.
 */
function virtualTime(start: number, lateMs: number) {
  let t = start;
  let first = true;
  const timers: Array<{ at: number; wake: () => void }> = [];
  return {
    now: () => t,
    sleep: (ms: number) =>
      new Promise<void>((wake) => {
        timers.push({ at: t + ms + (first ? lateMs : 0), wake });
        first = false;
      }),
    async run<T>(work: Promise<T>): Promise<T> {
      let done = false;
      const result = work.finally(() => (done = true));
      for (;;) {
        await new Promise((r) => setImmediate(r));
        if (done) return result;
        timers.sort((a, b) => a.at - b.at);
        const next = timers.shift();
        if (!next) return result;
        t = Math.max(t, next.at);
        next.wake();
      }
    },
  };
}

describe("spacing from responses", () => {
  it("keeps the next send an interval after a first call whose response came late", () => {
    const c = clock();
    const p = new Pacer(url(), KEY, { intervalsMs: { [EP]: 110 }, defaultIntervalMs: 110 }, {}, c.now);
    const t0 = c.now();
    p.reserve(EP);
    p.dispatch(EP, t0);
    // A cold first call: the service may have admitted it just before answering, 80 ms on.
    p.settled(EP, t0, t0 + 80);
    c.set(t0 + 110);
    // Its slot would be now; it waits until 110 ms after t0 + 80, less the 10 ms margin.
    const wait = p.reserve(EP)!;
    expect(wait).toBe(80 - 10);
    expect(p.dispatch(EP, c.now() + wait)).toBe(0);
  });

  it("adds nothing for responses no slower than the fastest seen beyond the margin", () => {
    const c = clock();
    const p = new Pacer(url(), KEY, { intervalsMs: { [EP]: 110 }, defaultIntervalMs: 110 }, {}, c.now);
    let t = c.now();
    p.dispatch(EP, t);
    p.settled(EP, t, t + 5);
    for (let i = 0; i < 3; i++) {
      t += 110;
      c.set(t);
      expect(p.dispatch(EP, t)).toBe(0);
      p.settled(EP, t, t + 5 + 8); // 8 ms slower than the fastest: within the 10 ms margin
    }
  });

  it("moves the next send when a later response reveals a stall", () => {
    const c = clock();
    const p = new Pacer(url(), KEY, { intervalsMs: { [EP]: 110 }, defaultIntervalMs: 110 }, {}, c.now);
    const t = c.now();
    p.dispatch(EP, t);
    p.settled(EP, t, t + 5);
    c.set(t + 110);
    p.dispatch(EP, t + 110);
    p.settled(EP, t + 110, t + 110 + 65); // 60 ms slower than the fastest
    c.set(t + 220);
    expect(p.dispatch(EP, t + 220)).toBe(60 - 10);
  });
});

describe("spacing from responses, first call of an endpoint", () => {
  it("judges it by the fastest round trip of the service when the endpoint has none yet", () => {
    const c = clock();
    const p = new Pacer(url(), KEY, { intervalsMs: { [EP]: 110 }, defaultIntervalMs: 110 }, {}, c.now);
    const t = c.now();
    p.dispatch("GET /other/", t);
    p.settled("GET /other/", t, t + 25);
    p.dispatch(EP, t + 50);
    p.settled(EP, t + 50, t + 50 + 27); // as fast as the service's fastest: admitted on time
    c.set(t + 160);
    expect(p.reserve(EP)).toBe(0);
  });
});
