import { SEED } from "pulumi-vastai/simulator";
import { openSimulator } from "./simulator-support";
import { useSimulator } from "../support/simulator";

const h = useSimulator({ start: openSimulator });

type Offer = { id: number; gpu_name: string; num_gpus: number; gpu_ram: number; dph_total: number; geolocation: string; reliability: number };

async function offers(query: unknown): Promise<Offer[]> {
  const r = await h.call("POST", "/api/v0/bundles/", query);
  expect(r.status).toBe(200);
  return r.body.offers;
}

describe("offer search POST /api/v0/bundles/", () => {
  it("lists at least 20 varied offers, cheapest first, gpu_ram in MB", async () => {
    const all = await offers({});
    expect(all.length).toBeGreaterThanOrEqual(20);
    expect(new Set(all.map((o) => o.gpu_name)).size).toBeGreaterThanOrEqual(6);
    expect(new Set(all.map((o) => o.num_gpus))).toEqual(new Set([1, 2, 4, 8]));
    const prices = all.map((o) => o.dph_total);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(all.find((o) => o.gpu_name === "RTX 4090")?.gpu_ram).toBe(24564);
    expect(all.map((o) => o.id).sort()).toEqual([...SEED.offerIds].sort());
  });

  it("filters with eq, in, notin, gte, lt and orders and limits", async () => {
    expect((await offers({ gpu_name: { eq: "H100 SXM" } })).map((o) => o.num_gpus).sort()).toEqual([1, 2, 8]);
    const big = await offers({ gpu_ram: { gte: 80000 }, num_gpus: { in: [8] } });
    expect(big.every((o) => o.gpu_ram >= 80000 && o.num_gpus === 8)).toBe(true);
    expect(big.length).toBe(2);
    const cheap = await offers({ dph_total: { lt: 0.3 }, gpu_name: { notin: ["RTX 3060"] } });
    expect(cheap.every((o) => o.dph_total < 0.3 && o.gpu_name !== "RTX 3060")).toBe(true);
    const top = await offers({ order: [["reliability", "desc"]], limit: 3 });
    expect(top).toHaveLength(3);
    expect(top[0].reliability).toBeGreaterThanOrEqual(top[2].reliability);
  });

  it("matches a location by its full name or its country code", async () => {
    const se = await offers({ geolocation: { eq: "SE" } });
    expect(se.length).toBeGreaterThan(0);
    expect(se.every((o) => o.geolocation.endsWith("SE"))).toBe(true);
    expect((await offers({ geolocation: { eq: "Sweden, SE" } })).length).toBe(se.length);
    const us = await offers({ geolocation: { in: ["US"] } });
    expect(us.every((o) => o.geolocation.endsWith("US"))).toBe(true);
  });

  it("accepts the older GET form with ?q=", async () => {
    const r = await h.call("GET", `/api/v0/bundles?q=${encodeURIComponent(JSON.stringify({ num_gpus: { eq: 8 } }))}`);
    expect(r.status).toBe(200);
    expect(r.body.offers.every((o: Offer) => o.num_gpus === 8)).toBe(true);
  });

  it("rejects an unknown operator with 400", async () => {
    const r = await h.call("POST", "/api/v0/bundles/", { num_gpus: { about: 2 } });
    expect(r.status).toBe(400);
    expect(r.body.msg).toContain("about");
  });

  it("hides an offer that is gone and shows an unavailable one as rented, not rentable", async () => {
    const [a, b] = SEED.offerIds;
    await h.control("POST", `/_sim/offers/${a}`, { state: "gone" });
    await h.control("POST", `/_sim/offers/${b}`, { state: "unavailable" });
    const ids = (await offers({ rentable: { eq: true }, rented: { eq: false } })).map((o) => o.id);
    expect(ids).not.toContain(a);
    expect(ids).not.toContain(b);
    // The service adds no implicit filters: a query without them shows the rented offer too.
    const all = await offers({});
    expect(all.map((o) => o.id)).not.toContain(a);
    expect(all.find((o) => o.id === b)).toMatchObject({ rentable: false, rented: true });
  });

  it("prices the disk asked for (allocated_storage, default 8 GB) into dph_total", async () => {
    const id = SEED.offerIds[0];
    const at = async (storage?: number) => {
      const r = await h.call("POST", "/api/v0/bundles/", { id: { eq: id }, ...(storage === undefined ? {} : { allocated_storage: storage }) });
      return r.body.offers[0] as { dph_total: number; storage_cost: number };
    };
    const eight = await at();
    const big = await at(508);
    expect(await at(8)).toEqual(eight);
    // 500 GB more at storage_cost $/GB/month, per hour of a 30-day month.
    expect(big.dph_total - eight.dph_total).toBeCloseTo((500 * eight.storage_cost) / 720, 5);
    expect((await h.call("POST", "/api/v0/bundles/", { allocated_storage: -1 })).status).toBe(400);
  });

  it("orders by score when asked, as the vendor's client does by default", async () => {
    const r = await h.call("POST", "/api/v0/bundles/", { order: [["score", "desc"]] });
    const scores = r.body.offers.map((o: { score: number }) => o.score);
    expect(scores.length).toBeGreaterThan(3);
    expect(scores).toEqual([...scores].sort((x: number, y: number) => y - x));
  });
});

describe("PUT /api/v0/bundles/{id}", () => {
  it("answers an empty object: the endpoint is disabled", async () => {
    const r = await h.call("PUT", `/api/v0/bundles/${SEED.offerIds[0]}`, { price: 0.5, max_start: 10, min_duration: 3600 });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({});
  });

  it("rejects a price that is not a number", async () => {
    const r = await h.call("PUT", `/api/v0/bundles/${SEED.offerIds[0]}/`, { price: "cheap" });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: "invalid_args", msg: expect.stringContaining("price") });
  });
});

describe("the bulk market (option marketOffers)", () => {
  const market = useSimulator({ start: openSimulator, simulator: { marketOffers: 120 } });

  it("shows 120 more single-GPU offers on machines of their own, none cheaper than the cheapest seed offer", async () => {
    const r = await market.call("POST", "/api/v0/bundles/", {});
    const all: Offer[] = r.body.offers;
    expect(all).toHaveLength(SEED.offerIds.length + 120);
    const extra = all.filter((o) => !SEED.offerIds.includes(o.id));
    expect(extra.every((o) => o.num_gpus === 1)).toBe(true);
    expect(new Set(extra.map((o) => (o as Offer & { machine_id: number }).machine_id)).size).toBe(120);
    expect(all[0].id).toBe((await offers({}))[0].id);
  });

  it("rents a market offer there, and answers 404 for it where the market is off", async () => {
    const offerId = 800_001 + 119;
    const made = await market.call("PUT", `/api/v0/asks/${offerId}/`, { image: "ubuntu:22.04", disk: 10 });
    expect(made.status).toBe(200);
    const shown = await market.call("GET", `/api/v0/instances/${made.body.new_contract}/`);
    expect(shown.body.instances).toMatchObject({ machine_id: 50_001 + 119 });
    const refused = await h.call("PUT", `/api/v0/asks/${offerId}/`, { image: "ubuntu:22.04", disk: 10 });
    expect(refused.status).toBe(404);
  });

  it("refuses a market size outside 0 to 2000", async () => {
    await expect(openSimulator({ marketOffers: 2001 })).rejects.toThrow("marketOffers must be a whole number from 0 to 2000 (got 2001)");
  });
});
