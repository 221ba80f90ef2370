import fc from "fast-check";
import {
  MB_PER_GB,
  OFFER_VOCABULARY,
  buildOfferQuery,
  buildSelectFilters,
  conditionToWire,
  offerConditionProblem,
  offerFiltersToQuery,
  toSnakeCase,
} from "../../provider/client/wire/filters";
import { buildVolumeOfferQuery } from "../../provider/client/wire/volume-filters";

describe("template select_filters", () => {
  it("turns bare values into eq and camelCase fields into snake_case", () => {
    expect(buildSelectFilters({ name: "pytorch", hashId: { in: ["a", "b"] }, recommendedDiskSpace: { gte: 8, lt: 100 }, useSsh: true })).toEqual({
      name: { eq: "pytorch" },
      hash_id: { in: ["a", "b"] },
      recommended_disk_space: { gte: 8, lt: 100 },
      use_ssh: { eq: true },
    });
  });

  it("refuses fields the API cannot search, since it would answer with an empty list", () => {
    expect(() => buildSelectFilters({ gpuName: "x" } as never)).toThrow(/template filter "gpuName" is not searchable/);
  });

  it("checks operators and array operands", () => {
    expect(() => conditionToWire("id", { between: [1, 2] })).toThrow(/unknown operator "between"/);
    expect(() => conditionToWire("id", { in: 3 })).toThrow(/operator in needs an array/);
    expect(() => conditionToWire("id", { eq: [3] })).toThrow(/operator eq takes a single value/);
    expect(() => conditionToWire("id", [1, 2])).toThrow(/a list needs an operator/);
    expect(() => conditionToWire("id", {})).toThrow(/no operator given/);
  });
});

describe("offer queries", () => {
  it("sends gpuRamGb as gpu_ram in MB, as the CLI converts", () => {
    const q = buildOfferQuery({ filters: { gpuRamGb: { gte: 24 }, numGpus: 2, gpuName: { in: ["RTX 4090", "A100"] } } });
    expect(q).toEqual({
      gpu_ram: { gte: 24 * MB_PER_GB },
      num_gpus: { eq: 2 },
      gpu_name: { in: ["RTX 4090", "A100"] },
      type: "on-demand",
    });
  });

  it("converts every operand of a GB field, including lists", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 200 }), { minLength: 1, maxLength: 5 }), (gbs) => {
        const q = buildOfferQuery({ filters: { cpuRamGb: { in: gbs } } });
        expect(q.cpu_ram).toEqual({ in: gbs.map((g) => g * MB_PER_GB) });
      }),
    );
  });

  it("passes order, type and limit, mapping field names", () => {
    const q = buildOfferQuery({ order: [["dphTotal", "asc"], ["gpuRamGb", "desc"]], type: "bid", limit: 5 });
    expect(q).toEqual({ order: [["dph_total", "asc"], ["gpu_ram", "desc"]], type: "bid", limit: 5 });
    expect(() => buildOfferQuery({ limit: 0 })).toThrow(/limit must be a positive integer, got 0/);
  });

  it("maps camelCase to snake_case the way the API names fields", () => {
    expect(toSnakeCase("cudaMaxGood")).toBe("cuda_max_good");
    expect(toSnakeCase("dlperfPerDphtotal")).toBe("dlperf_per_dphtotal");
    expect(toSnakeCase("inetUp")).toBe("inet_up");
    expect(toSnakeCase("id")).toBe("id");
  });
});

describe("issue 33 item 7: the vendor's whole offer vocabulary and its encodings", () => {
  // Every field of the vendor client's `search offers` (vastai/api/query.py `offers_fields`, 53 names).
  const VENDOR_OFFER_FIELDS = [
    "bw_nvlink", "compute_cap", "cpu_arch", "cpu_cores", "cpu_cores_effective", "cpu_ghz", "cpu_ram", "cuda_max_good",
    "datacenter", "direct_port_count", "driver_version", "disk_bw", "disk_space", "dlperf", "dlperf_per_dphtotal",
    "dph_total", "duration", "external", "flops_per_dphtotal", "gpu_arch", "gpu_display_active", "gpu_frac",
    "gpu_mem_bw", "gpu_name", "gpu_ram", "gpu_total_ram", "gpu_max_power", "gpu_max_temp", "has_avx", "host_id", "id",
    "inet_down", "inet_down_cost", "inet_up", "inet_up_cost", "machine_id", "min_bid", "mobo_name", "num_gpus",
    "pci_gen", "pcie_bw", "reliability", "rentable", "rented", "storage_cost", "static_ip", "total_flops",
    "ubuntu_version", "verification", "verified", "vms_enabled", "geolocation", "cluster_id",
  ];

  it("names every one of the vendor's 53 search fields", () => {
    expect(new Set(VENDOR_OFFER_FIELDS).size).toBe(53);
    const ours = new Set<string>(Object.values(OFFER_VOCABULARY).map((s) => s.wire));
    expect(VENDOR_OFFER_FIELDS.filter((f) => !ours.has(f))).toEqual([]);
  });

  it("sends a driver version as the vendor's client encodes it: 535.86.05 is the number 535086005", () => {
    expect(buildOfferQuery({ filters: { driverVersion: { gte: "535.86.05" } } }).driver_version).toEqual({ gte: 535086005 });
    expect(buildOfferQuery({ filters: { driverVersion: { in: ["550.54.15", "1.2.3"] } } }).driver_version).toEqual({ in: [550054015, 1002003] });
    expect(buildOfferQuery({ filters: { driverVersion: "470.256.02" } }).driver_version).toEqual({ eq: 470256002 });
    // The encoding orders as the versions do (as text, 550.107.02 sorts below 550.54.15).
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 999 }), { minLength: 6, maxLength: 6 }), ([a, b, c, d, e, f]) => {
        const x = buildOfferQuery({ filters: { driverVersion: `${a}.${b}.${c}` } }).driver_version as { eq: number };
        const y = buildOfferQuery({ filters: { driverVersion: `${d}.${e}.${f}` } }).driver_version as { eq: number };
        const byParts = a - d || b - e || c - f;
        expect(Math.sign(x.eq - y.eq)).toBe(Math.sign(byParts));
      }),
    );
    // WorkerGroup search_params write the number too, as the vendor's examples do.
    expect(offerFiltersToQuery({ driverVersion: { gte: "535.86.05" } })).toBe("driver_version>=535086005");
    // And the volume searches, which the vendor's client parses the same way.
    expect(buildVolumeOfferQuery({ filters: { driverVersion: { gte: "535.86.05" } } }).driver_version).toEqual({ gte: 535086005 });
  });

  it("converts durationDays to seconds and the GB fields to MB, as the vendor's client multiplies", () => {
    const q = buildOfferQuery({ filters: { durationDays: { gte: 7 }, gpuTotalRamGb: { gte: 48 }, cpuRamGb: { gte: 64 } } });
    expect(q).toMatchObject({ duration: { gte: 7 * 86400 }, gpu_total_ram: { gte: 48_000 }, cpu_ram: { gte: 64_000 } });
    // The query language speaks the vendor's units (days): not scaled there.
    expect(offerFiltersToQuery({ durationDays: { gte: 7 } })).toBe("duration>=7");
  });

  it("sends the new fields under the vendor's names with their values as given", () => {
    const q = buildOfferQuery({
      filters: {
        clusterId: 41, pciGen: { gte: 4 }, hasAvx: true, bwNvlink: { gt: 0 }, cpuGhz: { gte: 3 }, flopsPerDphtotal: { gte: 10 },
        gpuDisplayActive: false, gpuFrac: 1, gpuMaxPower: { lte: 450 }, gpuMaxTemp: { gte: 85 }, moboName: "ROMED8-2T",
        ubuntuVersion: { in: ["22.04", "24.04"] }, verification: "verified", vmsEnabled: true,
      },
    });
    expect(q).toEqual({
      cluster_id: { eq: 41 }, pci_gen: { gte: 4 }, has_avx: { eq: true }, bw_nvlink: { gt: 0 }, cpu_ghz: { gte: 3 }, flops_per_dphtotal: { gte: 10 },
      gpu_display_active: { eq: false }, gpu_frac: { eq: 1 }, gpu_max_power: { lte: 450 }, gpu_max_temp: { gte: 85 }, mobo_name: { eq: "ROMED8-2T" },
      ubuntu_version: { in: ["22.04", "24.04"] }, verification: { eq: "verified" }, vms_enabled: { eq: true }, type: "on-demand",
    });
  });

  it("refuses a value the vendor's client could not encode, naming the rule and the value", () => {
    expect(offerConditionProblem("driverVersion", "535.86")).toBe('must be a driver version of three parts of 1 to 3 digits, such as "535.86.05", got "535.86"');
    expect(offerConditionProblem("driverVersion", { gte: 535086005 })).toMatch(/must be a non-empty string, got 535086005/);
    expect(offerConditionProblem("verification", "trusted")).toBe('must be one of verified, unverified, deverified, got "trusted"');
    expect(offerConditionProblem("clusterId", 0)).toBe("must be at least 1 (cluster id), got 0");
    expect(() => buildVolumeOfferQuery({ filters: { driverVersion: "latest" } })).toThrow(/driverVersion: must be a driver version such as "535.86.05", got "latest"/);
  });
});
