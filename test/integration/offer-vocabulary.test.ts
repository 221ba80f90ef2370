/**
 * Issue 33 item 7: the offer vocabulary is the vendor's whole `search offers` vocabulary, sent
 * in the vendor's encodings, and the simulator filters on every field as the service does.
 * Each search goes through the typed client over HTTP to the simulator on 127.0.0.1; what it
 * answers is compared with the same condition applied to the rows of an unfiltered search.
 */
import { SEED } from "pulumi-vastai/simulator";
import type { OfferFilters } from "../../provider/client";
import { useSimulator } from "../support/simulator";

const h = useSimulator();

type Row = Record<string, unknown>;
const num = (r: Row, f: string) => r[f] as number;

/** [filters, the same condition on a row, whether it may match every offer] */
const CASES: [string, OfferFilters, (r: Row) => boolean, boolean?][] = [
  ["clusterId", { clusterId: 41 }, (r) => r.cluster_id === 41],
  ["durationDays", { durationDays: { gte: 90 } }, (r) => num(r, "duration") >= 90 * 86400],
  ["pciGen", { pciGen: { gte: 5 } }, (r) => num(r, "pci_gen") >= 5],
  ["hasAvx", { hasAvx: false }, (r) => r.has_avx === 0],
  ["bwNvlink", { bwNvlink: { gt: 0 } }, (r) => num(r, "bw_nvlink") > 0],
  ["cpuGhz", { cpuGhz: { gte: 3.5 } }, (r) => num(r, "cpu_ghz") >= 3.5],
  ["flopsPerDphtotal", { flopsPerDphtotal: { gte: 200 } }, (r) => num(r, "flops_per_dphtotal") >= 200],
  ["gpuDisplayActive", { gpuDisplayActive: true }, (r) => r.gpu_display_active === true],
  ["gpuFrac", { gpuFrac: { gte: 1 } }, (r) => num(r, "gpu_frac") >= 1, true],
  ["gpuMaxPower", { gpuMaxPower: { lte: 350 } }, (r) => num(r, "gpu_max_power") <= 350],
  ["gpuMaxTemp", { gpuMaxTemp: { gte: 90 } }, (r) => num(r, "gpu_max_temp") >= 90],
  ["moboName", { moboName: "ROMED8-2T" }, (r) => r.mobo_name === "ROMED8-2T"],
  ["ubuntuVersion", { ubuntuVersion: { in: ["24.04"] } }, (r) => r.os_version === "24.04"],
  ["verification", { verification: "unverified" }, (r) => r.verification === "unverified"],
  ["vmsEnabled", { vmsEnabled: true }, (r) => r.vms_enabled === true],
  ["driverVersion", { driverVersion: { gte: "550.90.07" } }, (r) => num(r, "driver_vers") >= 550090007],
];

async function everyOffer(): Promise<Row[]> {
  return (await h.client.offers.search({ noDefaults: true })).map((o) => o.raw);
}

describe("issue 33 item 7: every field of the vendor's vocabulary filters in the simulator over HTTP", () => {
  it.each(CASES.map(([name, filters, holds, mayMatchAll]) => ({ name, filters, holds, mayMatchAll })))("$name", async ({ filters, holds, mayMatchAll }) => {
    const all = await everyOffer();
    expect(all.map((r) => r.id).sort()).toEqual([...SEED.offerIds].sort());
    const expected = all.filter(holds).map((r) => r.id as number).sort();
    // The condition splits the market (so a filter that is ignored, or matches nothing, fails here).
    expect(expected.length).toBeGreaterThan(0);
    if (!mayMatchAll) expect(expected.length).toBeLessThan(all.length);
    const found = (await h.client.offers.search({ filters, noDefaults: true })).map((o) => o.id).sort();
    expect(found).toEqual(expected);
  });

  it("gpuFrac below 1 matches nothing: every simulated offer is a whole machine", async () => {
    expect(await h.client.offers.search({ filters: { gpuFrac: { lt: 1 } }, noDefaults: true })).toEqual([]);
  });

  it("clusterId finds the offers on the machines of a market cluster", async () => {
    const [us] = SEED.marketClusters;
    const found = await h.client.offers.search({ filters: { clusterId: us.id }, noDefaults: true });
    expect(found.map((o) => o.id).sort()).toEqual([...us.offerIds].sort());
    expect(found.every((o) => us.machineIds.includes(o.machineId!))).toBe(true);
  });
});

describe("issue 33 item 7: a driver version goes out as the vendor's client encodes it", () => {
  it("sends 550.90.07 as the number 550090007 and finds 550.107.02, which a text comparison misses", async () => {
    await h.clearRequests();
    const found = await h.client.offers.search({ filters: { driverVersion: { gte: "550.90.07" } }, noDefaults: true });
    const sent = (await h.requests()).filter((r) => r.method === "POST" && r.path === "/api/v0/bundles/");
    expect(sent.map((r) => (r.body as Row).driver_version)).toEqual([{ gte: 550090007 }]);
    const versions = new Set(found.map((o) => o.raw.driver_version));
    expect(versions).toEqual(new Set(["550.107.02", "560.35.03"]));
    // The form sent before (the text) orders as text: 550.107.02 sorts below 550.90.07.
    const asText = await fetch(`${h.sim.url}/api/v0/bundles/`, {
      method: "POST",
      headers: { authorization: `Bearer ${h.sim.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ driver_version: { gte: "550.90.07" } }),
    }).then((r) => r.json() as Promise<{ offers: Row[] }>);
    expect(new Set(asText.offers.map((o) => o.driver_version))).toEqual(new Set(["560.35.03"]));
  });
});
