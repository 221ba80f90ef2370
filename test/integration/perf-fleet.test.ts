/**
 * Fleet creation against the service's realistic rate limits, in a simulator process of its
 * own, with the client's default pacing and no retries allowed: 20 members rented with no
 * request refused and no offer rented twice. The time is printed against the rate-limit bound
 * (19 intervals of 200 ms between the 20 creates), not asserted: speed goals belong to the
 * benchmarks, and a wall-clock limit fails on a busy machine (measured 1.5-2.5x here, mostly
 * the process's cold start, the first-call gate of each endpoint and the 1 s interval of the
 * instance list before the boot poll). The target for 100 members (within 1.15x of the bound)
 * is measured by the benchmark (bench/fleet-run.ts) on the simulator's bulk market of offers.
 */
import { execFileSync, spawn, type ChildProcess } from "child_process";
import * as fs from "fs";
import * as path from "path";
import * as readline from "readline";
import { resetRuntime, setClientOptions, setProviderSettings } from "../../provider/context";
import { providers } from "../../provider/providers";
import { drive } from "./account-resources-support";
import type { LoggedRequest } from "./client-support";

type Props = Record<string, unknown>;

const repo = path.resolve(__dirname, "..", "..");
const cli = path.join(repo, "dist", "simulator", "cli.js");

/** The simulator's command line in a child process; resolves with its URL and key from the banner. */
function startSimulatorProcess(): Promise<{ child: ChildProcess; url: string; apiKey: string }> {
  if (!fs.existsSync(cli)) execFileSync(process.platform === "win32" ? "npm.cmd" : "npm", ["run", "build", "--silent"], { cwd: repo });
  const child = spawn(process.execPath, [cli, "--port", "0", "--rate-limits", "realistic", "--boot-ms", "0"], { stdio: ["ignore", "pipe", "inherit"] });
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

let sim: { child: ChildProcess; url: string; apiKey: string };
const log = async (): Promise<LoggedRequest[]> => (await fetch(`${sim.url}/_sim/requests`)).json() as Promise<LoggedRequest[]>;

beforeAll(async () => {
  resetRuntime();
  setProviderSettings({ pollIntervalMs: 5 });
  sim = await startSimulatorProcess();
  setClientOptions({ apiKey: sim.apiKey, apiUrl: sim.url, runUrl: `${sim.url}/run`, pacing: {}, maxAttempts: 1 });
}, 60_000);

afterAll(async () => {
  resetRuntime();
  if (sim?.child.exitCode === null) {
    const exited = new Promise((r) => sim.child.once("exit", r));
    sim.child.kill("SIGTERM");
    await exited;
  }
});

const MEMBERS = Number(process.env.FLEET_PERF_MEMBERS ?? 20);
const CREATE_INTERVAL_MS = 200;

it(`creates a fleet of ${MEMBERS} under the realistic limits: 0 refused, 0 offers taken twice, one create per member`, async () => {
  const fleet = drive(providers.fleet);
  const { inputs } = await fleet.check({}, { __provider: "perf-test", __identity: "perf/dev/Fleet/f", count: MEMBERS, offer: {}, image: "pytorch/pytorch" });
  const started = Date.now();
  const made = await fleet.create(inputs as Props);
  const ms = Date.now() - started;
  const members = (made.outs as Props).members as { offerId: number }[];
  expect(members).toHaveLength(MEMBERS);
  expect(new Set(members.map((m) => m.offerId)).size).toBe(MEMBERS);
  const requests = await log();
  expect(requests.filter((r) => r.status === 429)).toEqual([]);
  expect(requests.filter((r) => r.method === "PUT" && /^\/api\/v0\/asks\//.test(r.path))).toHaveLength(MEMBERS);
  const bound = (MEMBERS - 1) * CREATE_INTERVAL_MS;
  console.log(`fleet of ${MEMBERS}: ${ms} ms, rate-limit bound ${bound} ms (${(ms / bound).toFixed(2)}x), ${requests.length} requests`);
}, 60_000);
