/**
 * The simulator in a process of its own, so the benchmark's client and the service do not
 * share one event loop (on the real service they do not either). Started by sim.ts with its
 * options as JSON in argv[2]; prints one JSON line with its URLs and key, stops on SIGTERM.
 */
import { startSimulator } from "./deps";

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? "{}");
  const sim = await startSimulator({ ...options, port: 0 });
  process.stdout.write(`${JSON.stringify({ url: sim.url, runUrl: sim.runUrl, apiKey: sim.apiKey })}\n`);
  const stop = () => {
    sim.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  // The parent going away (a crash, Ctrl-C) closes stdin: stop with it.
  process.stdin.on("end", stop);
  process.stdin.resume();
}

main().catch((error: Error) => {
  process.stderr.write(`benchmark simulator: ${error.message}\n`);
  process.exit(1);
});
