/**
 * The recipe the package ships for the CLI `npm run pulumi-cli` builds (no Node.js language
 * host): `runInline` from `pulumi-vastai/automation` runs a user's program under it through the
 * Automation API. Against the simulator: `up` creates an Instance and prints the boot's progress
 * (the service's status and message) as the engine shows it; after the instance dies, `preview`
 * prints the replacement with the property that forces it.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { runInline } from "pulumi-vastai/automation";
import { startSimulator, type Simulator } from "pulumi-vastai/simulator";
import { CLI_BIN, PASSPHRASE, REPO, describeE2E, linkPackages, simConfig, simControl } from "./harness";

describeE2E("pulumi-vastai/automation runs a program under the built CLI", () => {
  let sim: Simulator;
  let dir: string;
  beforeAll(async () => {
    sim = await startSimulator({ port: 0, bootMs: 3_000 });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "vastai-recipe-"));
    fs.mkdirSync(path.join(dir, "state"));
    fs.mkdirSync(path.join(dir, "home"));
    fs.mkdirSync(path.join(dir, "work"));
    linkPackages(path.join(dir, "work"), REPO);
  });
  afterAll(async () => {
    await sim?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("up shows the boot's progress; a dead instance's replacement names actualStatus", async () => {
    const program = async () => {
      const vastai = require("pulumi-vastai") as typeof import("pulumi-vastai");
      const gpu = new vastai.Instance("gpu", { offerId: 700002, image: "pytorch/pytorch" });
      return { id: gpu.id };
    };
    const base = {
      program, projectName: "recipe", stackName: "dev", cli: path.join(CLI_BIN, "pulumi"), workDir: path.join(dir, "work"),
      envVars: { PULUMI_BACKEND_URL: `file://${path.join(dir, "state")}`, PULUMI_CONFIG_PASSPHRASE: PASSPHRASE, PULUMI_HOME: path.join(dir, "home") },
    };
    let printed = "";
    const outputs = await runInline({ ...base, config: { ...simConfig(sim), "vastai:pollIntervalMs": { value: "100" } }, onOutput: (t) => (printed += t) });
    expect(String(outputs.id)).toMatch(/^\d+$/);
    expect(printed).toMatch(/\+ +pulumi-nodejs:dynamic\/vastai:Instance +gpu +created/);
    expect(printed).toContain(`Instance ${outputs.id}: loading, "Pulling the image"`);

    await simControl(sim, "POST", `/instances/${outputs.id}/status`, { actual_status: "exited" });
    printed = "";
    await runInline({ ...base, operation: "preview", onOutput: (t) => (printed += t) });
    expect(printed).toMatch(/\+-[^\n]*vastai:Instance +gpu +replace +\[diff: ~actualStatus\]/);
    await runInline({ ...base, operation: "destroy", onOutput: () => undefined });
  }, 300_000);
});
