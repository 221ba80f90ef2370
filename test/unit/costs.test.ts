/**
 * Issue 27 item 5: the shared cost arithmetic (resources/kit/costs.ts) and the shared charges
 * walk: callers gather into one walk, a cached walk serves later callers whose range it covers,
 * an older object widens the range once, a failure is shared and remembered for the TTL.
 */
import type { Charge } from "../../provider/client";
import { ChargesReader, Spend, hourlyCostOf, walkStart } from "../../provider/resources/kit/costs";

const DAY = 24 * 3600;
const charge = (source: string, amount: number, metadata: Record<string, unknown> = {}): Charge => ({
  type: source.split("-")[0], source, start: 0, end: 0, description: "", amount, metadata, items: [],
});

describe("issue 27 item 5: cost arithmetic", () => {
  test("27.5 hourly cost: the price while running or booting, the disk alone while stopped, nothing once dead, the volume always", () => {
    const parts = { pricePerHour: 0.5, storagePerHour: 0.02, volumePerHour: 0.01 };
    expect(hourlyCostOf({ ...parts, status: "running" })).toBeCloseTo(0.51, 9);
    expect(hourlyCostOf({ ...parts, status: null })).toBeCloseTo(0.51, 9);
    expect(hourlyCostOf({ ...parts, status: " Stopped " })).toBeCloseTo(0.03, 9);
    for (const dead of ["exited", "unknown", "offline", "gone"]) expect(hourlyCostOf({ ...parts, status: dead })).toBeCloseTo(0.01, 9);
  });

  test("27.5 spend sums an object's rows by source, an endpoint's by the endpoint its workers' rows name, to 6 decimals", () => {
    const spend = new Spend([
      charge("instance-1", 1.2345674), charge("instance-1", 0.5), charge("volume-9", 0.25),
      charge("instance-2", 0.1, { endpoint_id: 40 }), charge("instance-3", 0.2, { endpoint_id: 40 }),
    ]);
    expect(spend.of("instance-1")).toBe(1.734567);
    expect(spend.of("instance-1", "volume-9")).toBe(1.984567);
    expect(spend.of("endpoint-40")).toBeCloseTo(0.3, 9);
    expect(spend.of("instance-404")).toBe(0);
  });

  test("27.5 a walk reaches back twice the object's age, at least a day before it", () => {
    const now = 1_800_000_000;
    expect(walkStart(now - 3600, now)).toBe(now - 3600 - DAY);
    expect(walkStart(now - 10 * DAY, now)).toBe(now - 20 * DAY);
  });
});

describe("issue 27 item 5: one shared walk of the charges", () => {
  function reader(charges: Charge[] = [charge("instance-1", 1)], fail?: () => Error) {
    let nowMs = 1_800_000_000_000;
    const starts: number[] = [];
    const r = new ChargesReader({
      fetch: async (start) => {
        starts.push(start);
        if (fail) throw fail();
        return charges;
      },
      ttlMs: () => 60_000,
      now: () => nowMs,
      gatherMs: 1,
    });
    return { r, starts, advance: (ms: number) => (nowMs += ms), nowS: () => nowMs / 1000 };
  }

  test("27.5 callers at once share one walk from the oldest start asked; later ones within the TTL are served from it", async () => {
    const { r, starts, nowS } = reader();
    const t = nowS();
    const spends = await Promise.all([r.spend(t - 3600), r.spend(t - 2 * 3600), r.spend(t - 600)]);
    expect(spends.map((s) => s.of("instance-1"))).toEqual([1, 1, 1]);
    expect(starts).toEqual([walkStart(t - 2 * 3600, t)]);
    await r.spend(t - 1800);
    expect(starts).toHaveLength(1);
    expect(r.stats).toEqual({ walks: 1, shared: 3 });
  });

  test("27.5 an object older than the walk reaches widens it with one more walk; the TTL ends a walk's use", async () => {
    const { r, starts, advance, nowS } = reader();
    const t = nowS();
    await r.spend(t - 3600);
    await r.spend(t - 5 * DAY);
    expect(starts).toEqual([walkStart(t - 3600, t), walkStart(t - 5 * DAY, t)]);
    // The wider walk serves the younger objects too.
    await r.spend(t - 3600);
    expect(starts).toHaveLength(2);
    advance(60_001);
    await r.spend(t - 3600);
    expect(starts).toHaveLength(3);
  });

  test("27.5 a failed walk fails its callers and is remembered for the TTL: no walk per resource", async () => {
    const { r, starts, advance, nowS } = reader([], () => new Error("HTTP 403"));
    const t = nowS();
    const results = await Promise.allSettled([r.spend(t - 60), r.spend(t - 60)]);
    expect(results.map((x) => x.status)).toEqual(["rejected", "rejected"]);
    await expect(r.spend(t - 60)).rejects.toThrow("HTTP 403");
    expect(starts).toHaveLength(1);
    advance(60_001);
    await expect(r.spend(t - 60)).rejects.toThrow("HTTP 403");
    expect(starts).toHaveLength(2);
  });
});
