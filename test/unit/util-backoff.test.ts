import fc from "fast-check";
import { backoffCeiling, backoffDelay } from "../../provider/client/backoff";

const opts = fc.record({ baseMs: fc.integer({ min: 1, max: 5000 }), capMs: fc.integer({ min: 1, max: 120_000 }) });

describe("backoff", () => {
  it("stays within [0, min(cap, base * 2^(n-1))) for any attempt and random value", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), opts, (n, r, o) => {
        const d = backoffDelay(n, () => r, o);
        const ceiling = Math.min(o.capMs, o.baseMs * 2 ** (n - 1));
        expect(Number.isInteger(d)).toBe(true);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThan(Math.max(ceiling, 1));
      }),
    );
  });

  it("doubles the ceiling each attempt until the cap", () => {
    const o = { baseMs: 100, capMs: 1000 };
    expect([1, 2, 3, 4, 5, 60].map((n) => backoffCeiling(n, o))).toEqual([100, 200, 400, 800, 1000, 1000]);
  });

  it("uses the whole range (full jitter), not a fixed wait", () => {
    const o = { baseMs: 1000, capMs: 10_000 };
    expect(backoffDelay(3, () => 0, o)).toBe(0);
    expect(backoffDelay(3, () => 0.5, o)).toBe(2000);
    expect(backoffDelay(3, () => 0.99999, o)).toBe(3999);
  });

  it("refuses an attempt number below 1", () => {
    expect(() => backoffCeiling(0)).toThrow(/attempt must be an integer >= 1, got 0/);
  });
});
