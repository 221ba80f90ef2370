/**
 * The vendor's own command line (`vastai` from PyPI, installed by `npm run vendor-client` into
 * `.venv-vastai/`) as a test witness: `startVendorCli(url, apiKey)` runs its commands against a
 * simulator with `--url URL --api-key KEY --raw`, each in a fresh child of one Python process
 * that imported the client once (vendor-cli-driver.py), with a throw-away HOME, no VAST_URL or
 * VAST_API_KEY, no update check, and `rsync` replaced by a stub that records its arguments.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";

const REPO = path.resolve(__dirname, "..", "..");
export const VENV = path.join(REPO, ".venv-vastai");
const PYTHON = path.join(VENV, "bin", "python");
const DRIVER = path.join(__dirname, "vendor-cli-driver.py");

/** Set in CI: an absent client fails the suite instead of skipping it. */
export const REQUIRED_ENV = "VENDOR_CLIENT_REQUIRED";

/** The pinned client version, read from the install script (the one place it is written). */
export function pinnedVersion(): string {
  const script = fs.readFileSync(path.join(REPO, "scripts", "vendor-client.sh"), "utf8");
  const m = /^VASTAI_VERSION="([^"]+)"/m.exec(script);
  if (!m) throw new Error("scripts/vendor-client.sh does not set VASTAI_VERSION");
  return m[1];
}

/** Why the client cannot run here, or undefined when it can. */
export function unavailableReason(): string | undefined {
  if (!fs.existsSync(PYTHON)) return `${path.relative(REPO, VENV)}/ is absent (npm run vendor-client installs it)`;
  const probe = spawnSync(PYTHON, ["-c", "from importlib.metadata import version; print(version('vastai'))"], { encoding: "utf8" });
  if (probe.status !== 0) return `vastai is not installed in ${path.relative(REPO, VENV)}/ (npm run vendor-client installs it)`;
  const installed = probe.stdout.trim();
  const pinned = pinnedVersion();
  if (installed !== pinned) return `${path.relative(REPO, VENV)}/ holds vastai ${installed}, not the pinned ${pinned} (npm run vendor-client)`;
  return undefined;
}

export interface CliResult {
  /** The words after `vastai` (without the connection options), for messages. */
  command: string;
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

export interface VendorCli {
  version: string;
  /** Runs `vastai --url URL --api-key KEY --raw <words>`; `input` is what its prompts read. */
  run(words: string[], input?: string): Promise<CliResult>;
  /** Python's own reading of a Python literal the client printed (a dict's repr). */
  literal(text: string): Promise<unknown>;
  /** The argument lists the rsync stub was called with, in order. */
  rsyncCalls(): string[][];
  /** The working directory of the client's commands (a temporary folder). */
  cwd: string;
  close(): Promise<void>;
}

interface DriverReply {
  ready?: string;
  code?: number;
  stdout?: string;
  stderr?: string;
  ms?: number;
  value?: unknown;
  error?: string;
}

export async function startVendorCli(url: string, apiKey: string): Promise<VendorCli> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "vendor-cli-"));
  const bin = path.join(home, "bin");
  const work = path.join(home, "work");
  fs.mkdirSync(bin);
  fs.mkdirSync(work);
  const rsyncLog = path.join(home, "rsync-calls.jsonl");
  // The client runs rsync itself for a copy with a local side: the stub records the call and
  // reaches nothing.
  fs.writeFileSync(
    path.join(bin, "rsync"),
    `#!${PYTHON}\nimport json, sys\nwith open(${JSON.stringify(rsyncLog)}, "a") as f:\n    f.write(json.dumps(sys.argv[1:]) + "\\n")\n`,
    { mode: 0o755 },
  );
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, ".config"),
    XDG_CACHE_HOME: path.join(home, ".cache"),
    PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}`,
    VASTAI_NO_UPDATE_CHECK: "1",
    PYTHONDONTWRITEBYTECODE: "1",
    NO_COLOR: "1",
  };
  // VAST_URL would make any URL "the default" and switch some commands to a second host.
  for (const name of ["VAST_URL", "VAST_API_KEY", "VAST_RUN_URL"]) delete env[name];

  const child: ChildProcessWithoutNullStreams = spawn(PYTHON, [DRIVER], { cwd: work, env, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const lines = readline.createInterface({ input: child.stdout });
  // Replies not yet asked for, and askers not yet answered.
  const replies: DriverReply[] = [];
  const waiting: ((reply: DriverReply) => void)[] = [];
  let exited: Error | undefined;
  lines.on("line", (line) => {
    const reply = JSON.parse(line) as DriverReply;
    const w = waiting.shift();
    if (w) w(reply);
    else replies.push(reply);
  });
  child.once("exit", (code) => {
    exited = new Error(`the vendor client's driver exited with code ${code}: ${stderr.trim()}`);
    for (const w of waiting.splice(0)) w({ error: exited.message });
  });

  const next = () =>
    new Promise<DriverReply>((resolve, reject) => {
      const reply = replies.shift();
      if (reply) resolve(reply);
      else if (exited) reject(exited);
      else waiting.push(resolve);
    });
  let queue: Promise<unknown> = Promise.resolve();
  // One request at a time: the driver answers in order.
  const ask = (request: object): Promise<DriverReply> => {
    const answer = queue.then(() => {
      const reply = next();
      child.stdin.write(`${JSON.stringify(request)}\n`);
      return reply;
    });
    queue = answer.catch(() => undefined);
    return answer;
  };

  const ready = await next();
  if (ready.ready === undefined) throw new Error(`the vendor client's driver did not start: ${ready.error ?? JSON.stringify(ready)}`);

  return {
    version: ready.ready,
    cwd: work,
    async run(words, input = "") {
      const r = await ask({ argv: ["--url", url, "--api-key", apiKey, "--raw", ...words], input });
      if (r.code === undefined) throw new Error(`vastai ${words.join(" ")}: ${r.error ?? "no answer"}`);
      return { command: words.join(" "), code: r.code, stdout: r.stdout ?? "", stderr: r.stderr ?? "", ms: r.ms ?? 0 };
    },
    async literal(text) {
      const r = await ask({ literal: text });
      if (r.error !== undefined) throw new Error(r.error);
      return r.value;
    },
    rsyncCalls() {
      if (!fs.existsSync(rsyncLog)) return [];
      return fs
        .readFileSync(rsyncLog, "utf8")
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => JSON.parse(l) as string[]);
    },
    async close() {
      if (child.exitCode === null) {
        const gone = new Promise((r) => child.once("exit", r));
        child.stdin.end();
        await gone;
      }
      fs.rmSync(home, { recursive: true, force: true });
    },
  };
}

/**
 * What the client reports as an error: with --raw it writes `{"error": true, "status_code",
 * "msg"}` to stderr (and still exits 0); some commands print the error text on stdout.
 */
export function cliError(r: CliResult): string | undefined {
  if (r.code !== 0) return `exit code ${r.code}: ${(r.stderr || r.stdout).trim()}`;
  if (r.stderr.trim() !== "") return `stderr: ${r.stderr.trim()}`;
  return undefined;
}
