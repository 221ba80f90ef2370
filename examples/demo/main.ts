/**
 * `npm run demo`: the quickstart stack against the embedded simulator, through create,
 * replace (a dead instance), update (a template edit) and delete. Uses the Pulumi CLI when it
 * is installed, else the offline walk-through. Exit code 0 on success; on failure, one line
 * with the reason and exit code 1.
 */
import { startSimulator, type Simulator } from "pulumi-vastai/simulator";
import { formatTable } from "pulumi-vastai/testing";
import { cliFailureReason, findPulumi } from "./cli-engine";
import { cliDriver, offlineDriver, readProject, repoRoot } from "./drivers";
import { runScenario, type Driver } from "./scenario";

const INSTALL_HINT = [
  "Build the Pulumi CLI into .pulumi/bin with `npm run pulumi-cli` (needs Go), or install it",
  "(https://www.pulumi.com/docs/iac/download-install/):",
  "  curl -fsSL https://get.pulumi.com | sh      (Linux, macOS)",
  "  brew install pulumi/tap/pulumi              (macOS)",
  "  winget install pulumi                       (Windows)",
  "then run `npm run demo` again.",
].join("\n");

const log = (line = "") => process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  const started = Date.now();
  const root = repoRoot();
  const project = readProject(root);
  const cli = await findPulumi(root);
  // 16 more single-GPU offers (the bulk market), so the fleet has machines of its own to rent and heal onto.
  const sim = await startSimulator({ port: 0, bootMs: 300, marketOffers: 16 });
  let driver: Driver | undefined;
  let usingCli = false;
  try {
    log(`pulumi-vastai demo: the quickstart stack (${project.main}) against the local simulator at ${sim.url}`);
    if (cli) {
      usingCli = true;
      log(`Pulumi CLI ${cli.version} found (${cli.command}): running pulumi up / destroy on a throwaway stack with a local file backend.`);
      driver = await cliDriver(root, project, cli.command);
    } else {
      log("The Pulumi CLI is not installed, so this is the OFFLINE WALK-THROUGH: the same program runs under");
      log("Pulumi's test mocks, and every resource goes through Pulumi's real dynamic-provider plugin (check, diff,");
      log("create, update, delete over gRPC) against the simulator. No preview, no refresh, state kept in memory.");
      log(INSTALL_HINT);
      driver = await offlineDriver(root, project);
    }
    log();
    const rows = await runScenario(driver, { sim, project: project.name, log });
    log();
    log(formatTable(rows));
    log();
    log(`Done in ${((Date.now() - started) / 1000).toFixed(1)} s (${usingCli ? "Pulumi CLI" : "offline walk-through"}); nothing left on the simulator.`);
  } catch (err) {
    throw usingCli ? new Error(cliFailureReason(err)) : err;
  } finally {
    await shutDown(driver, sim);
  }
}

async function shutDown(driver: Driver | undefined, sim: Simulator): Promise<void> {
  try {
    await driver?.close();
  } finally {
    await sim.close();
  }
}

function reason(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

// The reason, never a stack trace. A stray rejection inside the SDK counts as a failure too,
// but the run's own failure, when there is one, is the reason given: a resource that failed
// offline leaves its outputs empty, and a program's apply over them (say `members.map`) then
// throws where the Pulumi CLI would never have run it.
let stray: unknown;
let strayCount = 0;
process.on("unhandledRejection", (err) => {
  if (strayCount++ === 0) stray = err;
});

main().then(
  () => {
    if (strayCount === 0) process.exit(0);
    process.stderr.write(`demo failed: ${reason(stray)}\n`);
    process.exit(1);
  },
  (err) => {
    process.stderr.write(`demo failed: ${reason(err)}\n`);
    process.exit(1);
  },
);
