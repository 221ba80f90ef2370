/**
 * The account example's resources run under mocks; its lookups are real reads against the
 * simulator (they are plain client calls, not resources).
 */
import { setClientOptions } from "pulumi-vastai";
import { SEED, startSimulator, type Simulator } from "pulumi-vastai/simulator";
import { resetRuntime } from "../../provider/context";
import { FAKE_NONCE, runExample, type ExampleRun } from "./run-example";

let sim: Simulator;
let run: ExampleRun;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  setClientOptions({ apiKey: sim.apiKey, apiUrl: sim.url, runUrl: sim.runUrl, pacing: false });
  run = await runExample({
    project: "vastai-account",
    config: {
      "vastai-account:hfToken": "hf_example_token",
      "vastai-account:subaccountUserId": String(SEED.subaccounts[0].userId),
      "vastai-account:deploymentId": String(SEED.deployment.id),
      "vastai-account:workerGroupId": String(SEED.workerGroup.id),
    },
    load: () => require("../../examples/account/index"),
  });
}, 30_000);

afterAll(async () => {
  resetRuntime();
  await sim?.close();
});

test("declares two account environment variables, the token's value as a secret", () => {
  expect(run.ofType("EnvVar").map((e) => e.inputs.key).sort()).toEqual(["HF_TOKEN", "default_region"]);
  const token = run.get("EnvVar", "hf-token");
  expect(token.inputs.value).toBe("hf_example_token");
  expect(token.secretInputs).toContain("value");
});

test("declares a CI key that manages instances but not billing, rotated by a date", () => {
  expect(run.get("ApiKey", "ci").inputs).toEqual({
    name: "ci-deployer",
    permissions: { instances: "write", user: "read" },
    rotateOn: "2025-01",
    // The identity every resource gives its provider, from which creates derive their marker:
    // the stack identity's nonce, the type and the name.
    __identity: `stack:${FAKE_NONCE}/ApiKey/ci`,
  });
});

test("rotates the configured subaccount's key", () => {
  expect(run.get("SubaccountKeyRotation", "build-bot").inputs).toMatchObject({ subaccountUserId: SEED.subaccounts[0].userId, triggers: "1" });
  expect(run.outputs.rotatedSubaccounts).toEqual([SEED.subaccounts[0].userId]);
});

test("looks up the public PyTorch template and the three cheapest matching offers", () => {
  expect(run.outputs.pytorchTemplates).toEqual([{ hashId: expect.any(String), name: "PyTorch (CUDA)" }]);
  const offers = run.outputs.cheapestRtx4090 as { offerId: number; pricePerHour: number }[];
  expect(offers.map((o) => o.offerId)).toEqual([700001, 700002, 700003]);
  expect(offers.map((o) => o.pricePerHour)).toEqual([...offers.map((o) => o.pricePerHour)].sort((a, b) => a - b));
});

test("lists the deployment's versions newest first and the worker group's last 20 log lines", () => {
  expect(run.outputs.deploymentVersions).toEqual(["v1.2.0", "v1.1.0", "v1.0.0"]);
  expect(run.outputs.recentWorkerLogs).toHaveLength(20);
});
