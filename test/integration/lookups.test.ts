/** Every lookup against the simulator over HTTP, their Output variants, and where they get credentials. */
import * as pulumi from "@pulumi/pulumi";
import { SEED } from "pulumi-vastai/simulator";
import {
  acceptBundle,
  getAutoscalerTemplates,
  getDeploymentVersions,
  getEarningsChart,
  getInstances,
  getMachine,
  getSecrets,
  getTemplates,
  getTemplatesOutput,
  getWorkerGroupLogs,
  getWorkerGroupLogsOutput,
  searchOffers,
  searchOffersOutput,
} from "../../provider/lookups";
import { resetRuntime } from "../../provider/context";
import { failureOf } from "./account-resources-support";
import { useSimulator } from "../support/simulator";

const h = useSimulator({ providers: true });

function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply((v) => resolve(v)));
}

async function lastRequest(pathStart: string) {
  const matching = (await h.requests()).filter((r) => r.path.startsWith(pathStart));
  return matching[matching.length - 1];
}

describe("getTemplates", () => {
  it("finds templates by a field's value and sends it as select_filters", async () => {
    const found = await getTemplates({ name: "PyTorch (CUDA)" });
    expect(found.map((t) => [t.id, t.name])).toEqual([[101, "PyTorch (CUDA)"]]);
    expect(found[0].hashId).toEqual(expect.any(String));
    const request = await lastRequest("/api/v0/template");
    expect(JSON.parse(String(request.query.select_filters))).toEqual({ name: { eq: "PyTorch (CUDA)" } });
  });

  it.each([
    ["gte", { countCreated: { gte: 3000 } }, [101, 102]],
    ["lt", { countCreated: { lt: 2000 } }, [104]],
    ["in", { id: { in: [101, 104] } }, [101, 104]],
    ["notin", { id: { notin: [101, 104] } }, [102, 103]],
    ["neq on a boolean", { jupDirect: { neq: true } }, [101, 102, 103]],
  ])("applies %s", async (_op, filters, ids) => {
    const found = await getTemplates(filters);
    expect(found.map((t) => t.id).sort()).toEqual(ids);
  });

  it("refuses a field the service cannot search, before any request", async () => {
    await h.clearRequests();
    expect(await failureOf(getTemplates({ imageName: "x" } as never))).toMatch(/^template filter "imageName" is not searchable; use one of creatorId, /);
    expect(await h.requests()).toEqual([]);
  });

  it("has an Output variant that takes Pulumi inputs", async () => {
    const found = await valueOf(getTemplatesOutput({ image: pulumi.output("vllm/vllm-openai") }));
    expect(found.map((t) => t.id)).toEqual([102]);
  });
});

describe("searchOffers", () => {
  it("converts gpuRamGb to MB and returns matching offers", async () => {
    const offers = await searchOffers({ filters: { gpuRamGb: { gte: 80 } }, order: [["dphTotal", "asc"]] });
    expect(offers.length).toBeGreaterThan(0);
    expect(offers.every((o) => (o.gpuRamMb ?? 0) >= 80000)).toBe(true);
    expect(offers.map((o) => o.dphTotal)).toEqual([...offers.map((o) => o.dphTotal)].sort((a, b) => a! - b!));
    expect((await lastRequest("/api/v0/bundles")).body).toMatchObject({ gpu_ram: { gte: 80000 }, order: [["dph_total", "asc"]] });
  });

  it("applies the vendor client's defaults: no rented or unverified offer unless asked, score order, priced disk", async () => {
    const rented = SEED.offerIds[0];
    await h.control("POST", `/offers/${rented}`, { state: "unavailable" });
    const offers = await searchOffers({ allocatedStorageGb: 100 });
    expect(offers.map((o) => o.id)).not.toContain(rented);
    expect(offers.every((o) => o.rented === false && o.raw.verified === true)).toBe(true);
    expect((await lastRequest("/api/v0/bundles")).body).toMatchObject({
      verified: { eq: true },
      external: { eq: false },
      rentable: { eq: true },
      rented: { eq: false },
      order: [["score", "desc"]],
      allocated_storage: 100,
    });
    expect((await searchOffers({ noDefaults: true })).map((o) => o.id)).toContain(rented);
  });

  it("has an Output variant", async () => {
    const offers = await valueOf(searchOffersOutput({ filters: { gpuName: "RTX 3090", numGpus: 1 } }));
    expect(offers.map((o) => o.id)).toEqual([700005]);
  });
});

it("getInstances lists the account's instances", async () => {
  expect(await getInstances()).toEqual([]);
  const { id } = await h.client.instances.create(SEED.offerIds[0], { image: "ubuntu:22.04", label: "probe" });
  expect((await getInstances()).map((i) => [i.id, i.label])).toEqual([[id, "probe"]]);
});

describe("getMachine", () => {
  it("returns a machine the account hosts", async () => {
    const machine = await getMachine(SEED.hostedMachineIds[0]);
    expect(machine.id).toBe(SEED.hostedMachineIds[0]);
    expect(machine.raw).toMatchObject({ machine_id: SEED.hostedMachineIds[0] });
  });

  it("says so when the account does not host the machine", async () => {
    expect(await failureOf(getMachine(SEED.foreignMachineId))).toBe(
      `getMachine: machine ${SEED.foreignMachineId} is not a machine this account hosts (the service found none with that id)`,
    );
  });

  it("refuses an id that is not a positive integer, before any request", async () => {
    expect(await failureOf(getMachine(-3))).toBe("getMachine: machineId must be a positive integer (got -3)");
  });
});

it("getSecrets returns names and whether each is set, never values", async () => {
  await h.client.secrets.add("hf_token", "value-that-stays-hidden");
  // The service stores no empty value; a list that shows one (null) is read as not set.
  await h.fault({ method: "GET", path: "/api/v0/secrets/", status: 200, body: { success: true, secrets: { EMPTY: null, HF_TOKEN: "********" } } });
  const secrets = await getSecrets();
  expect(secrets).toEqual([
    { name: "EMPTY", isSet: false },
    { name: "HF_TOKEN", isSet: true },
  ]);
  expect(JSON.stringify(secrets)).not.toContain("value-that-stays-hidden");
});

it("getAutoscalerTemplates returns the user's and the recommended templates", async () => {
  const templates = await getAutoscalerTemplates(SEED.user.id);
  expect(templates.autoscaler.map((t) => t.id)).toEqual([...SEED.autoscalerTemplateIds]);
  expect(templates.recommended.map((t) => t.id)).toEqual([...SEED.recommendedAutoscalerTemplateIds]);
});

describe("getDeploymentVersions", () => {
  it("lists versions newest first", async () => {
    const versions = await getDeploymentVersions(SEED.deployment.id);
    expect(versions.map((v) => v.id)).toEqual([...SEED.deployment.versionIds]);
    expect(versions[0].createdAt).toBeGreaterThan(versions[1].createdAt);
  });

  it("quotes the service for a deployment of another account", async () => {
    expect(await failureOf(getDeploymentVersions(SEED.foreignDeploymentId))).toMatch(
      new RegExp(`^GET /api/v0/deployment/${SEED.foreignDeploymentId}/versions/ failed: HTTP 404 not_found: Deployment ${SEED.foreignDeploymentId} not found\\.`),
    );
  });
});

describe("getEarningsChart", () => {
  it("returns the series for the window asked", async () => {
    const chart = await getEarningsChart({ start: 1735689600, end: 1735689600 + 7 * 86400, bucket: "day", unused: undefined });
    expect(chart.success).toBe(true);
    expect(chart.raw.series).toHaveLength(7);
    expect((await lastRequest("/api/v1/user/earnings/chart")).query).toEqual({ start: "1735689600", end: "1736294400", bucket: "day" });
  });

  it("shows the service's {detail} message for a bad parameter", async () => {
    expect(await failureOf(getEarningsChart({ bucket: "fortnight" }))).toMatch(
      /^GET \/api\/v1\/user\/earnings\/chart failed: HTTP 422: bucket must be one of hour, day, week \(got "fortnight"\)/,
    );
  });
});

describe("getWorkerGroupLogs", () => {
  it("returns the last `tail` lines", async () => {
    const { logs, lines } = await getWorkerGroupLogs({ workerGroupId: SEED.workerGroup.id, tail: 5 });
    expect(lines).toHaveLength(5);
    expect(logs).toBe(lines.join("\n"));
    expect(lines[4]).toMatch(/request 200 handled/);
  });

  it("has an Output variant", async () => {
    const result = await valueOf(getWorkerGroupLogsOutput({ workerGroupId: pulumi.output(SEED.workerGroup.id), tail: 2 }));
    expect(result.lines).toHaveLength(2);
  });

  it("shows the service's {error_msg} message for an unknown group", async () => {
    expect(await failureOf(getWorkerGroupLogs({ workerGroupId: 999 }))).toBe(
      "POST /get_workergroup_logs failed: the service answered HTTP 200 with an error message instead of a result: " +
        "authenticate_workergroup_apikey: invalid api_key or workergroup 999 not found",
    );
  });
});

it("acceptBundle reaches the disabled endpoint, which answers {}", async () => {
  expect(await acceptBundle(700001, { price: 0.3, maxStart: 3600, minDuration: 86400 })).toEqual({});
  expect((await lastRequest("/api/v0/bundles/700001")).body).toEqual({ price: 0.3, max_start: 3600, min_duration: 86400 });
});

describe("where a lookup gets its client", () => {
  it("uses options.client when given", async () => {
    const solo = h.clientWith({ apiKey: SEED.unapprovedUser.apiKey });
    await solo.secrets.add("SOLO_ONLY", "x");
    expect((await getSecrets({ client: solo })).map((s) => s.name)).toEqual(["SOLO_ONLY"]);
    expect(await getSecrets()).toEqual([]);
  });

  it("falls back to VAST_API_KEY and VAST_URL from the environment", async () => {
    const saved = { key: process.env.VAST_API_KEY, url: process.env.VAST_URL };
    resetRuntime();
    process.env.VAST_API_KEY = SEED.unapprovedUser.apiKey;
    process.env.VAST_URL = h.sim.url;
    try {
      await h.clientWith({ apiKey: SEED.unapprovedUser.apiKey }).secrets.add("FROM_ENV", "x");
      expect((await getSecrets()).map((s) => s.name)).toEqual(["FROM_ENV"]);
    } finally {
      for (const [name, value] of [["VAST_API_KEY", saved.key], ["VAST_URL", saved.url]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
