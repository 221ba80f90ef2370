/**
 * The end-to-end harness: real `pulumi` (from .pulumi/bin) through the Automation API, each
 * stack with its own file backend, PULUMI_HOME and passphrase in a temporary directory.
 *
 * Programs run inline (the Automation API serves the program from this process and runs the
 * CLI with `--client`), so no `pulumi-language-nodejs` is needed; the dynamic resources are
 * served by `pulumi-resource-pulumi-nodejs` from .pulumi/bin, as under `pulumi up`. An example
 * program is its own source file, compiled and run afresh for each operation, as `pulumi up`
 * runs `index.ts` afresh.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as ts from "typescript";
import {
  LocalWorkspace,
  PulumiCommand,
  type EngineEvent,
  type OpType,
  type PreviewResult,
  type Stack,
} from "@pulumi/pulumi/automation";
import type { Simulator } from "pulumi-vastai/simulator";

export const REPO = path.resolve(__dirname, "..", "..");
/** The install root of the built CLI (`bin/pulumi` under it). */
export const CLI_ROOT = path.join(REPO, ".pulumi");
export const CLI_BIN = path.join(CLI_ROOT, "bin");
export const HAS_CLI = fs.existsSync(path.join(CLI_BIN, "pulumi"));
/** `describe` when the CLI is built, else a skipped block (global-setup says why, once). */
export const describeE2E: jest.Describe = HAS_CLI ? describe : describe.skip;

export const PASSPHRASE = "e2e-passphrase";
/** A public key in OpenSSH format (its private half is not used anywhere). */
export const PUBLIC_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIP8j0WRarqJ7QZ7ksIiDa7oSRCXNRGNGhtYnCq/bAFm8 e2e@pulumi-vastai";

type Props = Record<string, unknown>;
export type Program = () => Promise<Props | void>;

/**
 * The program of `examples/<name>/index.ts`, compiled from its source and evaluated afresh on
 * each call, with this process's `@pulumi/pulumi` and the compiled `pulumi-vastai` (dist/), or
 * the module files given in `modules` (by the id the program requires).
 */
export function exampleProgram(name: string, modules: Record<string, string> = {}, root: string = REPO): Program {
  const dir = path.join(root, "examples", name);
  const filename = path.join(dir, "index.ts");
  const js = ts.transpileModule(fs.readFileSync(filename, "utf8"), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
    fileName: filename,
  }).outputText;
  const load = (id: string): unknown => require(modules[id] ?? id);
  return async () => {
    const module = { exports: {} as Props };
    const run = new Function("exports", "require", "module", "__filename", "__dirname", js);
    run(module.exports, load, module, filename, dir);
    return module.exports;
  };
}

/** Stack configuration that points the providers at `sim` (the key as a secret). */
export function simConfig(sim: Simulator): Record<string, { value: string; secret?: boolean }> {
  return {
    "vastai:apiKey": { value: sim.apiKey, secret: true },
    "vastai:apiUrl": { value: sim.url },
    "vastai:runUrl": { value: sim.runUrl },
    "vastai:pollIntervalMs": { value: "100" },
    "vastai:rateLimitScale": { value: "0.1" },
  };
}

export interface StepOutcome {
  type: string;
  name: string;
  op: OpType;
}

/** Each dynamic resource's step ops, by `Type name` (e.g. `Instance gpu: ["replace"]`). */
export function collectOps(into: StepOutcome[]): (e: EngineEvent) => void {
  return (e) => {
    const meta = e.resourcePreEvent?.metadata;
    if (!meta || !meta.type.startsWith("pulumi-nodejs:dynamic/")) return;
    into.push({ type: meta.type.slice(meta.type.lastIndexOf(":") + 1), name: meta.urn.slice(meta.urn.lastIndexOf("::") + 2), op: meta.op });
  };
}

/** `Type name` -> ops, in event order. */
export function opsByResource(steps: StepOutcome[]): Record<string, OpType[]> {
  const out: Record<string, OpType[]> = {};
  for (const s of steps) (out[`${s.type} ${s.name}`] ??= []).push(s.op);
  return out;
}

export interface E2EStack {
  stack: Stack;
  /** The temporary directory holding backend, PULUMI_HOME and work directory. */
  dir: string;
  /** The project directory (the plugin's working directory). */
  work: string;
  /** Environment of every CLI run of this stack. */
  env: Record<string, string>;
  /** The program the stack runs (replaceable between operations). */
  program: Program;
  setProgram(program: Program): Promise<void>;
  up(opts?: { refresh?: boolean; expectNoChanges?: boolean }): Promise<{ ops: Record<string, OpType[]>; outputs: Props; stdout: string }>;
  preview(opts?: { refresh?: boolean }): Promise<{ ops: Record<string, OpType[]>; result: PreviewResult }>;
  refresh(opts?: { clearPendingCreates?: boolean }): Promise<{ ops: Record<string, OpType[]>; changes: Record<string, number>; stdout: string }>;
  destroy(): Promise<{ ops: Record<string, OpType[]> }>;
  /** `pulumi stack export` as text: the deployment, secrets encrypted as stored. */
  exportText(): Promise<string>;
  /** Runs the CLI with this stack's environment in its work directory. */
  cli(args: string[]): Promise<{ stdout: string; stderr: string; code: number }>;
  close(): Promise<void>;
}

let command: Promise<PulumiCommand> | undefined;
function pulumiCommand(): Promise<PulumiCommand> {
  command ??= PulumiCommand.get({ root: CLI_ROOT });
  return command;
}

/** A fresh stack `e2e` of `project` on a backend of its own, configured for `sim`. */
export async function e2eStack(opts: {
  project: string;
  program: Program;
  sim: Simulator;
  config?: Record<string, string | { value: string; secret?: boolean }>;
  /** The pulumi-vastai the project has installed (default: this checkout, built in dist/). */
  packageDir?: string;
}): Promise<E2EStack> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vastai-e2e-"));
  const work = path.join(dir, "work");
  fs.mkdirSync(path.join(dir, "state"));
  fs.mkdirSync(path.join(dir, "home"));
  fs.mkdirSync(work);
  // A user's project: the dynamic-provider plugin runs in the work directory and loads
  // @pulumi/pulumi and (through the serialized provider) pulumi-vastai/runtime from there.
  linkPackages(work, opts.packageDir ?? REPO);
  const env: Record<string, string> = {
    PULUMI_BACKEND_URL: `file://${path.join(dir, "state")}`,
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    PULUMI_HOME: path.join(dir, "home"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    // The dynamic-provider plugin sits next to `pulumi`.
    PATH: `${CLI_BIN}${path.delimiter}${process.env.PATH ?? ""}`,
    // Credentials come from the stack configuration only.
    VAST_API_KEY: "",
    VAST_URL: "",
    VAST_RUN_URL: "",
  };
  const holder: { program: Program } = { program: opts.program };
  const pulumiCmd = await pulumiCommand();
  const stack = await LocalWorkspace.createStack(
    { projectName: opts.project, stackName: "e2e", program: () => holder.program() },
    { workDir: work, pulumiCommand: pulumiCmd, envVars: env, projectSettings: { name: opts.project, runtime: "nodejs" } },
  );
  const config = { ...simConfig(opts.sim), ...opts.config };
  await stack.setAllConfig(Object.fromEntries(Object.entries(config).map(([k, v]) => [k, typeof v === "string" ? { value: v } : v])));

  const cli = (args: string[]): Promise<{ stdout: string; stderr: string; code: number }> =>
    new Promise((resolve) => {
      execFile(pulumiCmd.command, args, { cwd: work, env: { ...process.env, ...env }, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
        const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
        resolve({ stdout, stderr, code });
      });
    });
  const outputsOf = (o: Record<string, { value: unknown }>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, v.value]));
  return {
    stack,
    dir,
    work,
    env,
    get program() {
      return holder.program;
    },
    async setProgram(program) {
      holder.program = program;
    },
    async up(o = {}) {
      const steps: StepOutcome[] = [];
      const r = await stack.up({ onEvent: collectOps(steps), color: "never", refresh: o.refresh, expectNoChanges: o.expectNoChanges });
      return { ops: opsByResource(steps), outputs: outputsOf(r.outputs), stdout: r.stdout };
    },
    async preview(o = {}) {
      const steps: StepOutcome[] = [];
      const result = await stack.preview({ onEvent: collectOps(steps), color: "never", refresh: o.refresh });
      return { ops: opsByResource(steps), result };
    },
    async refresh(o = {}) {
      const steps: StepOutcome[] = [];
      const r = await stack.refresh({ onEvent: collectOps(steps), color: "never", clearPendingCreates: o.clearPendingCreates });
      return { ops: opsByResource(steps), changes: (r.summary.resourceChanges ?? {}) as Record<string, number>, stdout: r.stdout };
    },
    async destroy() {
      const steps: StepOutcome[] = [];
      await stack.destroy({ onEvent: collectOps(steps), color: "never" });
      return { ops: opsByResource(steps) };
    },
    async exportText() {
      // The CLI itself: the Automation API's exportStack adds --show-secrets.
      const r = await cli(["stack", "export", "--stack", "e2e"]);
      if (r.code !== 0) throw new Error(`pulumi stack export failed: ${r.stderr}`);
      return JSON.stringify((JSON.parse(r.stdout) as { deployment: unknown }).deployment);
    },
    cli,
    async close() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * `dir/node_modules` as a project that installed `pulumi-vastai` from `packageDir` has it:
 * `@pulumi` and `pulumi-vastai` (replaced when called again: an upgrade).
 */
export function linkPackages(dir: string, packageDir: string): void {
  const modules = path.join(dir, "node_modules");
  fs.mkdirSync(modules, { recursive: true });
  for (const [name, target] of [["@pulumi", path.join(REPO, "node_modules", "@pulumi")], ["pulumi-vastai", packageDir]]) {
    fs.rmSync(path.join(modules, name), { force: true, recursive: false });
    fs.symlinkSync(target, path.join(modules, name), "dir");
  }
}

/** The simulator's request log (`GET /_sim/requests`). */
export async function requestLog(sim: Simulator): Promise<Array<{ method: string; path: string; status: number }>> {
  const res = await fetch(`${sim.url}/_sim/requests`);
  return (await res.json()) as Array<{ method: string; path: string; status: number }>;
}

export async function simControl(sim: Simulator, method: string, p: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${sim.url}/_sim${p}`, {
    method,
    headers: method === "GET" ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`control ${method} ${p}: HTTP ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}
