import * as fs from "fs";
import * as path from "path";
import { DEMO_PUBLIC_KEY } from "../../examples/demo/scenario";
import { runExample, type ExampleRun } from "./run-example";

let run: ExampleRun;
const dir = path.join(__dirname, "../../examples/gpu-fleet");

beforeAll(async () => {
  run = await runExample({
    project: "vastai-gpu-fleet",
    config: {
      "vastai-gpu-fleet:sshPublicKey": DEMO_PUBLIC_KEY,
      "vastai-gpu-fleet:hfToken": "hf_example_token",
      "vastai-gpu-fleet:workers": "4",
    },
    load: () => require("../../examples/gpu-fleet/index"),
  });
});

test("declares one Fleet of `workers` members from the filters and template, spread one per machine, under a budget", () => {
  expect(run.ofType("Instance")).toEqual([]);
  const fleet = run.get("Fleet", "workers");
  const template = run.get("Template", "vllm");
  expect(fleet.inputs).toMatchObject({
    count: 4,
    offer: { gpuName: "RTX 4090", numGpus: 1, gpuRamGb: 24, minReliability: 0.97, verified: true },
    templateHashId: template.outputs.hashId,
    sshKeyIds: [run.get("SshKey", "operator").outputs.keyId],
    spread: { by: "machine", max: 1 },
    maxPricePerHour: 0.7,
    maxHourlyCost: 2.8,
    minHealthy: 3,
  });
});

test("passes the token to every member as a secret environment variable", () => {
  const fleet = run.get("Fleet", "workers");
  expect(fleet.inputs.env).toEqual({ HF_TOKEN: "hf_example_token", MODEL: "meta-llama/Llama-3.1-8B-Instruct" });
  expect(fleet.secretInputs).toContain("env");
});

test("exports one SSH command per member, the fleet's hourly cost and how many run", () => {
  expect(run.outputs.sshCommands).toHaveLength(4);
  expect(run.outputs.hourlyCost).toBe(1);
  expect(run.outputs.healthy).toBe(4);
  expect(run.outputs.wanted).toBe(4);
});

test("ships a workflow that refreshes, summarises drift, runs up on a schedule and fails when the fleet is short", () => {
  const workflow = fs.readFileSync(path.join(dir, "reconcile.yml"), "utf8");
  expect(workflow).toMatch(/schedule:\s*\n\s*- cron: "[^"]+"/);
  expect(workflow).toContain("pulumi preview --refresh --diff");
  expect(workflow).toContain("GITHUB_STEP_SUMMARY");
  expect(workflow).toContain("pulumi up --refresh --yes");
  expect(workflow).toMatch(/healthy.*wanted[\s\S]*exit 1/);
});

test("ships a Pulumi Kubernetes Operator Stack with a resync period and the API key from a Secret", () => {
  const stack = fs.readFileSync(path.join(dir, "operator", "stack.yaml"), "utf8");
  expect(stack).toContain("kind: Stack");
  expect(stack).toMatch(/resyncFrequencySeconds: \d+/);
  expect(stack).toMatch(/VAST_API_KEY:\s*\n\s*type: Secret/);
  expect(stack).toContain("refresh: true");
});
