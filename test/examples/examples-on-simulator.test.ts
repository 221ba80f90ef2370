/**
 * Issue 25 item 7: every example in examples/ runs against the simulator through the testing
 * kit, with the simulator options and configuration its README names: up, then destroy, and
 * nothing left behind. (The examples of docs/*.md: readme.test.ts, readme-blocks.test.ts and
 * readme-fleet.test.ts.)
 */
import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";
import * as pulumi from "@pulumi/pulumi";
import * as vastai from "pulumi-vastai";
import type { SimulatorOptions } from "pulumi-vastai/simulator";
import { startTestStack, type TestStack } from "pulumi-vastai/testing";
import { DEMO_PUBLIC_KEY } from "../../examples/demo/scenario";
import { scratchProject } from "../contract/harness";
import { FAST_PLUGIN_CONFIG } from "../support/plugin-timing";
import { onstartScript } from "../../provider/client";

const EXAMPLES = path.join(__dirname, "..", "..", "examples");

/** The example's index.ts as a program: compiled as written, its imports served from the package under test. */
function exampleProgram(name: string): () => Record<string, unknown> {
  const dir = path.join(EXAMPLES, name);
  const js = ts.transpileModule(fs.readFileSync(path.join(dir, "index.ts"), "utf8"), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  }).outputText;
  const modules: Record<string, unknown> = { "pulumi-vastai": vastai, "@pulumi/pulumi": pulumi, fs, path };
  const load = (id: string) => {
    const bare = id.replace(/^node:/, "");
    if (!(bare in modules)) throw new Error(`examples/${name} imports ${id}, which this test does not provide`);
    return modules[bare];
  };
  return () => {
    const exports: Record<string, unknown> = {};
    new Function("require", "exports", "__dirname", js)(load, exports, dir);
    return exports;
  };
}

/** One stack per example: its project name (the namespace of its config) and simulator options. */
async function stackFor(project: string, simulator: SimulatorOptions = {}): Promise<TestStack> {
  return startTestStack({ cwd: scratchProject().dir, project, simulator, config: FAST_PLUGIN_CONFIG });
}

async function upAndDestroy(stack: TestStack, name: string, config: Record<string, string>) {
  const up = await stack.up(exampleProgram(name), config);
  const failed = up.outcomes.filter((o) => o.outcome === "failed");
  expect(failed).toEqual([]);
  const destroyed = await stack.destroy();
  return { up, destroyed };
}

describe("issue 25 item 7: the examples run against the simulator", () => {
  let stack: TestStack | undefined;
  afterEach(async () => {
    await stack?.close();
    stack = undefined;
  });

  test("25.7 quickstart on the default simulator: a key, a template and one RTX 4090 instance", async () => {
    stack = await stackFor("vastai-quickstart");
    const { up } = await upAndDestroy(stack, "quickstart", { "vastai-quickstart:sshPublicKey": DEMO_PUBLIC_KEY });
    expect(up.outcomes.map((o) => `${o.type} ${o.name}`).sort()).toEqual(expect.arrayContaining(["Instance gpu", "SshKey laptop", "Template pytorch"]));
    expect(up.outputs.sshCommand).toMatch(/^ssh -p \d+ root@/);
    expect(stack.sim.state().instances).toEqual([]);
  }, 300_000);

  test("25.7 quickstart with fleetSize 3 needs --market-offers (cheap single-GPU offers)", async () => {
    stack = await stackFor("vastai-quickstart", { marketOffers: 12 });
    const { up } = await upAndDestroy(stack, "quickstart", { "vastai-quickstart:sshPublicKey": DEMO_PUBLIC_KEY, "vastai-quickstart:fleetSize": "3" });
    expect(up.outputs.fleetHealthy).toBe(3);
    expect(stack.sim.state().instances).toEqual([]);
  }, 300_000);

  test("25.7 gpu-fleet with --market-offers 40 and gpuName RTX A5000 (the simulator's 24 GB market GPU)", async () => {
    stack = await stackFor("vastai-gpu-fleet", { marketOffers: 40 });
    const { up } = await upAndDestroy(stack, "gpu-fleet", {
      "vastai-gpu-fleet:sshPublicKey": DEMO_PUBLIC_KEY,
      "vastai-gpu-fleet:gpuName": "RTX A5000",
      "vastai-gpu-fleet:hfToken": "hf_example_token",
    });
    expect(up.outputs.healthy).toBe(3);
    expect(up.outputs.wanted).toBe(3);
    expect(stack.sim.state().instances).toEqual([]);
  }, 300_000);

  test("25.7 host-maintenance on the default simulator: its 150 listed machines are the seeded account's", async () => {
    stack = await stackFor("vastai-host-maintenance");
    // The service takes a start within a year: a month from now, on the hour.
    const startTime = new Date(Math.ceil((Date.now() + 30 * 86_400_000) / 3_600_000) * 3_600_000).toISOString();
    const { up } = await upAndDestroy(stack, "host-maintenance", { "vastai-host-maintenance:startTime": startTime });
    expect(up.outputs.machines).toBe(150);
    expect(up.outputs.scheduled).toBe(150);
  }, 300_000);

  test("34 dev-box on the default simulator: the guard in its start command, a deadline two days out; stopped by its guard, preview and up leave it, wake starts it", async () => {
    stack = await stackFor("vastai-dev-box");
    const config = { "vastai-dev-box:sshPublicKey": DEMO_PUBLIC_KEY };
    const program = exampleProgram("dev-box");
    const up = await stack.up(program, config);
    expect(up.outcomes.filter((o) => o.outcome === "failed")).toEqual([]);
    expect(Date.parse(up.outputs.deadline as string)).toBeGreaterThan(Date.now() + 47 * 3600_000);
    expect(up.outputs).toMatchObject({ stoppedBy: null, expired: false });
    const id = Number(up.outputs.instanceId);
    const row = () => stack!.sim.state().instances.find((i) => Number(i.id) === id) as Record<string, unknown>;
    const onstart = onstartScript(String(row().onstart));
    expect(onstart).toContain("nvidia-smi > /workspace/gpu.txt");
    expect(onstart).toContain(up.outputs.deadline as string);
    // Its guard stops it (the call it makes: the instance's state set to stopped).
    const stop = await fetch(`${stack.sim.url}/api/v0/instances/${id}/`, {
      method: "PUT",
      headers: { authorization: `Bearer ${stack.sim.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ state: "stopped" }),
    });
    expect(stop.ok).toBe(true);
    const box = (r: { outcomes: { name: string; outcome: string }[] }) => r.outcomes.find((o) => o.name === "box")?.outcome;
    expect(box(await stack.preview(program, config))).toBe("unchanged");
    expect(box(await stack.up(program, config))).toBe("unchanged");
    expect(row()).toMatchObject({ intended_status: "stopped" });
    const woken = await stack.up(program, { ...config, "vastai-dev-box:wake": "back" });
    expect(box(woken)).toBe("updated");
    expect(row()).toMatchObject({ intended_status: "running", actual_status: "running" });
    await stack.destroy();
    expect(stack.sim.state().instances).toEqual([]);
  }, 300_000);

  test("25.7 account on the default simulator: subaccountUserId 10002 is a seeded subaccount", async () => {
    stack = await stackFor("vastai-account");
    const { up } = await upAndDestroy(stack, "account", {
      "vastai-account:hfToken": "hf_example_token",
      "vastai-account:subaccountUserId": "10002",
    });
    expect(up.outputs.rotatedSubaccounts).toEqual([10002]);
    expect(up.outputs.pytorchTemplates).toEqual([expect.objectContaining({ name: "PyTorch (CUDA)" })]);
  }, 300_000);
});
