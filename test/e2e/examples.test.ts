/**
 * issue 24 item 2: examples/gpu-fleet, examples/account, examples/host-maintenance and a
 * program with Volume, Endpoint/WorkerGroup and Webhook under the real Pulumi CLI: up, a
 * second up with no changes, the stack export free of plain secrets, destroy.
 */
import { SEED, startSimulator, type Simulator } from "pulumi-vastai/simulator";
import { describeE2E, e2eStack, exampleProgram, PUBLIC_KEY, type E2EStack, type Program } from "./harness";
import { ENV_SECRET, REGISTRY_PASSWORD, serverlessProgram } from "./programs/serverless";
import { expectNoPlainSecrets } from "./secrets";

const HF_TOKEN = "hf_e2e_token_0c9d51";

interface Case {
  title: string;
  project: string;
  program: () => Program;
  config: Record<string, string | { value: string; secret?: boolean }>;
  /** Secrets the export must not show: fixed ones and stack outputs known to be secret. */
  secrets: (sim: Simulator, outputs: Record<string, unknown>) => string[];
}

const CASES: Case[] = [
  {
    title: "examples/gpu-fleet",
    project: "vastai-gpu-fleet",
    program: () => exampleProgram("gpu-fleet"),
    config: {
      "vastai-gpu-fleet:sshPublicKey": PUBLIC_KEY,
      "vastai-gpu-fleet:hfToken": { value: HF_TOKEN, secret: true },
      "vastai-gpu-fleet:workers": "2",
      // The simulator's catalogue has one verified RTX 4090; its bulk market has four RTX A5000 (24 564 MB).
      "vastai-gpu-fleet:gpuName": "RTX A5000",
      "vastai-gpu-fleet:gpuRamGb": "20",
    },
    secrets: (sim) => [sim.apiKey, HF_TOKEN],
  },
  {
    title: "examples/account",
    project: "vastai-account",
    program: () => exampleProgram("account"),
    config: {
      "vastai-account:hfToken": { value: HF_TOKEN, secret: true },
      "vastai-account:subaccountUserId": String(SEED.subaccounts[0].userId),
      "vastai-account:deploymentId": String(SEED.deployment.id),
      "vastai-account:workerGroupId": String(SEED.workerGroup.id),
    },
    secrets: (sim, outputs) => [sim.apiKey, HF_TOKEN, String(outputs.ciApiKey)],
  },
  {
    title: "examples/host-maintenance",
    project: "vastai-host-maintenance",
    program: () => exampleProgram("host-maintenance"),
    config: { "vastai-host-maintenance:startTime": new Date(Date.now() + 30 * 86_400_000).toISOString() },
    secrets: (sim) => [sim.apiKey],
  },
  {
    title: "Volume, Endpoint/WorkerGroup and Webhook",
    project: "vastai-serverless",
    program: serverlessProgram,
    config: {},
    secrets: (sim, outputs) => [sim.apiKey, REGISTRY_PASSWORD, ENV_SECRET, String(outputs.endpointApiKey), String(outputs.webhookSecret)],
  },
];

describeE2E.each(CASES)("issue 24 item 2: $title under the real engine", (c) => {
  let sim: Simulator;
  let stack: E2EStack;
  let outputs: Record<string, unknown>;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, bootMs: 50, marketOffers: 16 });
    stack = await e2eStack({ project: c.project, program: c.program(), sim, config: c.config });
  });
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
  });

  test("24.2 up creates every resource", async () => {
    const up = await stack.up();
    expect(Object.keys(up.ops).length).toBeGreaterThan(0);
    expect(new Set(Object.values(up.ops).flat())).toEqual(new Set(["create"]));
    outputs = up.outputs;
  });

  test("24.2 a second up changes nothing (--expect-no-changes)", async () => {
    const up = await stack.up({ expectNoChanges: true });
    expect(new Set(Object.values(up.ops).flat())).toEqual(new Set(["same"]));
  });

  test("24.2 stack export: secrets only encrypted, __provider in the clear without secrets", async () => {
    const secrets = c.secrets(sim, outputs).filter((s) => s !== "undefined" && s !== "");
    expectNoPlainSecrets(await stack.exportText(), secrets);
  });

  test("24.2 destroy deletes every resource", async () => {
    const { ops } = await stack.destroy();
    expect(new Set(Object.values(ops).flat())).toEqual(new Set(["delete"]));
    const history = await stack.stack.exportStack();
    expect((history.deployment as { resources?: unknown[] }).resources ?? []).toEqual([]);
  });
});
