import { Pacer, keyTag } from "../../provider/client/pacing";

const defaults = { intervalsMs: { "PUT /api/v0/instances/{id}/": 1000 }, defaultIntervalMs: 200 };

function fakeClock(start = 0) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

let seq = 0;
/** A fresh scope per test: the registry is process-wide on purpose. */
const url = () => `http://pacing-test-${++seq}.invalid`;

describe("pacing", () => {
  it("queues concurrent callers one interval apart instead of all at once", () => {
    const clock = fakeClock(10_000);
    const pacer = new Pacer(url(), "key-aaaaaaaa", defaults, {}, clock.now);
    const waits = [1, 2, 3, 4].map(() => pacer.reserve("PUT /api/v0/instances/{id}/"));
    expect(waits).toEqual([0, 1000, 2000, 3000]);
  });

  it("lets a call through at once when its interval has passed", () => {
    const clock = fakeClock();
    const pacer = new Pacer(url(), "key-aaaaaaaa", defaults, {}, clock.now);
    expect(pacer.reserve("GET /api/v0/instances/")).toBe(0);
    clock.advance(250);
    expect(pacer.reserve("GET /api/v0/instances/")).toBe(0);
    clock.advance(50);
    expect(pacer.reserve("GET /api/v0/instances/")).toBe(150);
  });

  it("shares slots between clients of the same URL and key, not across keys or endpoints", () => {
    const clock = fakeClock();
    const u = url();
    const a = new Pacer(u, "key-aaaaaaaa", defaults, {}, clock.now);
    const b = new Pacer(u, "key-aaaaaaaa", defaults, {}, clock.now);
    const other = new Pacer(u, "key-bbbbbbbb", defaults, {}, clock.now);
    expect(a.reserve("PUT /api/v0/instances/{id}/")).toBe(0);
    expect(b.reserve("PUT /api/v0/instances/{id}/")).toBe(1000);
    expect(other.reserve("PUT /api/v0/instances/{id}/")).toBe(0);
    expect(a.reserve("GET /api/v0/instances/")).toBe(0);
  });

  it("takes overrides per endpoint and a default, and turns off with false", () => {
    const clock = fakeClock();
    const p = new Pacer(url(), "k-aaaaaaaa", defaults, { intervalsMs: { "PUT /api/v0/instances/{id}/": 50 }, defaultIntervalMs: 7 }, clock.now);
    expect(p.intervalFor("PUT /api/v0/instances/{id}/")).toBe(50);
    expect(p.intervalFor("GET /anything")).toBe(7);
    const off = new Pacer(url(), "k-aaaaaaaa", defaults, false, clock.now);
    expect([off.reserve("PUT /api/v0/instances/{id}/"), off.reserve("PUT /api/v0/instances/{id}/")]).toEqual([0, 0]);
  });

  it("reserves nothing when the wait would pass the caller's limit", () => {
    const clock = fakeClock();
    const p = new Pacer(url(), "k-aaaaaaaa", defaults, {}, clock.now);
    p.reserve("PUT /api/v0/instances/{id}/");
    expect(p.reserve("PUT /api/v0/instances/{id}/", 500)).toBeNull();
    expect(p.reserve("PUT /api/v0/instances/{id}/", 5000)).toBe(1000);
  });

  it("keys slots by a hash of the API key, never the key", () => {
    expect(keyTag("secret-key-value")).toMatch(/^[0-9a-f]{16}$/);
    expect(keyTag("secret-key-value")).not.toContain("secret");
  });
});
