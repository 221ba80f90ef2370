/**
 * `npm run bench [-- --json] [--sizes 10,50,200] [--scale 0.5] [--latency-ms 25] [--parallel 10]
 * [--no-plugin] [--no-account] [--no-fleet] [--no-own-reads] [--account-others 2000] [--no-roll] [--no-search]`: create, refresh, no-op diff and destroy of N instances through the provider
 * and through a naive client, against the simulator under scaled realistic rate limits; then
 * the serialized provider sizes and the plugin's cold start. Prints a table (or JSON) and
 * exits 1 when a target is missed. See bench/README.md.
 */
import { Command, InvalidArgumentError } from "commander";
import { accountRows, mixedRow } from "./account-run";
import { FleetRun, MARKET_OFFERS } from "./fleet-run";
import { fleetAccountRow, scatteredRow } from "./own-reads-run";
import { DEFAULTS, lowerBoundMs, refreshCallTarget, serviceLimits, type BenchSettings } from "./limits";
import type { Cost } from "./measure";
import { NaiveRun } from "./naive-run";
import { measureColdStart } from "./plugin";
import { ProviderRun, instanceArgs } from "./provider-run";
import { formatResults, judge, type Results, type Row } from "./report";
import { rollRow, searchRow } from "./roll-run";
import { scratchProject } from "./scratch";
import { startSimProcess, type SimProcess } from "./sim";

interface CliOptions {
  json: boolean;
  sizes: number[];
  scale: number;
  latencyMs: number;
  parallel: number;
  plugin: boolean;
  account: boolean;
  fleet: boolean;
  ownReads: boolean;
  accountOthers: number;
  roll: boolean;
  search: boolean;
}

const progress = (line: string) => process.stderr.write(`${line}\n`);

function positive(name: string, integer = false) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) throw new InvalidArgumentError(`${name} must be a positive ${integer ? "whole " : ""}number (got "${v}")`);
    return n;
  };
}

function options(argv: string[]): CliOptions {
  return new Command("bench")
    .option("--json", "print the results as JSON", false)
    .option("--sizes <list>", "stack sizes, comma-separated", (v) => v.split(",").map(positive("each size", true)), [10, 50, 200])
    .option("--scale <factor>", "factor on every rate-limit interval", positive("--scale"), DEFAULTS.scale)
    .option("--latency-ms <ms>", "latency added to every response", (v) => (v === "0" ? 0 : positive("--latency-ms")(v)), DEFAULTS.latencyMs)
    .option("--parallel <n>", "resource operations at once", positive("--parallel", true), DEFAULTS.parallel)
    .option("--no-plugin", "skip the package install and the plugin cold start")
    .option("--no-account", "skip the shared-account scenarios (others' instances, mixed up)")
    .option("--no-fleet", "skip the fleet scenarios (create 100, heal 10)")
    .option("--no-own-reads", "skip the reads-follow-the-stack scenarios (fleet account, scattered ids)")
    .option("--account-others <n>", "other instances in the fleet account scenario", positive("--account-others", true), 2000)
    .option("--no-roll", "skip the roll scenarios (a fleet rolled in place, Instances updated at once, 2 s boots)")
    .option("--no-search", "skip the offer-search scenario (Instances from the same offer filters)")
    .parse(argv)
    .opts<CliOptions>();
}

async function stackRows(sim: SimProcess, settings: BenchSettings, n: number): Promise<Row[]> {
  const limits = serviceLimits(settings.scale);
  const bound = (op: Row["op"]) => lowerBoundMs(op, n, limits, settings.latencyMs);
  const provider = new ProviderRun(sim, settings);
  await sim.reset();
  await provider.warmUp();
  progress(`N=${n}: provider create, refresh, diff, destroy`);
  const created = await provider.create(n);
  const ours: Record<Row["op"], Cost> = {
    create: created.cost,
    refresh: await provider.refresh(created.states),
    diff: await provider.diff(created.states),
    destroy: await provider.destroy(created.states),
  };
  await sim.reset();
  progress(`N=${n}: naive create, refresh, diff, destroy`);
  const naive = new NaiveRun(sim, settings);
  const naiveCreated = await naive.create(n, instanceArgs);
  const theirs: Record<Row["op"], Cost> = {
    create: naiveCreated.cost,
    refresh: await naive.readEach(naiveCreated.ids),
    diff: await naive.readEach(naiveCreated.ids),
    destroy: await naive.destroy(naiveCreated.ids),
  };
  return (["create", "refresh", "diff", "destroy"] as const).map((op) => ({ n, op, provider: ours[op], naive: theirs[op], boundMs: bound(op) }));
}

async function main(): Promise<void> {
  const started = performance.now();
  const opts = options(process.argv);
  const settings: BenchSettings = { scale: opts.scale, latencyMs: opts.latencyMs, parallel: opts.parallel };
  const limits = serviceLimits(settings.scale);
  // Each instance of a stack rents an offer of its own on the bulk market (provider-run.ts).
  const marketOffers = Math.min(2000, Math.max(MARKET_OFFERS, ...opts.sizes));
  const sim = await startSimProcess({ rateLimits: limits, latencyMs: settings.latencyMs, marketOffers });
  const results: Results = {
    settings: {
      ...settings,
      sizes: opts.sizes,
      limits: { create: limits["PUT /api/v0/asks/{id}"], page: limits["GET /api/v1/instances"] },
    },
    rows: [],
    targets: [],
    serializedBytes: {},
    setup: { installMs: 0 },
    totalMs: 0,
  };
  try {
    for (const n of opts.sizes) results.rows.push(...(await stackRows(sim, settings, n)));
    if (opts.account) {
      results.account = await accountRows(sim, settings, progress);
      results.mixed = await mixedRow(sim, settings, progress);
    }
    if (opts.fleet) {
      await sim.reset();
      const run = new FleetRun(sim, settings);
      await run.warmUp();
      results.fleet = await run.run(progress);
    }
    if (opts.ownReads) {
      results.fleetAccount = await fleetAccountRow(sim, settings, opts.accountOthers, progress);
      results.scattered = await scatteredRow(sim, settings, progress);
    }
    if (opts.search) results.search = await searchRow(sim, settings, progress);
    if (opts.roll) results.roll = await rollRow(settings, progress);
    if (opts.plugin) {
      progress("packing and installing the package into a scratch project (reused while unchanged)");
      const scratch = scratchProject();
      results.setup.installMs = scratch.installMs;
      results.serializedBytes = Object.fromEntries(Object.entries(scratch.serialized).map(([k, v]) => [k, Buffer.byteLength(v)]));
      progress("plugin cold start");
      await sim.reset();
      results.coldStart = await measureColdStart(scratch, sim);
    }
  } finally {
    await sim.close();
  }
  results.targets = judge(results, refreshCallTarget);
  results.totalMs = performance.now() - started;
  process.stdout.write(opts.json ? `${JSON.stringify(results, null, 2)}\n` : `${formatResults(results)}\n`);
  if (results.targets.some((t) => !t.pass)) process.exitCode = 1;
}

main().catch((error: Error) => {
  process.stderr.write(`bench: ${error.message}\n`);
  process.exit(2);
});
