/**
 * Issue 34, done when: a stack with autostop, a TTL and a stack budget runs its whole life in the
 * simulator with no `pulumi` run between the idle period and the stop. The simulator runs each
 * instance's onstart as a real process (`runOnstart`, with a 1-second tick and minute for the
 * guard); the GPUs go idle through the control API; the guard stops the instance with its own
 * key; the next `up` neither starts nor replaces it; the budget
 * refuses a second instance over it. Then a second instance reaches its deadline and its guard
 * destroys it; the next `up` keeps it in state as expired, rents nothing.
 */
import { Instance } from "pulumi-vastai";
import { StepFailedError, startTestStack, type TestStack } from "pulumi-vastai/testing";
import { scratchProject } from "../contract/harness";
import { simControl } from "../support/control";
import { FAST_PLUGIN_CONFIG } from "../support/plugin-timing";

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({
    cwd: scratchProject().dir,
    project: "life",
    stack: "dev",
    simulator: { runOnstart: { env: { VASTAI_GUARD_TICK_SECONDS: "1", VASTAI_GUARD_MINUTE_SECONDS: "1", VASTAI_GUARD_SSH_PORT: "0" } } },
    config: { ...FAST_PLUGIN_CONFIG, "vastai:maxHourlyCost": "1" },
  });
}, 180_000);
afterAll(() => stack?.close());

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const rows = () => stack.sim.state().instances as Array<{ id: number; intended_status?: string; label?: string }>;

test("34 autostop, ttl and the stack budget: the guard stops and destroys with nobody running pulumi, and the next up agrees", async () => {
  const box = () => ({ box: new Instance("box", { offerId: 700002, image: "ubuntu", onstart: "echo mine > /tmp/mine", autostop: { idleMinutes: 1, action: "stop" }, ttl: "8h" }).stoppedBy });
  const up = await stack.up(box);
  expect(up.outcomes.map((o) => `${o.name}: ${o.outcome}`)).toEqual(["box: created"]);
  const [made] = rows();
  await simControl(stack.sim.url, "POST", `/instances/${made.id}/gpu`, { gpu_util: 0 });
  // Nobody runs pulumi: the guard inside the instance stops it with its own key.
  await until("the guard's stop", async () => (rows().find((i) => i.id === made.id)?.intended_status === "stopped" ? true : undefined));
  const log = await simControl<Array<{ method: string; path: string; instanceKey?: number }>>(stack.sim.url, "GET", "/requests");
  expect(log.filter((r) => r.instanceKey === made.id).map((r) => r.method)).toContain("PUT");

  const again = await stack.up(box);
  expect(again.outcomes.map((o) => `${o.name}: ${o.outcome}`)).toEqual(["box: unchanged"]);
  // (stoppedBy itself is an output a refresh reads: test/contract/autostop.test.ts; the kit has no refresh.)
  expect(rows().find((i) => i.id === made.id)?.intended_status).toBe("stopped");

  // The budget (1 $/hour) refuses a second instance that would take the stack over it.
  const two = () => ({ ...box(), big: new Instance("big", { offerId: 700004, image: "ubuntu" }).id });
  const over = await stack.up(two).catch((e: unknown) => e);
  expect(over).toBeInstanceOf(StepFailedError);
  expect(String((over as StepFailedError).message)).toMatch(/over vastai:maxHourlyCost/);
  expect(rows()).toHaveLength(1);

  // A deadline that passes with nobody running pulumi: the guard destroys its instance.
  const expiresAt = new Date(Date.now() + 8_000).toISOString();
  const soon = () => ({ ...box(), short: new Instance("short", { offerId: 700005, image: "ubuntu", expiresAt }).expired });
  await stack.up(soon);
  const short = rows().find((i) => i.id !== made.id)!;
  await until("the guard's destroy", async () => (rows().some((i) => i.id === short.id) ? undefined : true));
  const after = await stack.up(soon);
  expect(after.outcomes.find((o) => o.name === "short")?.outcome).toBe("unchanged");
  expect(rows().map((i) => i.id)).toEqual([made.id]);
  await stack.destroy();
}, 180_000);
