import * as fs from "fs";
import * as path from "path";
import { DEMO_PUBLIC_KEY } from "../../examples/demo/scenario";
import { runExample, type ExampleRun } from "./run-example";

let run: ExampleRun;

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

test("registers as many identical instances as `workers`, all from the same filters and template", () => {
  const workers = run.ofType("Instance");
  expect(workers.map((w) => w.name)).toEqual(["worker-0", "worker-1", "worker-2", "worker-3"]);
  const template = run.get("Template", "vllm");
  for (const w of workers) {
    expect(w.inputs.offer).toEqual({ gpuName: "RTX 4090", numGpus: 1, gpuRamGb: 24, maxPricePerHour: 0.7, minReliability: 0.97, verified: true });
    expect(w.inputs.templateHashId).toBe(template.outputs.hashId);
    expect(w.inputs.sshKeyIds).toEqual([run.get("SshKey", "operator").outputs.keyId]);
  }
});

test("passes the token to every instance as a secret environment variable", () => {
  for (const w of run.ofType("Instance")) {
    expect(w.inputs.env).toEqual({ HF_TOKEN: "hf_example_token", MODEL: "meta-llama/Llama-3.1-8B-Instruct" });
    expect(w.secretInputs).toContain("env");
  }
});

test("exports one SSH command per worker and the fleet's hourly cost", () => {
  expect(run.outputs.sshCommands).toHaveLength(4);
  expect(run.outputs.hourlyCost).toBe(1);
});

test("ships a workflow that runs pulumi up --refresh --yes on a schedule", () => {
  const workflow = fs.readFileSync(path.join(__dirname, "../../examples/gpu-fleet/reconcile.yml"), "utf8");
  expect(workflow).toMatch(/schedule:\s*\n\s*- cron: "[^"]+"/);
  expect(workflow).toContain("pulumi up --refresh --yes");
});
