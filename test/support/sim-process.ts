/**
 * The simulator's command line in a process of its own, as the service is: sharing the test's
 * event loop, it would take in requests in bunches after every pause of the loop, which no
 * network does. `useSimulatorProcess` starts it with the realistic rate limits before the file's
 * tests and points the providers at it with the client's default pacing and one attempt per
 * call (a refused request fails the test's operation instead of being retried).
 */
import { execFileSync, spawn, type ChildProcess } from "child_process";
import * as fs from "fs";
import * as path from "path";
import * as readline from "readline";
import { resetRuntime, setClientOptions, setProviderSettings } from "../../provider/context";
import type { LoggedRequest } from "../integration/client-support";

const repo = path.resolve(__dirname, "..", "..");
const cli = path.join(repo, "dist", "simulator", "cli.js");

interface SimProcess {
  child: ChildProcess;
  url: string;
  apiKey: string;
}

/** Starts `vastai-simulator` with `args`; resolves with its URL and key from the banner. */
function startSimulatorProcess(args: string[]): Promise<SimProcess> {
  if (!fs.existsSync(cli)) execFileSync(process.platform === "win32" ? "npm.cmd" : "npm", ["run", "build", "--silent"], { cwd: repo });
  const child = spawn(process.execPath, [cli, "--port", "0", ...args], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let url = "";
    const lines = readline.createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      url = /API URL:\s+(\S+)/.exec(line)?.[1] ?? url;
      const key = /API key:\s+(\S+)/.exec(line)?.[1];
      if (url && key) resolve({ child, url, apiKey: key });
    });
    child.once("exit", (code) => reject(new Error(`the simulator exited with code ${code}`)));
  });
}

/** Registers the file's set-up and tear-down; `log()` reads the simulator's request log. */
export function useSimulatorProcess(extraArgs: string[] = []): { log(): Promise<LoggedRequest[]> } {
  let sim: SimProcess | undefined;
  beforeAll(async () => {
    resetRuntime();
    setProviderSettings({ pollIntervalMs: 5 });
    sim = await startSimulatorProcess(["--rate-limits", "realistic", "--boot-ms", "0", ...extraArgs]);
    setClientOptions({ apiKey: sim.apiKey, apiUrl: sim.url, runUrl: `${sim.url}/run`, pacing: {}, maxAttempts: 1 });
  }, 60_000);
  afterAll(async () => {
    resetRuntime();
    if (sim?.child.exitCode === null) {
      const exited = new Promise((r) => sim!.child.once("exit", r));
      sim.child.kill("SIGTERM");
      await exited;
    }
  });
  return {
    log: async () => {
      if (!sim) throw new Error("the simulator process is not started (useSimulatorProcess runs in beforeAll)");
      return (await fetch(`${sim.url}/_sim/requests`)).json() as Promise<LoggedRequest[]>;
    },
  };
}
