/**
 * Issue 28 item 5: the pace is learned from the service. A refused call (429) slows its lane for
 * every caller of the process, a Retry-After holds the lane to its end, a threshold the service
 * names raises the lane to that limit, answered calls narrow the widening back, and a send is
 * paced from when it was written, not from when its caller woke. All with an injected clock.
 */
import { REALISTIC_RATE_LIMITS } from "pulumi-vastai/simulator";
import { parseRetryAfter } from "../../provider/client/core";
import { DEFAULT_INTERVALS_MS } from "../../provider/client/endpoints";
import { PACING_MARGIN, Pacer } from "../../provider/client/pacing";
import { withRetry } from "../../provider/client/retry";
import { retryClock } from "../support/retry-clock";

const EP = "PUT /api/v0/asks/{id}/";
const defaults = { intervalsMs: { [EP]: 103 }, defaultIntervalMs: 103 };
const KEY = "pacing-learn-key-1";

let seq = 0;
/** A fresh scope per test: the registry is process-wide on purpose. */
const url = () => `http://pacing-learn-${++seq}.invalid`;

function clock(start = 2_000_000) {
  let t = start;
  return { now: () => t, set: (v: number) => (t = v), advance: (ms: number) => (t += ms) };
}

/** One answered call as the request core makes it: gate, dispatch, written, answered. */
function call(p: Pacer, sentAt: number, answeredAt: number): void {
  p.gate(EP);
  p.dispatch(EP, sentAt);
  p.sent(EP, sentAt);
  p.settled(EP, sentAt, answeredAt);
  p.answered(EP);
}

describe("issue 28 item 5: a pace learned from the service's refusals", () => {
  it("28.5 a refusal widens the lane for every client of the process, and answered calls narrow it back to the configured interval", () => {
    const c = clock();
    const u = url();
    const a = new Pacer(u, KEY, defaults, {}, c.now);
    const b = new Pacer(u, KEY, defaults, {}, c.now); // a second client of the same process
    call(a, c.now(), c.now() + 5);
    expect(b.intervalFor(EP)).toBe(103);
    c.advance(103);
    a.refused(EP, c.now(), c.now() + 5);
    const widened = b.intervalFor(EP);
    expect(widened).toBeCloseTo(103 * 1.25, 6);
    // A call sent before that refusal's answer, refused too, does not widen the lane again.
    b.refused(EP, c.now() + 1, c.now() + 7);
    expect(b.intervalFor(EP)).toBeCloseTo(widened, 6);
    // Another key or endpoint is not slowed.
    expect(new Pacer(u, "another-key-2", defaults, {}, c.now).intervalFor(EP)).toBe(103);
    expect(b.intervalFor("GET /other/")).toBe(103);
    // Each answered call of the lane, from either client, narrows it a little: slowly, not at once.
    let t = c.now() + 200;
    const seen: number[] = [];
    for (let i = 0; i < 30; i++) {
      call(i % 2 ? a : b, t, t + 5);
      seen.push(b.intervalFor(EP));
      t += 200;
    }
    expect(seen[0]).toBeGreaterThan(103);
    expect(seen[0]).toBeLessThan(widened);
    expect(seen.every((v, i) => i === 0 || v <= seen[i - 1])).toBe(true);
    expect(seen[seen.length - 1]).toBe(103);
  });

  it("28.5 a refusal holds every caller of the lane, waiting ones included, an interval past the refused call", () => {
    const c = clock();
    const u = url();
    const a = new Pacer(u, KEY, defaults, {}, c.now);
    const b = new Pacer(u, KEY, defaults, {}, c.now);
    call(a, c.now(), c.now() + 5); // the first call, and the service's fastest round trip: 5 ms
    c.advance(1000);
    const t = c.now();
    expect(a.reserve(EP)).toBe(0);
    a.dispatch(EP, t);
    a.sent(EP, t);
    const waiting = t + b.reserve(EP)!; // b's caller is due one interval later
    expect(waiting).toBe(t + 103);
    a.refused(EP, t, t + 30); // counted at the latest 25 ms after its send
    const interval = a.intervalFor(EP);
    c.set(waiting);
    // b's caller was already waiting: it now goes an (widened) interval after the refused call's count.
    expect(b.dispatch(EP, waiting)).toBeCloseTo(t + 25 + interval - waiting, 6);
    // A newcomer through another client queues behind it.
    expect(a.reserve(EP)!).toBeGreaterThan(t + 25 + interval - waiting);
  });

  it("28.5 a Retry-After holds the whole lane to its end", () => {
    const c = clock();
    const u = url();
    const a = new Pacer(u, KEY, defaults, {}, c.now);
    const b = new Pacer(u, KEY, defaults, {}, c.now);
    call(a, c.now(), c.now() + 5);
    c.advance(1000);
    const t = c.now();
    a.dispatch(EP, t);
    a.sent(EP, t);
    a.refused(EP, t, t + 5, { retryAfterMs: 2000 });
    c.set(t + 500);
    expect(b.dispatch(EP, t + 500)).toBe(t + 5 + 2000 - (t + 500));
    expect(b.reserve(EP)).toBe(t + 5 + 2000 - (t + 500));
  });

  it("28.5 a threshold the service names raises the lane to that limit plus the margin", () => {
    const c = clock();
    const p = new Pacer(url(), KEY, { intervalsMs: { [EP]: 40 }, defaultIntervalMs: 40 }, {}, c.now);
    p.refused(EP, c.now(), c.now() + 5, { thresholdMs: 100 });
    expect(p.intervalFor(EP)).toBeCloseTo(100 * (1 + PACING_MARGIN) * 1.25, 6);
    let t = c.now() + 1000;
    for (let i = 0; i < 40; i++, t += 1000) call(p, t, t + 5);
    // The widening is gone; the limit the service named stays.
    expect(p.intervalFor(EP)).toBeCloseTo(100 * (1 + PACING_MARGIN), 6);
  });

  it("28.5 a call let go but not yet written holds the next send, which keeps its spacing from the write", async () => {
    const c = clock();
    let first: Awaited<ReturnType<Pacer["acquire"]>> = null;
    const sleeps: number[] = [];
    const sleep = async (ms: number) => {
      sleeps.push(ms);
      c.advance(ms);
      // The event loop was busy: the first call is written only 150 ms after it was let go,
      // after the second call's slot.
      if (c.now() >= start + 150 && first) first.sent(start + 150);
    };
    const p = new Pacer(url(), KEY, defaults, {}, c.now, { sleep });
    const start = c.now();
    p.gate(EP);
    p.answered(EP); // past the endpoint's first call
    first = await p.acquire(EP);
    const second = await p.acquire(EP);
    expect(second).not.toBeNull();
    // Not at start + 103 (the first call's slot plus an interval) but the spacing after its write.
    expect(c.now()).toBeGreaterThanOrEqual(start + 150 + p.spacingFor(EP));
    expect(sleeps.length).toBeGreaterThan(1);
  });

  it("28.5 the retry waits at least the answer's Retry-After, read as seconds or as a date", async () => {
    const { c, sleeps } = retryClock();
    let n = 0;
    const refused = Object.assign(new Error("429"), { retryable: true, retryAfterMs: 1500, gaveUpAfter: () => {} });
    await withRetry({ attempt: async () => (++n === 1 ? Promise.reject(refused) : "ok"), deadlineExceeded: () => new Error("deadline") }, { maxAttempts: 3, deadlineMs: 60_000, backoff: { baseMs: 100, capMs: 1000 } }, c);
    expect(sleeps).toEqual([1500]);
    expect(parseRetryAfter("2", 0)).toBe(2000);
    expect(parseRetryAfter("0.25", 0)).toBe(250);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 7_000)).toBe(3000);
    expect(parseRetryAfter("soon", 0)).toBeUndefined();
  });

  it("28.5 the default intervals sit at most 5% over the service's limits (a refusal widens them when needed)", () => {
    const create = DEFAULT_INTERVALS_MS[EP];
    const limit = REALISTIC_RATE_LIMITS["PUT /api/v0/asks/{id}"];
    expect(create / limit).toBeLessThanOrEqual(1.05);
    expect(create / limit).toBeGreaterThan(1);
  });
});
