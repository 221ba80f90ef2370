/**
 * Issue 25 item 3: a step cut short (a jest timeout) leaves a plugin process running; the test
 * stack's `close()` (in `afterAll`) ends it, so jest does not hang on it.
 */
import { execFileSync } from "child_process";
import { Instance } from "pulumi-vastai";
import { startTestStack } from "pulumi-vastai/testing";
import { scratchProject } from "../contract/harness";
import { FAST_PLUGIN_CONFIG } from "../support/plugin-timing";

/** The ids of the node processes this test process started. */
function children(): number[] {
  const out = execFileSync("ps", ["-o", "pid=,comm=", "--ppid", String(process.pid)], { encoding: "utf8" });
  return out.split("\n").filter((l) => /node/.test(l)).map((l) => Number(l.trim().split(/\s+/)[0]));
}

async function until(what: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 50));
  }
}

test("25.3 close() ends the plugin process of a step still running, and the step fails", async () => {
  const dir = scratchProject().dir;
  const before = new Set(children());
  // Instances never finish booting here: `up` waits on its instance until stopped.
  const stack = await startTestStack({ cwd: dir, simulator: { bootMs: 3_600_000 }, config: { ...FAST_PLUGIN_CONFIG, "vastai:pollIntervalMs": "20" } });
  const step = stack.up(() => void new Instance("slow", { offerId: 700001, image: "pytorch/pytorch", label: "slow" })).then(
    () => "finished",
    (e: unknown) => (e instanceof Error ? e.message : String(e)),
  );
  await until(() => stack.sim.state().instances.length > 0, 120_000);
  const plugins = children().filter((pid) => !before.has(pid));
  expect(plugins.length).toBeGreaterThan(0);

  await stack.close();
  for (const pid of plugins) expect(() => process.kill(pid, 0)).toThrow();
  expect(await step).not.toBe("finished");
}, 240_000);
