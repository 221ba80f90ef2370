/**
 * Pacing shared per process across every resource: a parallel create burst of instances,
 * templates, SSH keys and environment variables against the service's realistic rate limits,
 * with the client's default intervals and no retries allowed, is refused not once.
 *
 * The simulator runs in a process of its own, as the service does: sharing this process's
 * event loop, it would take in requests in bunches after every pause of the loop, which no
 * network does.
 */
import { execFileSync, spawn, type ChildProcess } from "child_process";
import { randomBytes } from "crypto";
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

function ed25519Key(): string {
  const sshString = (b: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(b.length);
    return Buffer.concat([length, b]);
  };
  return `ssh-ed25519 ${Buffer.concat([sshString(Buffer.from("ssh-ed25519")), sshString(randomBytes(32))]).toString("base64")}`;
}

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

const BURST: Array<[keyof typeof providers, (i: number) => Props, number]> = [
  ["instance", (i) => ({ offerId: 700001 + i, image: "pytorch/pytorch", label: `burst-${i}` }), 12],
  ["template", (i) => ({ name: `burst-template-${i}`, image: "pytorch/pytorch" }), 4],
  ["sshKey", () => ({ publicKey: ed25519Key() }), 3],
  ["envVar", (i) => ({ key: `BURST_${i}`, value: `v${i}` }), 4],
];

let sim: { child: ChildProcess; url: string; apiKey: string };
const log = async (): Promise<LoggedRequest[]> => (await fetch(`${sim.url}/_sim/requests`)).json() as Promise<LoggedRequest[]>;

beforeAll(async () => {
  resetRuntime();
  setProviderSettings({ pollIntervalMs: 5 });
  sim = await startSimulatorProcess();
  // The default intervals (pacing: {}), and one attempt per call: a refusal would fail the create.
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

it("creates a mixed burst in parallel under the realistic limits with no request refused", async () => {
  const creates = BURST.flatMap(([kind, inputs, count]) =>
    Array.from({ length: count }, async (_, i) => {
      const p = drive(providers[kind]);
      const { inputs: checked } = await p.check({}, { __provider: "perf-test", ...inputs(i) });
      return p.create(checked as Props);
    }),
  );
  const results = await Promise.all(creates);
  expect(results.every((r) => r.id !== "")).toBe(true);
  const requests = await log();
  expect(requests.filter((r) => r.status === 429)).toEqual([]);
  // One create call per object and one status read per instance: nothing was sent twice.
  expect(requests.filter((r) => r.method !== "GET")).toHaveLength(12 + 4 + 3 + 4);
  expect(requests.filter((r) => r.method === "GET" && /^\/api\/v0\/instances\/\d+\/?$/.test(r.path))).toHaveLength(12);
}, 30_000);
