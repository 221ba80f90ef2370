/**
 * Pacing to the limit: the default intervals sit just above the service's limits; calls are
 * reserved one interval apart, and no two sends of one endpoint go out closer than its spacing
 * (the limit plus half the margin), even when timers fire late.
 */
import { REALISTIC_RATE_LIMITS } from "pulumi-vastai/simulator";
import { createClient } from "../../provider/client";
import { DEFAULT_INTERVALS_MS, ENDPOINTS, endpointKey } from "../../provider/client/endpoints";
import { PACING_MARGIN, Pacer } from "../../provider/client/pacing";

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

  it("spaces the interval less half the margin (98.5 ms of 100) from the 97.1 ms limit", () => {
    const p = new Pacer(url(), KEY, defaults, {}, Date.now);
    const limit = 100 / (1 + PACING_MARGIN);
    expect(p.spacingFor(EP)).toBeCloseTo(limit + (100 - limit) / 2, 9);
  });

  it("sends the next call the spacing after a caller that woke late, not at its own slot", () => {
    const c = clock();
    const p = new Pacer(url(), KEY, defaults, {}, c.now);
    const t0 = c.now();
    p.reserve(EP);
    p.reserve(EP);
    c.set(t0 + 30); // the first caller's timer fired 30 ms late
    expect(p.dispatch(EP, t0)).toBe(0);
    c.set(t0 + 100);
    expect(p.dispatch(EP, t0 + 100)).toBeCloseTo(t0 + 30 + p.spacingFor(EP) - (t0 + 100), 9);
  });

  it("28.5 catches up after a late caller: the calls behind it go back to their slots, never closer than the spacing", () => {
    const c = clock();
    const p = new Pacer(url(), KEY, defaults, {}, c.now);
    const t0 = c.now();
    const slots = Array.from({ length: 40 }, () => t0 + p.reserve(EP)!);
    const sends: number[] = [];
    for (const [i, slot] of slots.entries()) {
      // The first caller's timer fires 30 ms late; every other caller wakes at its slot.
      let t = Math.max(slot + (i === 0 ? 30 : 0), c.now());
      c.set(t);
      for (let more = p.dispatch(EP, t); more > 0; more = p.dispatch(EP, t)) c.set((t += more));
      sends.push(t);
    }
    const gaps = sends.slice(1).map((s, i) => s - sends[i]);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(p.spacingFor(EP) - 1e-9);
    // The 30 ms are made up 1.5 ms a call: the last calls go at their own slots again.
    expect(sends[sends.length - 1]).toBe(slots[slots.length - 1]);
  });

  it("spreads callers released together by a stalled event loop the spacing apart", () => {
    const c = clock();
    const p = new Pacer(url(), KEY, defaults, {}, c.now);
    const gap = p.spacingFor(EP);
    const t0 = c.now();
    const slots = [0, 1, 2].map(() => t0 + p.reserve(EP)!);
    c.set(t0 + 400);
    // The first goes; the others wait, and each goes the spacing after the one before.
    const waits = slots.map((s) => p.dispatch(EP, s));
    expect(waits[0]).toBe(0);
    expect(waits[1]).toBeCloseTo(gap, 6);
    expect(waits[2]).toBeCloseTo(gap, 6);
    c.set(t0 + 400 + gap);
    expect(p.dispatch(EP, t0 + 400 + gap)).toBe(0);
    expect(p.dispatch(EP, t0 + 400 + gap)).toBeCloseTo(gap, 6);
    c.set(t0 + 400 + 2 * gap);
    expect(p.dispatch(EP, t0 + 400 + 2 * gap)).toBe(0);
    // A newcomer queues behind them instead of going out at once.
    expect(p.reserve(EP)).toBeCloseTo(gap, 9);
  });

  it("adds nothing when pacing is off", () => {
    const c = clock();
    const p = new Pacer(url(), KEY, defaults, false, c.now);
    expect([p.dispatch(EP, c.now()), p.dispatch(EP, c.now())]).toEqual([0, 0]);
  });

  it("keeps the client's sends the spacing apart when a timer fires late", async () => {
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
    // The 100 ms interval is the 97.1 ms limit plus the margin: sends keep the limit plus half of it.
    expect(gaps.every((g) => g >= 100 - (100 - 100 / (1 + PACING_MARGIN)) / 2)).toBe(true);
  });
});

describe("rateLimitScale", () => {
  it("multiplies every interval, overrides included", () => {
    const c = clock();
    const p = new Pacer(url(), KEY, defaults, { intervalsMs: { "GET /x/": 30 } }, c.now, { rateLimitScale: 2 });
    expect([p.intervalFor(EP), p.intervalFor("GET /x/")]).toEqual([200, 60]);
  });

  it("doubles the spacing of the client's sends at 2", async () => {
    const gapsAt = async (rateLimitScale: number) => {
      const time = virtualTime(5_000_000, 0);
      const sentAt: number[] = [];
      const client = createClient({
        apiKey: KEY,
        apiUrl: url(),
        pacing: { intervalsMs: { "PUT /api/v0/instances/{id}/": 100 } },
        rateLimitScale,
        now: time.now,
        sleep: time.sleep,
        transport: async () => {
          sentAt.push(time.now());
          return { status: 200, body: JSON.stringify({ success: true }), contentType: "application/json" };
        },
      });
      await time.run(Promise.all([1, 2, 3, 4].map((n) => client.instances.setLabel(1, `l${n}`))));
      return sentAt.slice(1).map((s, i) => s - sentAt[i]);
    };
    expect(await gapsAt(1)).toEqual([100, 100, 100]);
    expect(await gapsAt(2)).toEqual([200, 200, 200]);
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

/** One call as the request core makes it: gate, dispatch at `sentAt`, answer at `answeredAt`. */
function call(p: Pacer, endpoint: string, sentAt: number, answeredAt: number): void {
  p.gate(endpoint);
  p.dispatch(endpoint, sentAt);
  p.settled(endpoint, sentAt, answeredAt);
  p.answered(endpoint);
}

const paced110 = () => {
  const c = clock();
  const p = new Pacer(url(), KEY, { intervalsMs: { [EP]: 110 }, defaultIntervalMs: 110 }, {}, c.now);
  // Past the process's first answers (slow ones of another endpoint), after which the fastest
  // round trip is trusted.
  for (let i = 0; i < 4; i++) call(p, "GET /warm-up/", c.now(), c.now() + 1000);
  return { c, p };
};

describe("the first call of an endpoint", () => {
  it("goes at once, and the next call of that endpoint waits for its answer", async () => {
    const { p } = paced110();
    expect(p.gate(EP)).toBeUndefined();
    const gate = p.gate(EP);
    expect(gate).toBeInstanceOf(Promise);
    expect(p.gate("GET /other/")).toBeUndefined(); // another endpoint has its own first call
    let opened = false;
    void gate!.then(() => (opened = true));
    await Promise.resolve();
    expect(opened).toBe(false);
    p.answered(EP);
    await gate;
    expect(p.gate(EP)).toBeUndefined();
  });

  it("counts as admitted when it answered: the next send keeps the spacing from the answer", () => {
    const { c, p } = paced110();
    const t0 = c.now();
    p.reserve(EP);
    call(p, EP, t0, t0 + 80); // a cold first call, answered 80 ms on
    c.set(t0 + 110);
    // Its slot would be now; it waits until the spacing after t0 + 80.
    const wait = p.reserve(EP)!;
    expect(wait).toBeCloseTo(80 - (110 - p.spacingFor(EP)), 9);
    expect(p.dispatch(EP, c.now() + wait)).toBe(0);
  });

  it("opens for nothing when pacing is off", () => {
    const p = new Pacer(url(), KEY, defaults, false, Date.now);
    expect([p.gate(EP), p.gate(EP)]).toEqual([undefined, undefined]);
  });
});

describe("spacing from later responses", () => {
  it("adds nothing for responses no slower than the fastest seen beyond the tolerance", () => {
    const { c, p } = paced110();
    let t = c.now();
    call(p, "GET /other/", t - 350, t - 345); // the service's fastest round trip: 5 ms
    call(p, EP, t - 300, t - 295); // the endpoint's first call (counted at its answer), long ago
    for (let i = 0; i < 3; i++) {
      t += 110;
      c.set(t);
      expect(p.dispatch(EP, t)).toBe(0);
      p.settled(EP, t, t + 5 + 1); // 1 ms slower than the fastest: within the tolerance (half the 3% margin, 1.6 ms)
    }
  });

  it("moves the next send when a later response reveals a stall", () => {
    const { c, p } = paced110();
    const t = c.now();
    call(p, EP, t, t + 5);
    c.set(t + 110);
    p.dispatch(EP, t + 110);
    p.settled(EP, t + 110, t + 110 + 65); // 60 ms slower than the fastest
    c.set(t + 220);
    // Counted up to 60 ms late: the next keeps the spacing from then.
    expect(p.dispatch(EP, t + 220)).toBeCloseTo(t + 110 + 60 + p.spacingFor(EP) - (t + 220), 9);
  });

  it("judges a response by the fastest round trip of any endpoint of the service", () => {
    const { c, p } = paced110();
    const t = c.now();
    call(p, "GET /other/", t, t + 25); // the service's fastest round trip: 25 ms
    call(p, EP, t + 50, t + 50 + 40); // this endpoint's first answer: 40 ms
    c.set(t + 200);
    expect(p.reserve(EP)).toBe(0);
    p.dispatch(EP, t + 200);
    p.settled(EP, t + 200, t + 200 + 45); // judged against 25 ms, not against its own 40
    c.set(t + 310);
    expect(p.reserve(EP)).toBeCloseTo(t + 200 + (45 - 25) + p.spacingFor(EP) - (t + 310), 9);
  });
});

describe("a caller already waiting", () => {
  it("waits longer when an answer shows the call before it was counted late", () => {
    const { c, p } = paced110();
    const t0 = c.now();
    call(p, "GET /other/", t0, t0 + 5); // the service's fastest round trip: 5 ms
    c.set(t0 + 10);
    call(p, EP, t0 + 10, t0 + 15); // the endpoint's first call, answered as fast
    const t = t0 + 200;
    c.set(t);
    expect(p.reserve(EP)).toBe(0);
    p.dispatch(EP, t);
    const slot = t + p.reserve(EP)!;
    c.set(slot);
    p.settled(EP, t, t + 5 + 40); // the answer to the one at t shows it counted up to 40 ms late
    // So the next one, due at t + 110, waits until the spacing after t + 40.
    const more = p.dispatch(EP, slot);
    expect(more).toBeCloseTo(t + 40 + p.spacingFor(EP) - slot, 9);
    c.set(slot + more);
    expect(p.dispatch(EP, slot + more)).toBe(0);
  });
});
