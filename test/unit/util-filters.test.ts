import fc from "fast-check";
import { MB_PER_GB, buildOfferQuery, buildSelectFilters, conditionToWire, toSnakeCase } from "../../provider/client/wire/filters";

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
