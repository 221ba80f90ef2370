/**
 * Template check and diff: rules named in failures, defaults in the checked inputs, and diffs
 * that list exactly the inputs that changed. No API is involved.
 */
import { UNKNOWN } from "../../provider/resources/kit";
import { provider as templateImpl } from "../../provider/resources/template/provider";

const PROVIDER = "serialized-provider-text";
const base = { __provider: PROVIDER, name: "trainer", image: "pytorch/pytorch" };

async function failures(news: Record<string, unknown>) {
  return (await templateImpl.check({}, { ...base, ...news })).failures ?? [];
}

describe("Template check", () => {
  it("fills the defaults the service would apply and keeps __provider", async () => {
    const res = await templateImpl.check({}, base);
    expect(res.failures).toEqual([]);
    expect(res.inputs).toEqual({ ...base, tag: "latest", runtype: "args", recommendedDiskSpaceGb: 8, private: true });
  });

  it("makes a new template private unless told otherwise, and leaves one made before that default as it is", async () => {
    expect((await templateImpl.check({}, base)).inputs.private).toBe(true);
    expect((await templateImpl.check({}, { ...base, private: false })).inputs.private).toBe(false);
    // State of an earlier release: no `private` input. No default is added, so no edit follows.
    const olds = { ...base, tag: "latest", runtype: "args", recommendedDiskSpaceGb: 8 };
    const upgraded = await templateImpl.check(olds, base);
    expect(upgraded.inputs).not.toHaveProperty("private");
    expect((await templateImpl.diff("5", olds, upgraded.inputs)).changes).toBe(false);
  });

  it("keeps the private default of the first run on later runs of the same program: no edit", async () => {
    const first = await templateImpl.check({}, base);
    const again = await templateImpl.check(first.inputs, base);
    expect(again.inputs.private).toBe(true);
    expect((await templateImpl.diff("5", first.inputs, again.inputs)).changes).toBe(false);
  });

  it("keeps values the user gave instead of defaults", async () => {
    const res = await templateImpl.check({}, { ...base, tag: "2.3", runtype: "ssh", recommendedDiskSpaceGb: 40 });
    expect(res.inputs).toMatchObject({ tag: "2.3", runtype: "ssh", recommendedDiskSpaceGb: 40 });
  });

  it("writes a port number N as the mapping N:N", async () => {
    const res = await templateImpl.check({}, { ...base, ports: [22, "8080:8081", "5000:5000/udp"] });
    expect(res.failures).toEqual([]);
    expect(res.inputs.ports).toEqual(["22:22", "8080:8081", "5000:5000/udp"]);
  });

  it("names the property, the rule and the value of a bad runtype", async () => {
    expect(await failures({ runtype: "bash" })).toEqual([
      { property: "runtype", reason: 'runtype: must be one of ssh, jupyter, args (got "bash")' },
    ]);
  });

  it("refuses port mappings that are not HOST:CONTAINER or a port number, and repeated mappings", async () => {
    const got = await failures({ ports: ["8080", 70000, "1:99999", 22, "22:22"] });
    expect(got.map((f) => f.property)).toEqual(["ports.0", "ports.1", "ports.2", "ports.4"]);
    expect(got[0].reason).toBe('ports.0: must be a port mapping HOST:CONTAINER such as 8080:8080 (optionally /tcp or /udp) or a port number 1-65535 (got "8080")');
    expect(got[1].reason).toContain("(got 70000)");
    expect(got[3].reason).toBe('ports.4: must not repeat the mapping 22:22 (got "22:22")');
  });

  it("refuses environment variable names the flag string cannot carry and values that are not strings", async () => {
    const got = await failures({ env: { "1BAD": "x" } });
    expect(got).toEqual([
      { property: "env.1BAD", reason: 'env.1BAD: variable name "1BAD" must use letters, digits and _, not starting with a digit' },
    ]);
    expect(await failures({ env: { OK: 5 } })).toEqual([{ property: "env.OK", reason: "env.OK: must be a string" }]);
  });

  it("validates extraFilters fields, operators and operands", async () => {
    const got = await failures({
      extraFilters: { gpuRam: { gte: 1 }, gpu_ram: { between: 1 }, num_gpus: { in: 2 }, dph_total: { lt: [1] }, cuda: 12, geo: {} },
    });
    const byProperty = Object.fromEntries(got.map((f) => [f.property, f.reason]));
    expect(Object.keys(byProperty).sort()).toEqual([
      "extraFilters.cuda",
      "extraFilters.dph_total.lt",
      "extraFilters.geo",
      "extraFilters.gpuRam",
      "extraFilters.gpu_ram.between",
      "extraFilters.num_gpus.in",
    ]);
    expect(byProperty["extraFilters.gpuRam"]).toContain("snake_case");
    expect(byProperty["extraFilters.gpu_ram.between"]).toBe(
      "extraFilters.gpu_ram.between: operator must be one of eq, neq, lt, lte, gt, gte, in, notin (got 1)",
    );
    expect(byProperty["extraFilters.num_gpus.in"]).toBe("extraFilters.num_gpus.in: operator in needs a list of values (got 2)");
    expect(byProperty["extraFilters.dph_total.lt"]).toContain("takes a single value, not a list");
    expect(byProperty["extraFilters.cuda"]).toContain("must be an object of operators");
    expect(byProperty["extraFilters.geo"]).toContain("must name an operator");
  });

  it("accepts well-formed extraFilters", async () => {
    expect(await failures({ extraFilters: { gpu_ram: { gte: 24000 }, gpu_name: { in: ["RTX 4090"] }, verified: { eq: true } } })).toEqual([]);
  });

  it("requires name and image and a positive disk size", async () => {
    const got = await templateImpl.check({}, { __provider: PROVIDER, name: "", recommendedDiskSpaceGb: 0 });
    expect(got.failures).toEqual([
      { property: "name", reason: 'name: must not be empty (got "")' },
      { property: "image", reason: "image: must be a string" },
      { property: "recommendedDiskSpaceGb", reason: "recommendedDiskSpaceGb: must be a positive number of GB (got 0)" },
    ]);
  });

  it("never shows the registry password in a failure", async () => {
    const got = await failures({ dockerLoginPass: 918273645 });
    expect(got).toEqual([{ property: "dockerLoginPass", reason: "dockerLoginPass: must be a string" }]);
    expect(JSON.stringify(got)).not.toContain("918273645");
  });

  it("names unknown properties", async () => {
    expect(await failures({ imageTag: "x" })).toEqual([
      { property: "imageTag", reason: "imageTag is not a Template property; did you mean image?" },
    ]);
  });

  it("does not judge values unknown during preview", async () => {
    const res = await templateImpl.check({}, { ...base, name: UNKNOWN, ports: [UNKNOWN], env: UNKNOWN });
    expect(res.failures).toEqual([]);
    expect(res.inputs.ports).toEqual([UNKNOWN]);
  });

  it("reports failures without throwing on inputs of the wrong shape", async () => {
    const got = await templateImpl.check({}, { __provider: PROVIDER, name: null, image: ["x"], ports: "22", env: [1], extraFilters: "x" });
    expect(got.failures?.map((f) => f.property)).toEqual(["name", "image", "env", "ports", "extraFilters"]);
  });
});

describe("Template diff", () => {
  const olds = {
    ...base,
    tag: "latest",
    runtype: "args",
    recommendedDiskSpaceGb: 8,
    env: { A: "1", B: "2" },
    ports: ["22:22"],
    dockerLoginPass: "registry-token-1",
    // Outputs stored beside the inputs in state:
    templateId: 12,
    hashId: "abc",
    creatorId: 1,
    createdAt: "2026-01-01T00:00:00.000Z",
    adopted: false,
    envFlags: "-e A=1 -e B=2 -p 22:22",
  };
  const news = { ...base, tag: "latest", runtype: "args", recommendedDiskSpaceGb: 8, env: { B: "2", A: "1" }, ports: ["22:22"], dockerLoginPass: "registry-token-1" };

  it("sees no change when only the serialized provider differs (a code-only change)", async () => {
    expect(await templateImpl.diff("12", olds, { ...news, __provider: "newer code" })).toEqual({
      changes: false,
      replaces: [],
      deleteBeforeReplace: undefined,
    });
  });

  it("lists a changed input as an in-place update, never a replacement", async () => {
    for (const change of [{ name: "renamed" }, { image: "other/image" }, { private: true }, { ports: ["22:22", "8080:8080"] }, { dockerLoginPass: "registry-token-2" }]) {
      const res = await templateImpl.diff("12", olds, { ...news, ...change });
      expect(res).toEqual({ changes: true, replaces: [], deleteBeforeReplace: undefined });
    }
  });

  it("counts a removed input as a change", async () => {
    const { env: _env, ...withoutEnv } = news;
    expect((await templateImpl.diff("12", olds, withoutEnv)).changes).toBe(true);
  });

  it("reports a change when a value is unknown during preview", async () => {
    expect((await templateImpl.diff("12", olds, { ...news, image: UNKNOWN })).changes).toBe(true);
  });
});
