/**
 * `npm run bench:cli [-- --json] [--sizes 50,200] [--scale 0.5] [--latency-ms 25] [--no-offline] [--parallel 16]`:
 * the stack of the offline benchmark (N Instances, each on an offer of its own) under the real
 * Pulumi CLI (the one `npm run pulumi-cli` builds into .pulumi/bin), the program inline through
 * the Automation API as the end-to-end suite runs it, against the simulator with its realistic
 * limits (scaled like the offline rows). The package runs as a user installs it: packed and
 * installed into a scratch project (bench/scratch.ts), whose `node_modules` the stack's project
 * uses; the program takes the Automation API, the SDK and the resource classes from there, so
 * the serialized provider in state is the installed package's `require` of its shim. For each N:
 * `pulumi up`, `pulumi refresh`, `pulumi preview` of the unchanged program and `pulumi up
 * --refresh` of it, each with its wall time and its list calls (counted at the simulator); the
 * creates of `up` alone (from the simulator's creation times); the checkpoint's bytes per
 * Instance and of its serialized provider; and the same operations through the offline engine
 * (bench/provider-run.ts) beside the pacing bound. Prints figures; a run that fails exits 2, a
 * list-call target missed exits 1.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { Command } from "commander";
import type { Stack } from "@pulumi/pulumi/automation";
import type { LoggedRequest } from "./deps";
import { DEFAULTS, lowerBoundMs, refreshCallTarget, serviceLimits, type BenchSettings } from "./limits";
import { costOf, type Cost } from "./measure";
import { ProviderRun, instanceArgs } from "./provider-run";
import { repoRoot, scratchProject } from "./scratch";
import { startSimProcess, type SimProcess } from "./sim";

const progress = (line: string) => process.stderr.write(`${line}\n`);

type CliOp = "up" | "refresh" | "preview" | "upRefresh";

export interface CliRow {
  n: number;
  /** The CLI's `--parallel` (undefined: its default, 4 per CPU). */
  parallel?: number;
  /** The CLI's figures per operation. */
  cli: Record<CliOp, Cost>;
  /** The offline engine's figures (create, refresh, diff), when run. */
  offline?: { create: Cost; refresh: Cost; diff: Cost };
  /** Pacing bounds, ms. */
  bound: { create: number; refresh: number };
  /** Bytes of the checkpoint file after `up`, and per Instance in it. */
  checkpoint: Checkpoint;
  /** The creates of `up` alone, from the simulator's creation times. */
  creates: Creates;
  /** Checkpoint bytes after `up --refresh` (an unchanged stack: same as after `up`, ideally). */
  checkpointAfterUpRefresh: number;
  /** The list-call target for refresh and preview (as offline). */
  listTarget: number;
}

/**
 * A stack `bench` of N Instances on a file backend in a temporary directory, run by the built CLI.
 * Its project's `node_modules` is the scratch project's (the packed package installed): the plugin
 * loads the serialized provider's `pulumi-vastai/shims/...` from there, and the program, which
 * runs in this process, takes the Automation API, the SDK and the resource classes from there too,
 * so Pulumi serializes the installed package's provider, as in a user's program (from this
 * checkout it would write the provider out by value).
 */
async function cliStack(repo: string, installed: string, sim: SimProcess, settings: BenchSettings, n: number, fleet = false): Promise<{ stack: Stack; dir: string; stateFile: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vastai-bench-cli-"));
  const work = path.join(dir, "work");
  for (const sub of ["state", "home", "work"]) fs.mkdirSync(path.join(dir, sub));
  fs.symlinkSync(path.join(installed, "node_modules"), path.join(work, "node_modules"), "dir");
  const fromProject = (name: string) => require(path.join(work, "node_modules", name)) as unknown;
  const { LocalWorkspace, PulumiCommand } = fromProject("@pulumi/pulumi/automation") as typeof import("@pulumi/pulumi/automation");
  const { Fleet, Instance } = fromProject("pulumi-vastai") as typeof import("pulumi-vastai");
  const cliRoot = path.join(repo, ".pulumi");
  const pulumiCommand = await PulumiCommand.get({ root: cliRoot });
  const program = async () => {
    if (fleet) new Fleet("workers", { count: n, offer: { numGpus: 1 }, image: "pytorch/pytorch" });
    else for (let i = 0; i < n; i++) new Instance(`gpu-${i}`, instanceArgs(i) as unknown as ConstructorParameters<typeof Instance>[1]);
  };
  const stack = await LocalWorkspace.createStack(
    { projectName: "benchcli", stackName: "bench", program },
    {
      workDir: work,
      pulumiCommand,
      projectSettings: { name: "benchcli", runtime: "nodejs" },
      envVars: {
        PULUMI_BACKEND_URL: `file://${path.join(dir, "state")}`,
        PULUMI_CONFIG_PASSPHRASE: "bench-passphrase",
        PULUMI_HOME: path.join(dir, "home"),
        PULUMI_SKIP_UPDATE_CHECK: "true",
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
        PATH: `${path.join(cliRoot, "bin")}${path.delimiter}${process.env.PATH ?? ""}`,
        VAST_API_KEY: "",
        VAST_URL: "",
        VAST_RUN_URL: "",
      },
    },
  );
  await stack.setAllConfig({
    "vastai:apiKey": { value: sim.apiKey, secret: true },
    "vastai:apiUrl": { value: sim.url },
    "vastai:runUrl": { value: sim.runUrl },
    "vastai:rateLimitScale": { value: String(settings.scale) },
  });
  return { stack, dir, stateFile: path.join(dir, "state", ".pulumi", "stacks", "benchcli", "bench.json") };
}

/** Where `--dump <dir>` writes each operation's list calls (method, path, status, query), one JSON line each. */
let dumpDir: string | undefined;

async function timed(sim: SimProcess, run: () => Promise<unknown>, name: string): Promise<Cost & { log: LoggedRequest[] }> {
  await sim.clearLog();
  const started = performance.now();
  let failure: string | undefined;
  try {
    await run();
  } catch (error) {
    failure = (error as Error).message.split("\n").slice(-20).join("\n");
  }
  const ms = performance.now() - started;
  const log = await sim.log();
  if (dumpDir) {
    const lines = log.filter((r) => r.method === "GET" && /^\/api\/v[01]\/instances/.test(r.path)).map((r) => JSON.stringify({ path: r.path, status: r.status, query: r.query }));
    fs.writeFileSync(path.join(dumpDir, `${name}.jsonl`), lines.join("\n") + "\n");
  }
  return { ...costOf(log, ms, { failures: failure ? 1 : 0, firstError: failure }), log };
}

/** The figures of one operation without its request log. */
function costOnly({ log: _log, ...cost }: Cost & { log?: LoggedRequest[] }): Cost {
  return cost;
}

/** The pause between two pulumi commands: the paged list's interval passes. */
const pause = (settings: BenchSettings) => new Promise((resolve) => setTimeout(resolve, 2000 * settings.scale));

export interface Checkpoint {
  fileBytes: number;
  perInstanceBytes: number;
  resources: number;
  /** Bytes of an Instance's serialized provider (`__provider`; in its inputs and its outputs, so twice per entry). */
  providerBytes: number;
  /** The serialized provider is the installed package's `require("pulumi-vastai/shims/instance")`, not a copy by value. */
  providerInstalled: boolean;
}

function checkpointOf(stateFile: string): Checkpoint {
  const text = fs.readFileSync(stateFile, "utf8");
  type Entry = { type: string; inputs?: { __provider?: unknown }; outputs?: { __provider?: unknown } };
  const resources = (JSON.parse(text) as { checkpoint: { latest?: { resources?: Entry[] } } }).checkpoint.latest?.resources ?? [];
  const instances = resources.filter((r) => r.type.endsWith(":Instance"));
  const bytes = instances.reduce((sum, r) => sum + Buffer.byteLength(JSON.stringify(r)), 0);
  const provider = instances[0]?.outputs?.__provider ?? instances[0]?.inputs?.__provider;
  const providerText = typeof provider === "string" ? provider : JSON.stringify(provider ?? "");
  if (dumpDir && instances[0]) fs.writeFileSync(path.join(dumpDir, `instance-state-${instances.length}.json`), JSON.stringify(instances[0], null, 1));
  return {
    fileBytes: Buffer.byteLength(text),
    perInstanceBytes: instances.length ? Math.round(bytes / instances.length) : 0,
    resources: resources.length,
    providerBytes: Buffer.byteLength(providerText),
    providerInstalled: /require\("pulumi-vastai\/shims\/instance"\)/.test(providerText),
  };
}

export interface Creates {
  /** Instances the operation created (the simulator's records). */
  count: number;
  /**
   * From the first instance creation at the simulator to the last one, plus two response times
   * (the last create's answer and the one read that shows it running), ms: the span the pacing
   * bound `(N-1)·I_create + 2·latency` covers, without the CLI's start, its plan and its writes.
   */
  timeMs: number;
  /** Mean time between two creations over the service's creation interval (1.000: the limit). */
  pace: number;
  /** Gaps between two creations longer than 1.5 intervals, those with a list call arriving between them, and the longest gap, ms. */
  longGaps: number;
  longGapsWithList: number;
  maxGapMs: number;
}

const CREATE_PATH = /^\/api\/v0\/asks\/\d+\/?$/;
const LIST_PATH = /^\/api\/v[01]\/instances\/?$/;

/** The creates of an operation: creation times from the simulator's records, list calls between them from the request log (arrival order). */
async function createsOf(sim: SimProcess, log: readonly LoggedRequest[], settings: BenchSettings, name = ""): Promise<Creates> {
  const times = (await sim.instanceCreationTimes()).sort((a, b) => a - b);
  const interval = lowerBoundMs("create", 2, serviceLimits(settings.scale), 0);
  // The list calls that arrived after the k-th successful create, before the next one.
  const listsAfter: number[] = [];
  for (const r of log) {
    if (r.method === "PUT" && CREATE_PATH.test(r.path) && r.status >= 200 && r.status < 300) listsAfter.push(0);
    else if (r.method === "GET" && LIST_PATH.test(r.path) && listsAfter.length > 0) listsAfter[listsAfter.length - 1]++;
  }
  let longGaps = 0;
  let longGapsWithList = 0;
  let maxGapMs = 0;
  for (let k = 1; k < times.length; k++) {
    const gap = times[k] - times[k - 1];
    maxGapMs = Math.max(maxGapMs, gap);
    if (gap > 1.5 * interval) {
      longGaps++;
      if ((listsAfter[k - 1] ?? 0) > 0) longGapsWithList++;
    }
  }
  const span = times.length > 1 ? times[times.length - 1] - times[0] : 0;
  if (dumpDir) {
    // Each creation: ms since the first, the gap before it, list calls that arrived in that gap.
    const rows = times.map((t, k) => JSON.stringify({ k, atMs: t - times[0], gapMs: k ? t - times[k - 1] : 0, listsBefore: k ? (listsAfter[k - 1] ?? 0) : 0 }));
    fs.writeFileSync(path.join(dumpDir, `creates-${times.length}${name}.jsonl`), rows.join("\n") + "\n");
  }
  return {
    count: times.length,
    timeMs: span + 2 * settings.latencyMs,
    pace: times.length > 1 && interval > 0 ? span / (times.length - 1) / interval : 0,
    longGaps,
    longGapsWithList,
    maxGapMs,
  };
}

export async function cliRow(repo: string, installed: string, sim: SimProcess, settings: BenchSettings, n: number, offline: boolean, parallel?: number): Promise<CliRow> {
  const limits = serviceLimits(settings.scale);
  let offlineCosts: CliRow["offline"];
  if (offline) {
    await sim.reset();
    const run = new ProviderRun(sim, settings);
    await run.warmUp();
    progress(`N=${n}: offline engine create, refresh, diff`);
    const created = await run.create(n);
    offlineCosts = { create: created.cost, refresh: await run.refresh(created.states), diff: await run.diff(created.states) };
    await run.destroy(created.states);
  }
  await sim.reset();
  const { stack, dir, stateFile } = await cliStack(repo, installed, sim, settings, n);
  const opts = { color: "never" as const, ...(parallel ? { parallel } : {}) };
  const tag = parallel ? `-p${parallel}` : "";
  try {
    progress(`N=${n}: pulumi up${parallel ? ` --parallel ${parallel}` : ""}`);
    const up = await timed(sim, () => stack.up(opts), `up-${n}${tag}`);
    const creates = await createsOf(sim, up.log, settings, tag);
    const checkpoint = checkpointOf(stateFile);
    await pause(settings);
    progress(`N=${n}: pulumi refresh`);
    const refresh = await timed(sim, () => stack.refresh(opts), `refresh-${n}${tag}`);
    await pause(settings);
    progress(`N=${n}: pulumi preview`);
    const preview = await timed(sim, () => stack.preview(opts), `preview-${n}${tag}`);
    await pause(settings);
    progress(`N=${n}: pulumi up --refresh`);
    const upRefresh = await timed(sim, () => stack.up({ ...opts, refresh: true }), `up-refresh-${n}${tag}`);
    const checkpointAfterUpRefresh = fs.statSync(stateFile).size;
    progress(`N=${n}: pulumi destroy (untimed)`);
    await stack.destroy(opts);
    return {
      n,
      parallel,
      cli: { up: costOnly(up), refresh: costOnly(refresh), preview: costOnly(preview), upRefresh: costOnly(upRefresh) },
      offline: offlineCosts,
      bound: { create: lowerBoundMs("create", n, limits, settings.latencyMs), refresh: lowerBoundMs("refresh", n, limits, settings.latencyMs) },
      checkpoint,
      creates,
      checkpointAfterUpRefresh,
      listTarget: refreshCallTarget(n),
    };
  } finally {
    await stack.workspace.removeStack("bench", { force: true }).catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A Fleet of `n` under the CLI, `dead` of its members dying, then one `pulumi up` that heals it: its cost. */
export async function cliFleetHeal(repo: string, installed: string, sim: SimProcess, settings: BenchSettings, n: number, dead: number): Promise<{ create: Cost; heal: Cost; target: number }> {
  await sim.reset();
  const { stack, dir } = await cliStack(repo, installed, sim, settings, n, true);
  try {
    progress(`fleet of ${n}: pulumi up`);
    const create = await timed(sim, () => stack.up({ color: "never" }), `fleet-up-${n}`);
    const state = (await stack.exportStack()).deployment as { resources?: Array<{ type: string; outputs?: { members?: Array<{ id: number }> } }> };
    const members = state.resources?.find((r) => r.type.endsWith(":Fleet"))?.outputs?.members ?? [];
    for (const [i, m] of members.filter((_, i) => i % Math.floor(n / dead) === 3).slice(0, dead).entries()) await sim.setStatus(m.id, ["exited", "unknown", "offline"][i % 3]);
    await pause(settings);
    progress(`fleet of ${n}: ${dead} dead, pulumi up`);
    const heal = await timed(sim, () => stack.up({ color: "never" }), `fleet-heal-${n}`);
    await stack.destroy({ color: "never" });
    return { create: costOnly(create), heal: costOnly(heal), target: 5 };
  } finally {
    await stack.workspace.removeStack("bench", { force: true }).catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const x = (ms: number, bound: number) => `${(ms / bound).toFixed(2)}x`;

export function formatCliRows(rows: readonly CliRow[], settings: BenchSettings): string {
  const lines = [
    `Real CLI (inline programs, the package packed and installed), scale ${settings.scale}, latency ${settings.latencyMs} ms, load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`,
    "N    op           CLI time (x bound)   offline (x bound)    list calls CLI/offline (target)  calls  429s  failures",
  ];
  for (const r of rows) {
    if (r.parallel) lines.push(`--parallel ${r.parallel}`);
    const line = (op: string, cli: Cost, off: Cost | undefined, bound: number, target?: number) =>
      lines.push(
        [
          String(r.n).padEnd(4),
          op.padEnd(12),
          `${s(cli.timeMs)} (${x(cli.timeMs, bound)})`.padEnd(20),
          (off ? `${s(off.timeMs)} (${x(off.timeMs, bound)})` : "-").padEnd(20),
          `${cli.listCalls}/${off ? off.listCalls : "-"}${target ? ` (<= ${target})` : ""}`.padEnd(32),
          String(cli.calls).padEnd(6),
          String(cli.refused).padEnd(5),
          cli.failures ? `${cli.failures}: ${cli.firstError}` : "0",
        ].join(" "),
      );
    line("up", r.cli.up, r.offline?.create, r.bound.create);
    const c = r.creates;
    lines.push(
      [
        String(r.n).padEnd(4),
        "up: creates".padEnd(12),
        `${s(c.timeMs)} (${x(c.timeMs, r.bound.create)})`.padEnd(20),
        `${c.count} created, pace ${c.pace.toFixed(3)}, ${c.longGaps} gaps over 1.5 intervals (${c.longGapsWithList} after a list call), longest ${Math.round(c.maxGapMs)} ms`,
      ].join(" "),
    );
    line("refresh", r.cli.refresh, r.offline?.refresh, r.bound.refresh, r.listTarget);
    line("preview", r.cli.preview, r.offline?.diff, r.bound.refresh, r.listTarget);
    line("up --refresh", r.cli.upRefresh, undefined, r.bound.refresh);
    const k = r.checkpoint;
    lines.push(
      `     checkpoint: ${k.fileBytes} bytes after up (${k.resources} resources, ${k.perInstanceBytes} bytes per Instance), ${r.checkpointAfterUpRefresh} after up --refresh; serialized provider ${k.providerBytes} bytes (twice per entry, ${k.providerInstalled ? "the installed package's require" : "BY VALUE, not the installed package's require"}); bounds: create ${s(r.bound.create)}, list ${s(r.bound.refresh)}`,
    );
  }
  return lines.join("\n");
}

/** Refresh and preview within their list-call target, and the serialized provider the installed package's. */
export function cliTargetsMet(rows: readonly CliRow[]): boolean {
  return rows.every((r) => r.cli.refresh.listCalls <= r.listTarget && r.cli.preview.listCalls <= r.listTarget && r.checkpoint.providerInstalled);
}

async function main(): Promise<void> {
  const opts = new Command("bench:cli")
    .option("--json", "print the results as JSON", false)
    .option("--sizes <list>", "stack sizes, comma-separated", (v) => v.split(",").map(Number), [50, 200])
    .option("--scale <factor>", "factor on every rate-limit interval", Number, DEFAULTS.scale)
    .option("--latency-ms <ms>", "latency added to every response", Number, DEFAULTS.latencyMs)
    .option("--no-offline", "skip the offline engine's figures")
    .option("--fleet", "also a Fleet of 100 under the CLI: create, then heal 5 dead members in one up")
    .option("--no-instances", "skip the Instance rows")
    .option("--dump <dir>", "write each operation's list calls to <dir>/<op>-<N>.jsonl")
    .option("--parallel <list>", "the CLI's --parallel, comma-separated: the Instance rows once per value (default: the CLI's own, 4 per CPU)", (v) => v.split(",").map(Number))
    .parse(process.argv)
    .opts<{ json: boolean; sizes: number[]; scale: number; latencyMs: number; offline: boolean; dump?: string; fleet: boolean; instances: boolean; parallel?: number[] }>();
  dumpDir = opts.dump;
  if (dumpDir) fs.mkdirSync(dumpDir, { recursive: true });
  const repo = repoRoot();
  if (!fs.existsSync(path.join(repo, ".pulumi", "bin", "pulumi"))) throw new Error("no CLI in .pulumi/bin: run `npm run pulumi-cli` first");
  const settings: BenchSettings = { scale: opts.scale, latencyMs: opts.latencyMs, parallel: DEFAULTS.parallel };
  progress("packing the package and installing it into a scratch project (reused while the package is unchanged)");
  const installed = scratchProject(repo).dir;
  // A Fleet of 100 on one-GPU offers needs a market of 200: about a tenth of the offers have more GPUs.
  const sim = await startSimProcess({ rateLimits: serviceLimits(settings.scale), latencyMs: settings.latencyMs, marketOffers: Math.min(2000, Math.max(opts.fleet ? 200 : 100, ...opts.sizes)) });
  const rows: CliRow[] = [];
  let fleet: Awaited<ReturnType<typeof cliFleetHeal>> | undefined;
  try {
    for (const parallel of opts.parallel ?? [undefined]) {
      if (opts.instances) for (const n of opts.sizes) rows.push(await cliRow(repo, installed, sim, settings, n, opts.offline, parallel));
    }
    if (opts.fleet) fleet = await cliFleetHeal(repo, installed, sim, settings, 100, 5);
  } finally {
    await sim.close();
  }
  process.stdout.write(opts.json ? `${JSON.stringify({ rows, fleet }, null, 2)}\n` : `${formatCliRows(rows, settings)}\n`);
  if (fleet && !opts.json) {
    process.stdout.write(
      `fleet of 100: up ${s(fleet.create.timeMs)} (${fleet.create.listCalls} list calls); heal of 5 dead: ${s(fleet.heal.timeMs)}, ${fleet.heal.listCalls} list calls (target <= ${fleet.target}), ${fleet.heal.writes} writes${fleet.heal.failures ? `, failed: ${fleet.heal.firstError}` : ""}\n`,
    );
  }
  if (fleet && (fleet.create.failures > 0 || fleet.heal.failures > 0)) process.exitCode = 2;
  if (rows.some((r) => Object.values(r.cli).some((c) => c.failures > 0))) process.exitCode = 2;
  else if (!cliTargetsMet(rows)) process.exitCode = 1;
}

if (require.main === module) {
  main().catch((error: Error) => {
    process.stderr.write(`bench:cli: ${error.message}\n`);
    process.exit(2);
  });
}
