/**
 * issue 24 item 2: a `pulumi up` killed with SIGKILL while the instance's create is on its way
 * (the service already made the instance; the create never returned), then the next `up`:
 * the stack is locked until `pulumi cancel`; then the engine warns about the pending create and
 * creates the resource again, which adopts the instance the killed run made (docs/rate-limits-and-retries.md,
 * "A run killed mid-create"): no orphan, no duplicate; `pulumi refresh --clear-pending-creates` then
 * drops the stale pending entry.
 */
import * as fs from "fs";
import { startSimulator, type Simulator } from "pulumi-vastai/simulator";
import { CLI_BIN, describeE2E, e2eStack, exampleProgram, PUBLIC_KEY, simControl, type E2EStack } from "./harness";

const PROJECT = "vastai-quickstart";

/** Pids of the processes below `pid` (children first found through /proc). */
function descendants(pid: number): number[] {
  const found: number[] = [];
  const children = (parent: number) =>
    fs.readdirSync("/proc").flatMap((d) => {
      if (!/^\d+$/.test(d)) return [];
      try {
        const stat = fs.readFileSync(`/proc/${d}/stat`, "utf8");
        // Field 4 (after the parenthesised command, which may hold spaces) is the parent pid.
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        return ppid === parent ? [Number(d)] : [];
      } catch {
        return [];
      }
    });
  const queue = [pid];
  while (queue.length > 0) {
    const next = children(queue.shift() as number);
    found.push(...next);
    queue.push(...next);
  }
  return found;
}

/** The `pulumi` processes this test process started (the Automation API's child). */
function cliProcesses(): number[] {
  return descendants(process.pid).filter((pid) => {
    try {
      return fs.readlinkSync(`/proc/${pid}/exe`) === `${CLI_BIN}/pulumi`;
    } catch {
      return false;
    }
  });
}

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describeE2E("issue 24 item 2: a pulumi up killed with SIGKILL mid-create", () => {
  let sim: Simulator;
  let stack: E2EStack;

  beforeAll(async () => {
    // Instances boot for an hour unless the test says otherwise: the create is still waiting when killed.
    sim = await startSimulator({ port: 0, bootMs: 3_600_000 });
    stack = await e2eStack({ project: PROJECT, program: exampleProgram("quickstart"), sim, config: { [`${PROJECT}:sshPublicKey`]: PUBLIC_KEY } });
  });
  afterAll(async () => {
    await stack?.close();
    await sim?.close();
  });

  test("24.2 after pulumi cancel the next up adopts the instance the killed run made (one instance, in state); refresh --clear-pending-creates empties the pending operations", async () => {
    const before = sim.state().instances.length;
    const killedRun = stack.up().then(
      () => "finished",
      (err: Error) => err.message,
    );
    const made = await until("the instance to exist on the simulator", () => sim.state().instances.find((i) => i.label === "quickstart"));
    const cli = await until("the pulumi process", () => {
      const pids = cliProcesses();
      return pids.length > 0 ? pids : undefined;
    });
    // The CLI and everything it started (the provider plugin), as a CI runner's kill would.
    const all = cli.flatMap((pid) => [pid, ...descendants(pid)]);
    for (const pid of all) process.kill(pid, "SIGKILL");
    expect(await killedRun).not.toBe("finished");

    const checkpoint = JSON.parse(await stack.exportText()) as { pending_operations?: Array<{ type: string; resource: { urn: string } }> };
    expect(checkpoint.pending_operations?.map((p) => [p.type, p.resource.urn.split("::").pop()])).toEqual([["creating", "gpu"]]);

    // The killed CLI left its lock: the next up refuses to run until `pulumi cancel` removes it.
    await expect(stack.up()).rejects.toThrow(/the stack is currently locked/);
    const cancel = await stack.cli(["cancel", "--stack", "e2e", "--yes", "--non-interactive"]);
    expect(cancel).toMatchObject({ code: 0 });

    // The instance finishes booting; the next up runs to the end.
    await simControl(sim, "POST", `/instances/${made.id}/status`, { actual_status: "running" });
    const up = await stack.up();
    expect(up.stdout).toContain("Attempting to deploy or update resources with 1 pending operations from previous deployment");
    expect(up.ops["Instance gpu"]).toEqual(["create"]);
    expect(String(up.outputs.instanceId)).toBe(String(made.id));
    const quickstart = sim.state().instances.filter((i) => i.label === "quickstart");
    expect(quickstart.map((i) => i.id)).toEqual([made.id]);
    expect(sim.state().instances).toHaveLength(before + 1);

    // The engine keeps the pending create until a refresh clears it; the object is in state already.
    const pending = JSON.parse(await stack.exportText()) as { pending_operations?: unknown[] };
    expect(pending.pending_operations).toHaveLength(1);
    const refreshed = await stack.refresh({ clearPendingCreates: true });
    expect(refreshed.changes.update ?? 0).toBe(0);
    const after = JSON.parse(await stack.exportText()) as { pending_operations?: unknown[]; resources: Array<{ urn: string; id?: string }> };
    expect(after.pending_operations ?? []).toEqual([]);
    expect(after.resources.find((r) => r.urn.endsWith("::gpu"))?.id).toBe(String(made.id));
    expect(sim.state().instances.filter((i) => i.label === "quickstart").map((i) => i.id)).toEqual([made.id]);

    await stack.destroy();
    expect(sim.state().instances).toHaveLength(before);
  });
});
