/**
 * The simulator's `runOnstart` setting: each instance's onstart runs as a real process, so the
 * in-machine guard lives the instance's whole life with nobody calling the API for it: idle,
 * stopped by its guard, started again (a fresh guard), destroyed at its deadline; and nothing is
 * left running when the simulator closes.
 */
import { mkdtempSync, readFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { SEED } from "pulumi-vastai/simulator";
import { guardedOnstart } from "../../provider/resources/instance/guard/script";
import { openSimulator, type SimHarness } from "./simulator-support";
import { guardPids, until } from "./guard-support";

let h: SimHarness;
let scratch: string;
beforeAll(async () => {
  h = await openSimulator({ runOnstart: { env: { VASTAI_GUARD_TICK_SECONDS: "1", VASTAI_GUARD_MINUTE_SECONDS: "1", VASTAI_GUARD_SSH_PORT: "0" } } });
  scratch = mkdtempSync(join(tmpdir(), "vastai-runner-test-"));
});
afterAll(async () => {
  await h.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function row(id: number): Promise<Record<string, unknown> | null> {
  return (await h.call("GET", `/api/v0/instances/${id}/`)).body.instances;
}

/** Rents an instance whose onstart starts the guard, then writes its HOME to a file the test reads. */
async function rentGuarded(offer: number, plan: Parameters<typeof guardedOnstart>[1], name: string) {
  const homeFile = join(scratch, name);
  const onstart = guardedOnstart(`echo "$HOME" >'${homeFile}'`, plan);
  const r = await h.call("PUT", `/api/v0/asks/${offer}/`, { image: "pytorch/pytorch", onstart });
  expect(r.status).toBe(200);
  const home = await until("the onstart", () => existsSync(homeFile) && readFileSync(homeFile, "utf8").trim());
  const guardDir = join(dirname(home), "guard");
  return { id: r.body.new_contract as number, guardDir, log: () => (existsSync(join(guardDir, "guard.log")) ? readFileSync(join(guardDir, "guard.log"), "utf8") : "") };
}

it("runs an instance's whole life: busy, idle then stopped by its guard, started again with a fresh guard, and gone at its deadline", async () => {
  const autostop = { idleMinutes: 2, gpuUtilBelowPercent: 5, action: "stop" as const };
  const a = await rentGuarded(SEED.offerIds[0], { apiUrl: h.sim.url, autostop }, "a");
  await h.control("POST", `/_sim/instances/${a.id}/gpu`, { gpu_util: 80 });
  await until("the guard", () => a.log().includes("guard started") && guardPids(a.guardDir).length === 1);
  // Busy for three seconds (more than the idle period): still running, no call by the guard.
  await new Promise((r) => setTimeout(r, 3000));
  expect((await row(a.id))?.intended_status).toBe("running");
  await h.control("POST", `/_sim/instances/${a.id}/gpu`, { gpu_util: 0 });
  await until("the stop", async () => (await row(a.id))?.intended_status === "stopped", 20_000);
  await until("the guard's end", () => guardPids(a.guardDir).length === 0);
  expect(a.log()).toMatch(/idle: every GPU below 5% \(0\)\n.*stop of instance \d+ accepted \(HTTP 200, idle 2 min\); guard exits\n$/);
  const requests = (await h.control("GET", "/_sim/requests")).body as { method: string; path: string; instanceKey?: number }[];
  expect(requests.filter((e) => e.instanceKey === a.id).map((e) => `${e.method} ${e.path}`)).toEqual([`PUT /api/v0/instances/${a.id}/`]);

  // Started again: the container's files are kept, the onstart runs again, a new guard counts idle afresh.
  expect((await h.call("PUT", `/api/v0/instances/${a.id}/`, { state: "running" })).body).toEqual({ success: true });
  await until("the second guard", () => (a.log().match(/guard started/g) ?? []).length === 2);
  await until("the second stop", async () => (await row(a.id))?.intended_status === "stopped", 20_000);
  expect(a.log().match(/accepted/g)).toHaveLength(2);

  // A deadline two seconds ahead: destroyed by its guard, whatever the GPUs do.
  const expiresAt = new Date(Date.now() + 2000).toISOString();
  const b = await rentGuarded(SEED.offerIds[1], { apiUrl: h.sim.url, expiresAt }, "b");
  await h.control("POST", `/_sim/instances/${b.id}/gpu`, { gpu_util: 100 });
  await until("the destroy", async () => (await row(b.id)) === null, 20_000);
  await until("the guard's end", () => guardPids(b.guardDir).length === 0);
});

it("kills every process it started when the simulator closes", async () => {
  const sim = await openSimulator({ runOnstart: true });
  const homeFile = join(scratch, "closing");
  const onstart = guardedOnstart(`echo "$HOME" >'${homeFile}'`, { apiUrl: sim.sim.url, autostop: { idleMinutes: 60, gpuUtilBelowPercent: 5, action: "stop" } });
  await sim.call("PUT", `/api/v0/asks/${SEED.offerIds[0]}/`, { image: "x", onstart });
  const home = await until("the onstart", () => existsSync(homeFile) && readFileSync(homeFile, "utf8").trim());
  const guardDir = join(dirname(home), "guard");
  await until("the guard", () => guardPids(guardDir).length === 1);
  await sim.close();
  await until("no guard left", () => guardPids(guardDir).length === 0);
  expect(existsSync(dirname(home))).toBe(false);
});
