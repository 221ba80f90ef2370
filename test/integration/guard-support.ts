/**
 * A stand-in container for running the in-machine guard on this machine: a scratch folder with a
 * HOME, the guard's folder, a stand-in `nvidia-smi` printing what the test writes, and a PATH
 * that holds only the tools the test chooses (the HTTP tools wrapped so their command lines are
 * recorded, to show the key never appears in them).
 */
import { spawn, execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type HttpTool = "curl" | "wget" | "python3";

/** The tools a small image has besides an HTTP tool (what the guard and its launcher use). */
const BASE_TOOLS = ["sh", "cat", "date", "sleep", "mkdir", "tr", "mv", "rm", "grep", "awk", "timeout", "env", "bash", "base64", "gzip"];

function which(tool: string): string {
  // python3 may be a version manager's shim (a bash script): the interpreter itself is wanted.
  if (tool === "python3") return execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();
  return execFileSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).trim();
}

export interface Container {
  dir: string;
  /** The guard's folder (VASTAI_GUARD_DIR). */
  guardDir: string;
  log(): string;
  /** What every GPU reports: one percent per GPU; null makes nvidia-smi fail. */
  setGpu(values: number[] | null): void;
  /** Installs an HTTP tool (as an image's onstart may). */
  addTool(tool: HttpTool): void;
  /** Runs a start command (sh -c onstart) to its end: its exit code, stdout and stderr. */
  runOnstart(onstart: string): Promise<{ code: number | null; out: string }>;
  /** Command lines the HTTP tools were run with. */
  toolArgv(): string;
  /** The pids of live processes running this container's guard. */
  guards(): number[];
  /** Ends this container's processes (as a container stop does). */
  stop(): void;
  env: Record<string, string>;
  cleanup(): void;
}

export interface ContainerOptions {
  instanceId: number;
  apiKey: string;
  /** The HTTP tools on PATH; [] for none. */
  tools: HttpTool[];
  tickSeconds?: number;
  /** The SSH port the guard watches (default: one nobody listens on). */
  sshPort?: number;
}

export function makeContainer(opts: ContainerOptions): Container {
  const dir = mkdtempSync(join(tmpdir(), "vastai-guard-"));
  const bin = join(dir, "bin");
  const home = join(dir, "home");
  const guardDir = join(dir, "guard");
  mkdirSync(bin);
  mkdirSync(home);
  for (const tool of BASE_TOOLS) symlinkSync(which(tool), join(bin, tool));
  // A wrapper that records its command line, then runs the real tool.
  const addTool = (tool: HttpTool): void => {
    writeFileSync(join(bin, tool), `#!${which("sh")}\nprintf '%s\\n' "$*" >>'${dir}/argv'\nexec '${which(tool)}' "$@"\n`);
    chmodSync(join(bin, tool), 0o755);
  };
  for (const tool of opts.tools) addTool(tool);
  writeFileSync(join(bin, "nvidia-smi"), `#!${which("sh")}\n[ -f '${dir}/gpu' ] || exit 9\ncat '${dir}/gpu'\n`);
  chmodSync(join(bin, "nvidia-smi"), 0o755);
  const env: Record<string, string> = {
    PATH: bin,
    HOME: home,
    CONTAINER_ID: String(opts.instanceId),
    CONTAINER_API_KEY: opts.apiKey,
    VASTAI_GUARD_DIR: guardDir,
    VASTAI_GUARD_TICK_SECONDS: String(opts.tickSeconds ?? 1),
    VASTAI_GUARD_MINUTE_SECONDS: "1",
    VASTAI_GUARD_SSH_PORT: String(opts.sshPort ?? 1),
  };
  const c: Container = {
    dir,
    guardDir,
    env,
    addTool,
    log: () => (existsSync(join(guardDir, "guard.log")) ? readFileSync(join(guardDir, "guard.log"), "utf8") : ""),
    setGpu: (values) => {
      if (values === null) rmSync(join(dir, "gpu"), { force: true });
      else writeFileSync(join(dir, "gpu"), values.map((v) => `${v}\n`).join(""));
    },
    runOnstart: (onstart) =>
      new Promise((resolve, reject) => {
        const child = spawn(which("sh"), ["-c", onstart], { env, cwd: home, stdio: ["ignore", "pipe", "pipe"] });
        let out = "";
        child.stdout.on("data", (d: Buffer) => (out += d.toString()));
        child.stderr.on("data", (d: Buffer) => (out += d.toString()));
        child.on("error", reject);
        // "exit", not "close": the guard left in the background keeps no pipe of the onstart open.
        child.on("exit", (code) => resolve({ code, out }));
      }),
    toolArgv: () => (existsSync(join(dir, "argv")) ? readFileSync(join(dir, "argv"), "utf8") : ""),
    guards: () => guardPids(guardDir),
    stop: () => {
      for (const pid of guardPids(guardDir)) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
    },
    cleanup: () => {
      c.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return c;
}

/** Live processes whose command line is exactly `sh <guardDir>/guard.sh`. */
export function guardPids(guardDir: string): number[] {
  const want = `sh\0${guardDir}/guard.sh\0`;
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, "utf8") === want) found.push(Number(name));
    } catch {
      // ended meanwhile
    }
  }
  return found;
}

/** Waits (polling every 100 ms) until `check` returns a value, or fails after `ms`. */
export async function until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
