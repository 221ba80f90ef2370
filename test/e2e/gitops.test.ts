/**
 * issue 24 item 2: the GitOps workflow of examples/gpu-fleet (reconcile.yml) against the
 * simulator. Its "Check the fleet" step runs as written (bash, `pulumi stack output`); the two
 * steps that run the program (`pulumi preview --refresh --diff`, `pulumi up --refresh --yes`)
 * run the same operations through the Automation API with the program inline, since a
 * `pulumi` run in a project directory needs the Node.js language host, which
 * `npm run pulumi-cli` cannot build (see docs/development.md, "End-to-end tests and CI"). When the fleet cannot be made
 * whole, the `pulumi up` step itself fails (the Fleet's update fails), so the job goes red before
 * its check step runs.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { parse } from "yaml";
import { startSimulator, type Simulator } from "pulumi-vastai/simulator";
import { CLI_BIN, describeE2E, e2eStack, exampleProgram, PUBLIC_KEY, REPO, simControl, type E2EStack } from "./harness";

const PROJECT = "vastai-gpu-fleet";
const WORKERS = 2;

interface Workflow {
  jobs: { reconcile: { steps: Array<{ name?: string; run?: string }> } };
}

/** The shell of the workflow step `name`. */
function stepScript(name: string): string {
  const workflow = parse(fs.readFileSync(path.join(REPO, "examples", "gpu-fleet", "reconcile.yml"), "utf8")) as Workflow;
  const step = workflow.jobs.reconcile.steps.find((s) => s.name === name);
  if (!step?.run) throw new Error(`reconcile.yml has no step "${name}" with a run script`);
  return step.run;
}

/** Runs a step's shell as the job would (bash -e), with the stack's environment. */
function runStep(stack: E2EStack, name: string, summary: string): Promise<{ code: number; out: string }> {
  const env = { ...process.env, ...stack.env, PATH: `${CLI_BIN}${path.delimiter}${process.env.PATH ?? ""}`, PULUMI_STACK: "e2e", GITHUB_STEP_SUMMARY: summary };
  return new Promise((resolve) => {
    execFile("bash", ["-e", "-c", stepScript(name)], { cwd: stack.work, env }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, out: `${stdout}${stderr}` });
    });
  });
}

describeE2E("issue 24 item 2: the gpu-fleet GitOps workflow (reconcile.yml) against the simulator", () => {
  let sim: Simulator;
  let stack: E2EStack;
  let summary: string;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, bootMs: 50, marketOffers: 16 });
    stack = await e2eStack({
      project: PROJECT,
      program: exampleProgram("gpu-fleet"),
      sim,
      config: {
        [`${PROJECT}:sshPublicKey`]: PUBLIC_KEY,
        [`${PROJECT}:hfToken`]: { value: "hf_gitops_token", secret: true },
        [`${PROJECT}:workers`]: String(WORKERS),
        // Four such machines in the simulator's bulk market: room to heal onto another one.
        [`${PROJECT}:gpuName`]: "RTX A5000",
        [`${PROJECT}:gpuRamGb`]: "20",
      },
    });
    summary = path.join(stack.dir, "summary.md");
    await stack.up();
  });
  afterAll(async () => {
    await stack?.destroy().catch(() => undefined);
    await stack?.close();
    await sim?.close();
  });

  test("24.2 a dead member: the drift summary shows the fleet to update, up --refresh heals it, the check step passes", async () => {
    const before = (await stack.stack.outputs()).instanceIds.value as number[];
    await simControl(sim, "POST", `/instances/${before[0]}/status`, { actual_status: "exited" });

    // "Drift summary": pulumi preview --refresh --diff
    const drift = await stack.preview({ refresh: true });
    expect(drift.ops["Fleet workers"]).toEqual(["refresh", "update"]);
    expect(drift.result.changeSummary.update).toBe(1);

    // "pulumi up --refresh --yes"
    const up = await stack.up({ refresh: true });
    expect(up.ops["Fleet workers"]).toEqual(["refresh", "update"]);
    expect(up.outputs.healthy).toBe(WORKERS);
    expect(up.outputs.instanceIds).not.toContain(before[0]);

    // "Check the fleet", as written.
    const check = await runStep(stack, "Check the fleet", summary);
    expect(check).toEqual({ code: 0, out: `healthy members: ${WORKERS} of ${WORKERS}\n` });
    expect(fs.readFileSync(summary, "utf8")).toContain(`healthy members: ${WORKERS} of ${WORKERS}`);
  });

  test("24.2 fewer members can run than wanted: the up step fails (the job goes red before the check step)", async () => {
    // Another member dies and every new boot dies too: the reconcile cannot make up the count.
    const members = (await stack.stack.outputs()).instanceIds.value as number[];
    await simControl(sim, "POST", "/next-boot", { actual_status: "exited", times: 100 });
    await simControl(sim, "POST", `/instances/${members[0]}/status`, { actual_status: "exited" });
    const failure = await stack.up({ refresh: true }).then(
      () => "the up succeeded",
      (err: Error) => err.message,
    );
    expect(failure).toContain("pulumi-nodejs:dynamic/vastai:Fleet workers **updating failed**");
    expect(failure).toContain("update failed");
    // The failed up records no new stack outputs: the check step would read the last good run's.
    expect((await stack.stack.outputs()).healthy.value).toBe(WORKERS);
  });
});
