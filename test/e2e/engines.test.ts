/**
 * issue 24 item 3: one program (the quickstart with a fleet, the demo's story: up, a dead
 * instance and two dead fleet members then up, a template tag change then up, destroy) under
 * the real Pulumi CLI and under the offline engine of `pulumi-vastai/testing`, each against a
 * simulator of its own; every step must have the same outcome for every resource under both.
 * Prints both tables (with each step's wall time).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startSimulator, type Simulator } from "pulumi-vastai/simulator";
import { formatTable, OfflineEngine, startProviderPlugin, type StepRow } from "pulumi-vastai/testing";
import { CliEngine } from "../../examples/demo/cli-engine";
import { runScenario, type Driver } from "../../examples/demo/scenario";
import { CLI_BIN, describeE2E, exampleProgram, linkPackages, REPO } from "./harness";

const PROJECT = "vastai-quickstart";

/** A project directory with this checkout installed, removed after `use`. */
async function inProject<T>(use: (dir: string) => Promise<T>): Promise<T> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vastai-engines-"));
  try {
    linkPackages(dir, REPO);
    return await use(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function scenario(makeDriver: (dir: string) => Promise<Driver>): Promise<StepRow[]> {
  const sim: Simulator = await startSimulator({ port: 0, bootMs: 300, marketOffers: 16 });
  try {
    return await inProject(async (dir) => {
      const driver = await makeDriver(dir);
      try {
        return await runScenario(driver, { sim, project: PROJECT, log: () => {} });
      } finally {
        await driver.close();
      }
    });
  } finally {
    await sim.close();
  }
}

describeE2E("issue 24 item 3: the offline engine and the real engine agree step by step", () => {
  test("24.3 the demo's scenario has the same outcomes, resource by resource, under pulumi and the offline engine", async () => {
    const program = exampleProgram("quickstart");
    const real = await scenario(async (dir) => {
      const engine = await CliEngine.create(dir, PROJECT, "e2e", program, path.join(CLI_BIN, "pulumi"));
      return { up: (c, s) => engine.up(c, s), destroy: () => engine.destroy(), close: () => engine.close() };
    });
    const offline = await scenario(async (dir) => {
      const startPlugin = () => startProviderPlugin({ cwd: dir, env: { VAST_API_KEY: undefined, VAST_URL: undefined, VAST_RUN_URL: undefined } });
      const engine = new OfflineEngine(startPlugin, { project: PROJECT, stack: "e2e" });
      return { up: (c, s) => engine.up(program, c, s), destroy: () => engine.destroy(), close: async () => {} };
    });
    process.stdout.write(`real engine (pulumi ${CLI_BIN}):\n${formatTable(real)}\n\noffline engine:\n${formatTable(offline)}\n`);
    expect(real.map((r) => r.title)).toEqual(offline.map((r) => r.title));
    for (const [i, row] of real.entries()) {
      // What happened to each resource (the offline report also names secret outputs; the CLI's events do not).
      const sorted = (rows: StepRow) =>
        rows.outcomes.map(({ type, name, outcome }) => ({ type, name, outcome })).sort((a, b) => `${a.type} ${a.name}`.localeCompare(`${b.type} ${b.name}`));
      expect({ step: row.title, outcomes: sorted(offline[i]) }).toEqual({ step: row.title, outcomes: sorted(row) });
    }
  }, 600_000);
});
