/**
 * `npm run bench:cli [-- --json] [--sizes 50,200] [--scale 0.5] [--latency-ms 25] [--no-offline]`:
 * the stack of the offline benchmark (N Instances, each on an offer of its own) under the real
 * Pulumi CLI (the one `npm run pulumi-cli` builds into .pulumi/bin), the program inline through
 * the Automation API as the end-to-end suite runs it, against the simulator with its realistic
 * limits (scaled like the offline rows). For each N: `pulumi up`, `pulumi refresh`, `pulumi
 * preview` of the unchanged program and `pulumi up --refresh` of it, each with its wall time and
 * its list calls (counted at the simulator), the checkpoint's bytes per resource, and the same
 * operations through the offline engine (bench/provider-run.ts) beside the pacing bound. Prints
 * figures; a run that fails exits 2, a list-call target missed exits 1.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { Command } from "commander";
import { LocalWorkspace, PulumiCommand, type Stack } from "@pulumi/pulumi/automation";
import { Fleet, Instance } from "pulumi-vastai";
import { DEFAULTS, lowerBoundMs, refreshCallTarget, serviceLimits, type BenchSettings } from "./limits";
import { costOf, type Cost } from "./measure";
import { ProviderRun, instanceArgs } from "./provider-run";
import { repoRoot } from "./scratch";
import { startSimProcess, type SimProcess } from "./sim";

const progress = (line: string) => process.stderr.write(`${line}\n`);

type CliOp = "up" | "refresh" | "preview" | "upRefresh";

export interface CliRow {
  n: number;
  /** The CLI's figures per operation. */
  cli: Record<CliOp, Cost>;
  /** The offline engine's figures (create, refresh, diff), when run. */
  offline?: { create: Cost; refresh: Cost; diff: Cost };
  /** Pacing bounds, ms. */
  bound: { create: number; refresh: number };
  /** Bytes of the checkpoint file after `up`, and per Instance in it. */
  checkpoint: { fileBytes: number; perInstanceBytes: number; resources: number };
  /** Checkpoint bytes after `up --refresh` (an unchanged stack: same as after `up`, ideally). */
  checkpointAfterUpRefresh: number;
  /** The list-call target for refresh and preview (as offline). */
  listTarget: number;
}

/** A stack `bench` of N Instances on a file backend in a temporary directory, run by the built CLI. */
async function cliStack(repo: string, sim: SimProcess, settings: BenchSettings, n: number, fleet = false): Promise<{ stack: Stack; dir: string; stateFile: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vastai-bench-cli-"));
  const work = path.join(dir, "work");
  for (const sub of ["state", "home", "work", "work/node_modules"]) fs.mkdirSync(path.join(dir, sub));
  // The project installs the package (this checkout, built) and @pulumi, as a user's project does:
  // the plugin loads the serialized provider's `pulumi-vastai/shims/...` from there.
  fs.symlinkSync(path.join(repo, "node_modules", "@pulumi"), path.join(work, "node_modules", "@pulumi"), "dir");
  fs.symlinkSync(repo, path.join(work, "node_modules", "pulumi-vastai"), "dir");
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

async function timed(sim: SimProcess, run: () => Promise<unknown>, name: string): Promise<Cost> {
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
  return costOf(log, ms, { failures: failure ? 1 : 0, firstError: failure });
}

/** The pause between two pulumi commands: the paged list's interval passes. */
const pause = (settings: BenchSettings) => new Promise((resolve) => setTimeout(resolve, 2000 * settings.scale));

function checkpointOf(stateFile: string): { fileBytes: number; perInstanceBytes: number; resources: number } {
  const text = fs.readFileSync(stateFile, "utf8");
  const resources = (JSON.parse(text) as { checkpoint: { latest?: { resources?: Array<{ type: string }> } } }).checkpoint.latest?.resources ?? [];
  const instances = resources.filter((r) => r.type.endsWith(":Instance"));
  const bytes = instances.reduce((sum, r) => sum + Buffer.byteLength(JSON.stringify(r)), 0);
  if (dumpDir && instances[0]) fs.writeFileSync(path.join(dumpDir, `instance-state-${instances.length}.json`), JSON.stringify(instances[0], null, 1));
  return { fileBytes: Buffer.byteLength(text), perInstanceBytes: instances.length ? Math.round(bytes / instances.length) : 0, resources: resources.length };
}

export async function cliRow(repo: string, sim: SimProcess, settings: BenchSettings, n: number, offline: boolean): Promise<CliRow> {
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
  const { stack, dir, stateFile } = await cliStack(repo, sim, settings, n);
  try {
    progress(`N=${n}: pulumi up`);
    const up = await timed(sim, () => stack.up({ color: "never" }), `up-${n}`);
    const checkpoint = checkpointOf(stateFile);
    await pause(settings);
    progress(`N=${n}: pulumi refresh`);
    const refresh = await timed(sim, () => stack.refresh({ color: "never" }), `refresh-${n}`);
    await pause(settings);
    progress(`N=${n}: pulumi preview`);
    const preview = await timed(sim, () => stack.preview({ color: "never" }), `preview-${n}`);
    await pause(settings);
    progress(`N=${n}: pulumi up --refresh`);
    const upRefresh = await timed(sim, () => stack.up({ color: "never", refresh: true }), `up-refresh-${n}`);
    const checkpointAfterUpRefresh = fs.statSync(stateFile).size;
    progress(`N=${n}: pulumi destroy (untimed)`);
    await stack.destroy({ color: "never" });
    return {
      n,
      cli: { up, refresh, preview, upRefresh },
      offline: offlineCosts,
      bound: { create: lowerBoundMs("create", n, limits, settings.latencyMs), refresh: lowerBoundMs("refresh", n, limits, settings.latencyMs) },
      checkpoint,
      checkpointAfterUpRefresh,
      listTarget: refreshCallTarget(n),
    };
  } finally {
    await stack.workspace.removeStack("bench", { force: true }).catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A Fleet of `n` under the CLI, `dead` of its members dying, then one `pulumi up` that heals it: its cost. */
export async function cliFleetHeal(repo: string, sim: SimProcess, settings: BenchSettings, n: number, dead: number): Promise<{ create: Cost; heal: Cost; target: number }> {
  await sim.reset();
  const { stack, dir } = await cliStack(repo, sim, settings, n, true);
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
    return { create, heal, target: 5 };
  } finally {
    await stack.workspace.removeStack("bench", { force: true }).catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const x = (ms: number, bound: number) => `${(ms / bound).toFixed(2)}x`;

export function formatCliRows(rows: readonly CliRow[], settings: BenchSettings): string {
  const lines = [
    `Real CLI (inline programs), scale ${settings.scale}, latency ${settings.latencyMs} ms, load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`,
    "N    op           CLI time (x bound)   offline (x bound)    list calls CLI/offline (target)  calls  429s  failures",
  ];
  for (const r of rows) {
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
    line("refresh", r.cli.refresh, r.offline?.refresh, r.bound.refresh, r.listTarget);
    line("preview", r.cli.preview, r.offline?.diff, r.bound.refresh, r.listTarget);
    line("up --refresh", r.cli.upRefresh, undefined, r.bound.refresh);
    lines.push(
      `     checkpoint: ${r.checkpoint.fileBytes} bytes after up (${r.checkpoint.resources} resources, ${r.checkpoint.perInstanceBytes} bytes per Instance), ${r.checkpointAfterUpRefresh} after up --refresh; bounds: create ${s(r.bound.create)}, list ${s(r.bound.refresh)}`,
    );
  }
  return lines.join("\n");
}

/** Refresh and preview within their list-call target, and no operation failed. */
export function cliTargetsMet(rows: readonly CliRow[]): boolean {
  return rows.every((r) => r.cli.refresh.listCalls <= r.listTarget && r.cli.preview.listCalls <= r.listTarget);
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
    .parse(process.argv)
    .opts<{ json: boolean; sizes: number[]; scale: number; latencyMs: number; offline: boolean; dump?: string; fleet: boolean; instances: boolean }>();
  dumpDir = opts.dump;
  if (dumpDir) fs.mkdirSync(dumpDir, { recursive: true });
  const repo = repoRoot();
  if (!fs.existsSync(path.join(repo, ".pulumi", "bin", "pulumi"))) throw new Error("no CLI in .pulumi/bin: run `npm run pulumi-cli` first");
  const settings: BenchSettings = { scale: opts.scale, latencyMs: opts.latencyMs, parallel: DEFAULTS.parallel };
  const sim = await startSimProcess({ rateLimits: serviceLimits(settings.scale), latencyMs: settings.latencyMs, marketOffers: Math.min(2000, Math.max(100, ...opts.sizes)) });
  const rows: CliRow[] = [];
  let fleet: Awaited<ReturnType<typeof cliFleetHeal>> | undefined;
  try {
    if (opts.instances) for (const n of opts.sizes) rows.push(await cliRow(repo, sim, settings, n, opts.offline));
    if (opts.fleet) fleet = await cliFleetHeal(repo, sim, settings, 100, 5);
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
