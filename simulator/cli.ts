#!/usr/bin/env node
/**
 * Command line: `npm run simulator -- --port 18080 --api-key KEY [--boot-ms N]
 * [--rate-limits realistic|off] [--state FILE] [--latency-ms N] [--market-offers N]`. Prints the URLs and the key,
 * stops cleanly on SIGINT/SIGTERM.
 */
import { Command, InvalidArgumentError } from "commander";
import { startSimulator, type Simulator } from "./start";

interface CliOptions {
  port: number;
  host: "127.0.0.1" | "::1" | "localhost";
  apiKey?: string;
  bootMs?: number;
  marketOffers?: number;
  rateLimits: "off" | "realistic";
  state?: string;
  latencyMs?: number;
  untrimmedStrings?: boolean;
  runOnstart?: boolean;
}

function nonNegativeInt(name: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`${name} must be a whole number >= 0 (got "${value}").`);
    return Number(value);
  };
}

function program(): Command {
  return new Command("vastai-simulator")
    .description("Local simulator of the Vast.ai GPU cloud API on a loopback address")
    .option("--port <port>", "TCP port (0 picks a free one)", nonNegativeInt("--port"), 18080)
    .option("--host <host>", "loopback address to bind: 127.0.0.1, ::1 or localhost", "127.0.0.1")
    .option("--api-key <key>", "API key of the default account (default sim-default-api-key)")
    .option("--boot-ms <ms>", "milliseconds from instance creation to running", nonNegativeInt("--boot-ms"))
    .option("--rate-limits <mode>", "off or realistic", (v: string) => {
      if (v !== "off" && v !== "realistic") throw new InvalidArgumentError(`must be "off" or "realistic" (got "${v}").`);
      return v;
    }, "off")
    .option("--market-offers <n>", "single-GPU offers added to the catalogue of 24 (0 to 2000)", nonNegativeInt("--market-offers"))
    .option("--state <file>", "keep state in this JSON file across restarts")
    .option("--latency-ms <ms>", "fixed delay added to every API response", nonNegativeInt("--latency-ms"))
    .option("--untrimmed-strings", "serve instance and offer rows with a newline after every string, as the live service")
    .option("--run-onstart", "run each instance's onstart as a process on this machine (an in-machine guard then acts on its own)");
}

function banner(sim: Simulator, opts: CliOptions): string {
  return [
    "GPU cloud API simulator is running.",
    `  API URL:   ${sim.url}`,
    `  Run URL:   ${sim.runUrl}`,
    `  API key:   ${sim.apiKey}`,
    `  User id:   ${sim.userId}`,
    `  State:     ${opts.state ?? "in memory"}`,
    `  Limits:    rate limits ${opts.rateLimits}`,
    "Point a client at it:",
    `  export VAST_URL=${sim.url} VAST_RUN_URL=${sim.runUrl} VAST_API_KEY=${sim.apiKey}`,
    "Press Ctrl-C to stop.",
    "",
  ].join("\n");
}

export async function main(argv: string[] = process.argv): Promise<Simulator> {
  const opts = program().parse(argv).opts<CliOptions>();
  const sim = await startSimulator({
    port: opts.port,
    host: opts.host,
    apiKey: opts.apiKey,
    bootMs: opts.bootMs,
    marketOffers: opts.marketOffers,
    rateLimits: opts.rateLimits,
    stateFile: opts.state,
    latencyMs: opts.latencyMs,
    // Another simulator took the state file over (this one was paused too long): say so and stop.
    onStateLockLost: () => process.exit(3),
    untrimmedStrings: opts.untrimmedStrings,
    runOnstart: opts.runOnstart,
  });
  process.stdout.write(banner(sim, opts));
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`Received ${signal}, stopping.\n`);
    sim.close().then(
      () => process.exit(0),
      (err: Error) => {
        process.stderr.write(`Simulator did not stop cleanly: ${err.message}\n`);
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
  return sim;
}

if (require.main === module) {
  main().catch((err: Error) => {
    process.stderr.write(`vastai-simulator: ${err.message}\n`);
    process.exit(1);
  });
}
