/**
 * The package as a user installs it: packed with `npm pack`, installed into a scratch
 * project, and served by Pulumi's own dynamic-provider plugin started in that project.
 * The pack and install (bench/scratch.ts, shared with the benchmark) happen once per source
 * state and are shared by every contract test file and parallel jest workers.
 * `useContract()` is the set-up of each contract test file: a simulator and a plugin process
 * configured for it, started before the file's tests and stopped after them.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { scratchProject as packAndInstall } from "../../bench/scratch";
import { startSimulator, type LoggedRequest, type Simulator, type SimulatorOptions } from "pulumi-vastai/simulator";
import { dynamicUrn, startProviderPlugin, type ProviderPlugin } from "pulumi-vastai/testing";
import { FAST_PLUGIN_CONFIG } from "../support/plugin-timing";

const repo = path.resolve(__dirname, "..", "..");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

export interface ScratchProject {
  dir: string;
  /** `__provider` text for each resource kind, serialized in the scratch project. */
  serialized: Record<string, string>;
  /** Size in bytes of each serialized provider. */
  sizes: Record<string, number>;
}

let project: ScratchProject | undefined;

export function scratchProject(): ScratchProject {
  if (project) return project;
  const { dir, serialized } = sharedInRun("scratch-project.json", () => {
    ensureBuilt();
    const { dir, serialized } = packAndInstall(repo);
    return { dir, serialized };
  });
  const sizes = Object.fromEntries(Object.entries(serialized).map(([k, v]) => [k, Buffer.byteLength(v)]));
  project = { dir, serialized, sizes };
  return project;
}

/**
 * What `make` returns, made once per jest run: the first test file that needs it stores it (as
 * JSON) in the run's scratch directory (VASTAI_TEST_RUN_DIR, test/support/run-setup.js), the
 * others read it. The source does not change while a run goes on. Outside such a run, `make`.
 */
function sharedInRun<T>(name: string, make: () => T): T {
  const runDir = process.env.VASTAI_TEST_RUN_DIR;
  if (!runDir || !fs.existsSync(runDir)) return make();
  const file = path.join(runDir, name);
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, "utf8")) as T;
  const value = make();
  // Written whole, then renamed: a worker reading at the same time sees all of it or nothing.
  const partial = `${file}.${process.pid}`;
  fs.writeFileSync(partial, JSON.stringify(value));
  fs.renameSync(partial, file);
  return value;
}

/** Builds dist/ when a source file is newer than it (tests that run the built package). */
export function ensureBuilt(): void {
  const built = path.join(repo, "dist", "provider", "index.js");
  const newest = newestMtime(["provider", "simulator", "testing"].map((dir) => path.join(repo, dir)));
  if (!fs.existsSync(built) || fs.statSync(built).mtimeMs < newest) {
    execFileSync(npm, ["run", "build", "--silent"], { cwd: repo, stdio: "pipe" });
  }
}

function newestMtime(dirs: string[]): number {
  let newest = 0;
  for (const dir of dirs) {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
      if (entry.isFile() && entry.name.endsWith(".ts")) {
        newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
      }
    }
  }
  return newest;
}


/**
 * A plugin process running in the scratch project, configured for the given service. Its stack
 * configuration starts from FAST_PLUGIN_CONFIG (fast polls and pacing: the simulator enforces no
 * limits); `config` wins over it.
 */
export async function startPlugin(config: Record<string, string>, env: Record<string, string> = {}): Promise<ProviderPlugin> {
  const { dir } = scratchProject();
  // No credentials in the environment: the plugin must get them from the stack config.
  const plugin = await startProviderPlugin({ cwd: dir, env: { VAST_API_KEY: undefined, VAST_URL: undefined, HOME: dir, ...env } });
  await plugin.configure({ ...FAST_PLUGIN_CONFIG, ...config });
  return plugin;
}

export interface ContractOptions {
  /** Simulator options (the port is always chosen by the system). */
  simulator?: SimulatorOptions;
  /** Stack configuration added to the simulator's credentials, URLs and FAST_PLUGIN_CONFIG. */
  config?: Record<string, string>;
}

export interface Contract {
  readonly sim: Simulator;
  readonly plugin: ProviderPlugin;
  /** The serialized provider (`__provider`) of the file's resource kind. */
  readonly provider: string;
  /** The `__provider` text of every resource kind. */
  readonly serialized: Record<string, string>;
  /** A call to the simulator's control API (`/_sim<path>`), its JSON reply parsed. */
  control(method: string, path: string, body?: unknown): Promise<unknown>;
  /** The simulator's request log since it was last taken; clears it. */
  takeRequests(): Promise<LoggedRequest[]>;
}

/**
 * Registers the hooks of a contract test file for resource `kind` (a key of `providers`) and
 * returns its fixture, usable inside tests: a simulator, and a plugin in the scratch project
 * configured with its credentials and URLs (and `options.config`).
 */
export function useContract(kind: string, options: ContractOptions = {}): Contract {
  let sim: Simulator | undefined;
  let plugin: ProviderPlugin | undefined;
  beforeAll(async () => {
    sim = await startSimulator({ ...options.simulator, port: 0 });
    plugin = await startPlugin({ "vastai:apiKey": sim.apiKey, "vastai:apiUrl": sim.url, "vastai:runUrl": sim.runUrl, ...options.config });
  }, 120_000);
  afterAll(async () => {
    await plugin?.close();
    await sim?.close();
  });
  const running = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the contract fixture is not started: use it inside tests and hooks");
    return value;
  };
  const control = async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const res = await fetch(`${running(sim).url}/_sim${path}`, {
      method,
      // The simulator takes control writes as JSON only, with or without a body.
      headers: method === "GET" ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return res.json();
  };
  return {
    get sim() {
      return running(sim);
    },
    get plugin() {
      return running(plugin);
    },
    get provider() {
      return scratchProject().serialized[kind];
    },
    get serialized() {
      return scratchProject().serialized;
    },
    control,
    takeRequests: async () => {
      const log = (await control("GET", "/requests")) as LoggedRequest[];
      await control("DELETE", "/requests");
      return log;
    },
  };
}

/** Most bytes of a resource's `__provider` in a user's program (issue 35 item 5: it is in every state entry twice). */
export const SERIALIZED_PROVIDER_LIMIT = 800;

/** The test that `kind`'s serialized provider is a small loader of the installed package. */
export function testSmallLoader(kind: string, type: string): void {
  test("the serialized provider is one require of the installed package, under the size limit, with no machine path", () => {
    const size = scratchProject().sizes[kind];
    const text = scratchProject().serialized[kind];
    console.log(`serialized ${type} provider: ${size} bytes`);
    expect(text).toContain(`require("pulumi-vastai/shims/${kind}")`);
    expect(text).not.toMatch(/["'`]\//);
    expect(size).toBeLessThanOrEqual(SERIALIZED_PROVIDER_LIMIT);
  });
}

/** The Instance contract files' fixture: boots of 30 ms, polled every 5 ms, and their helpers. */
export function useInstanceContract(): {
  fx: Contract;
  urn(name: string): string;
  /** Instance ids on the simulator. */
  liveIds(): string[];
  /** Calls other than reads (and offer searches) since the log was last taken; takes it. */
  writesSinceLast(): Promise<string[]>;
} {
  // Poll the boot every 5 ms instead of every 10 s: a setting, read from the stack config.
  const fx = useContract("instance", { simulator: { bootMs: 30 }, config: { "vastai:pollIntervalMs": "5" } });
  return {
    fx,
    urn: (name) => dynamicUrn("dev", "proj", "Instance", name),
    liveIds: () => fx.sim.state().instances.map((i) => String(i.id)),
    writesSinceLast: async () =>
      (await fx.takeRequests()).filter((r) => r.method !== "GET" && !r.path.startsWith("/api/v0/bundles")).map((r) => `${r.method} ${r.path}`),
  };
}
