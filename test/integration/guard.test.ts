/**
 * The in-machine guard, run for real: the start command the provider sends (guardedOnstart,
 * guardedArgs) runs under sh on this machine with a stand-in nvidia-smi on PATH and a one-second
 * tick, and calls the simulator over HTTP on 127.0.0.1 with the instance's own key.
 */
import { spawn } from "node:child_process";
import { SEED } from "pulumi-vastai/simulator";
import { guardedArgs, guardedArgsStr, guardedOnstart } from "../../provider/resources/instance/guard/script";
import { shellSplit } from "../../provider/client/wire/shell";
import type { GuardPlan } from "../../provider/resources/instance/guard/plan";
import { ONSTART_LIMIT, prepareOnstart } from "../../provider/client/wire";
import { openSimulator } from "./simulator-support";
import { useSimulator } from "../support/simulator";
import { makeContainer, until, type Container, type HttpTool } from "./guard-support";

const h = useSimulator({ start: openSimulator });

const containers: Container[] = [];
afterEach(() => {
  for (const c of containers.splice(0)) c.cleanup();
});

interface Rented {
  id: number;
  key: string;
}

async function rent(offer = SEED.offerIds[0]): Promise<Rented> {
  const r = await h.call("PUT", `/api/v0/asks/${offer}/`, { image: "pytorch/pytorch" });
  expect(r.status).toBe(200);
  return { id: r.body.new_contract, key: r.body.instance_api_key };
}

function container(inst: Rented, tools: HttpTool[] = ["curl"], extra: { sshPort?: number } = {}): Container {
  const c = makeContainer({ instanceId: inst.id, apiKey: inst.key, tools, ...extra });
  containers.push(c);
  return c;
}

function plan(extra: Partial<GuardPlan>): GuardPlan {
  return { apiUrl: h.sim.url, ...extra };
}

/** The guard's calls: the writes to an instance (the test itself only reads), made with the instance's own key unless a fault answered first. */
async function guardCalls(): Promise<{ method: string; path: string; status: number; body: unknown; instanceKey?: number }[]> {
  const log = (await h.control("GET", "/_sim/requests")).body as { method: string; path: string; status: number; body: unknown; instanceKey?: number }[];
  return log.filter((e) => e.method !== "GET" && e.path.startsWith("/api/v0/instances/"));
}

async function row(id: number): Promise<Record<string, unknown> | null> {
  return (await h.call("GET", `/api/v0/instances/${id}/`)).body.instances;
}

/** No secret anywhere the guard writes or the simulator logs. */
async function expectNoKey(c: Container, inst: Rented, out = ""): Promise<void> {
  const requests = JSON.stringify((await h.control("GET", "/_sim/requests")).body);
  for (const text of [c.log(), c.toolArgv(), out, requests]) expect(text).not.toContain(inst.key);
}

const IDLE_STOP: GuardPlan["autostop"] = { idleMinutes: 2, gpuUtilBelowPercent: 5, action: "stop" };

describe.each<HttpTool>(["curl", "wget", "python3"])("the guard with %s", (tool) => {
  it("stops an instance whose GPUs stay idle for the idle period, with its own key, and exits", async () => {
    const inst = await rent();
    const c = container(inst, [tool]);
    c.setGpu([0, 3]);
    const run = await c.runOnstart(guardedOnstart("echo user onstart ran", plan({ autostop: IDLE_STOP })));
    expect(run).toEqual({ code: 0, out: "user onstart ran\n" });
    await until("the stop", () => c.log().includes("guard exits"));
    const calls = await guardCalls();
    expect(calls.map((e) => [e.method, e.path, e.status, e.body, e.instanceKey])).toEqual([["PUT", `/api/v0/instances/${inst.id}/`, 200, { state: "stopped" }, inst.id]]);
    expect((await row(inst.id))?.intended_status).toBe("stopped");
    expect(c.log()).toMatch(/idle: every GPU below 5% \(0 3\)\n.*stop of instance \d+ accepted \(HTTP 200, idle 2 min\); guard exits\n$/);
    await until("the guard's end", () => c.guards().length === 0);
    // The key went in a header only: never on a command line, in the log or in the output.
    expect(c.toolArgv()).toContain(`/api/v0/instances/${inst.id}/`);
    await expectNoKey(c, inst, run.out);
  });
});

describe("the guard's size", () => {
  it("fits the onstart limit with room for the user's script, which is compressed with it when longer", () => {
    const full = plan({ autostop: IDLE_STOP, expiresAt: "2026-11-29T06:00:00Z", expireAction: "stop" });
    const alone = prepareOnstart(guardedOnstart(undefined, full));
    expect(alone.encoded).toBe(false);
    expect(alone.length).toBeLessThanOrEqual(ONSTART_LIMIT);
    const long = prepareOnstart(guardedOnstart("pip install -r requirements.txt\n".repeat(60), full));
    expect(long).toMatchObject({ encoded: true, fits: true });
  });
});

describe("the guard", () => {
  it("keeps a busy instance up, and counts the idle period from when the GPUs went idle", async () => {
    const inst = await rent();
    const c = container(inst);
    c.setGpu([0, 60]);
    await c.runOnstart(guardedOnstart(undefined, plan({ autostop: IDLE_STOP })));
    await until("the start", () => c.log().includes("guard started"));
    // Four ticks with one GPU busy: twice the idle period.
    await new Promise((r) => setTimeout(r, 4000));
    expect(await guardCalls()).toEqual([]);
    expect((await row(inst.id))?.intended_status).toBe("running");
    expect(c.guards()).toHaveLength(1);
    expect(c.log()).not.toContain("idle:");
    // Idle, busy again (the count restarts), idle: the stop comes two seconds after the last.
    c.setGpu([0, 0]);
    await until("idle", () => c.log().includes("idle:"));
    c.setGpu([90, 0]);
    await until("active again", () => c.log().includes("active again"));
    c.setGpu([1, 1]);
    await until("the stop", () => c.log().includes("accepted"));
    expect(c.log()).toMatch(/idle: .*\n.*active again \(GPU 90 0\)\n.*idle: every GPU below 5% \(1 1\)\n.*stop of instance/);
    expect(await guardCalls()).toHaveLength(1);
  });

  it("never idle-stops without a GPU reading (no nvidia-smi answer), and says so once", async () => {
    const inst = await rent();
    const c = container(inst);
    c.setGpu(null);
    await c.runOnstart(guardedOnstart(undefined, plan({ autostop: { idleMinutes: 1, gpuUtilBelowPercent: 5, action: "destroy" } })));
    await until("the start", () => c.log().includes("guard started"));
    await new Promise((r) => setTimeout(r, 3000));
    expect(await guardCalls()).toEqual([]);
    expect(c.log().match(/no GPU reading \(nvidia-smi missing or failing\): no idle stop until one/g)).toHaveLength(1);
    c.setGpu([0]);
    await until("the destroy", () => c.log().includes("accepted"));
  });

  it("treats an established connection to the SSH port as activity", async () => {
    const net = await import("node:net");
    const server = net.createServer(() => undefined);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as { port: number }).port;
    const socket = net.connect(port, "127.0.0.1");
    try {
      const inst = await rent();
      const c = container(inst, ["curl"], { sshPort: port });
      c.setGpu([0]);
      await c.runOnstart(guardedOnstart(undefined, plan({ autostop: { idleMinutes: 1, gpuUtilBelowPercent: 5, action: "stop" } })));
      await until("the start", () => c.log().includes("guard started"));
      await new Promise((r) => setTimeout(r, 3000));
      expect(await guardCalls()).toEqual([]);
      expect(c.log().match(/SSH session open: not idle/g)).toHaveLength(1);
      socket.destroy();
      await until("the stop", () => c.log().includes("accepted"));
      expect(c.log()).toMatch(/SSH session open: not idle\n.*idle: every GPU below 5% \(0\)\n.*stop of instance/);
    } finally {
      socket.destroy();
      server.close();
    }
  });

  it("destroys the instance at its deadline (TTL), whatever the GPUs do", async () => {
    const inst = await rent();
    const c = container(inst, ["curl"]);
    c.setGpu([100]);
    const expiresAt = new Date(Math.ceil(Date.now() / 1000) * 1000 + 2000).toISOString();
    await c.runOnstart(guardedOnstart("true", plan({ expiresAt, autostop: IDLE_STOP })));
    await until("the destroy", () => c.log().includes("guard exits"));
    const calls = await guardCalls();
    expect(calls.map((e) => [e.method, e.path, e.status, e.body])).toEqual([["DELETE", `/api/v0/instances/${inst.id}/`, 200, {}]]);
    expect(await row(inst.id)).toBeNull();
    expect(c.log()).toContain(`destroy of instance ${inst.id} accepted (HTTP 200, deadline ${expiresAt.replace(".000Z", "Z")}); guard exits`);
    // It did not act before the deadline.
    const acted = /^(\S+) destroy of instance/m.exec(c.log())![1];
    expect(Date.parse(acted)).toBeGreaterThanOrEqual(Date.parse(expiresAt));
    await expectNoKey(c, inst);
  });

  it("stops at the deadline when the expire action is stop", async () => {
    const inst = await rent();
    const c = container(inst, ["python3"]);
    await c.runOnstart(guardedOnstart(undefined, plan({ expiresAt: new Date(Date.now() - 1000).toISOString(), expireAction: "stop" })));
    await until("the stop", () => c.log().includes("guard exits"));
    expect((await guardCalls()).map((e) => [e.method, e.body])).toEqual([["PUT", { state: "stopped" }]]);
  });

  it("says it cannot act while the image has no curl, wget or python3, and acts once one is installed; the user's onstart still runs", async () => {
    const inst = await rent();
    const c = container(inst, []);
    c.setGpu([0]);
    const run = await c.runOnstart(guardedOnstart("echo still here; exit 3", plan({ autostop: IDLE_STOP, expiresAt: new Date(Date.now() - 1000).toISOString() })));
    expect(run).toEqual({ code: 3, out: "still here\n" });
    await until("a failed try", () => c.log().includes("try 2"));
    expect(await guardCalls()).toEqual([]);
    expect(c.guards()).toHaveLength(1);
    const lines = c.log().replace(/^\S+ /gm, "").replace(/instance \d+/g, "instance N").split("\n");
    expect(lines.slice(1, 4)).toEqual([
      "no curl, wget (GNU) or python3: autostop and TTL cannot act until one is installed",
      "destroy of instance N failed (HTTP none: no curl, wget or python3, try 1); next try in 1s",
      "destroy of instance N failed (HTTP none: no curl, wget or python3, try 2); next try in 2s",
    ]);
    c.addTool("curl");
    await until("the destroy", () => c.log().includes("guard exits"), 20_000);
    expect((await guardCalls()).map((e) => [e.method, e.status])).toEqual([["DELETE", 200]]);
  });

  it("retries a failing service with a doubling wait, never in a tight loop, then exits on success", async () => {
    const inst = await rent();
    const c = container(inst, ["curl"]);
    await h.control("POST", "/_sim/faults", { method: "DELETE", path: `/api/v0/instances/${inst.id}/`, status: 503, times: 3 });
    await c.runOnstart(guardedOnstart(undefined, plan({ expiresAt: new Date(Date.now() - 1000).toISOString() })));
    await until("the destroy", () => c.log().includes("guard exits"), 20_000);
    const calls = await guardCalls();
    expect(calls.map((e) => e.status)).toEqual([503, 503, 503, 200]);
    const lines = c.log().split("\n").filter((l) => l.includes("destroy of instance"));
    expect(lines.map((l) => l.replace(/^\S+ /, "").replace(/instance \d+/, "instance N"))).toEqual([
      "destroy of instance N failed (HTTP 503, try 1); next try in 1s",
      "destroy of instance N failed (HTTP 503, try 2); next try in 2s",
      "destroy of instance N failed (HTTP 503, try 3); next try in 4s",
      "destroy of instance N accepted (HTTP 200, deadline " + /deadline (\S+)\)/.exec(lines[3])![1] + "); guard exits",
    ]);
    // The waits between tries, from the log's times (whole seconds, each written just after its
    // call, so one may fall a second late): 1, 2 and 4 s (a tick is 1 s), not back to back.
    const times = lines.map((l) => Date.parse(l.split(" ")[0]) / 1000);
    const gaps = times.slice(1).map((t, i) => t - times[i]);
    expect(gaps[1]).toBeGreaterThanOrEqual(1);
    expect(gaps[2]).toBeGreaterThanOrEqual(3);
    expect(times[3] - times[0]).toBeGreaterThanOrEqual(6);
  });

  it("runs once when onstart runs again, and starts afresh after a container restart", async () => {
    const inst = await rent();
    const c = container(inst, ["curl"]);
    c.setGpu([50]);
    const onstart = guardedOnstart("echo started", plan({ autostop: IDLE_STOP }));
    await c.runOnstart(onstart);
    await until("the start", () => c.guards().length === 1);
    const first = c.guards()[0];
    expect(await c.runOnstart(onstart)).toEqual({ code: 0, out: "started\n" });
    await new Promise((r) => setTimeout(r, 500));
    expect(c.guards()).toEqual([first]);
    expect(c.log().match(/guard started/g)).toHaveLength(1);
    // A restart: every process of the container ends, then onstart runs again.
    c.stop();
    await until("the guard's end", () => c.guards().length === 0);
    await c.runOnstart(onstart);
    await until("a new guard", () => c.guards().length === 1 && c.guards()[0] !== first && c.log().match(/guard started/g)?.length === 2);
    // The idle count starts again with the new guard: idle now, stopped 2 s later.
    c.setGpu([0]);
    await until("the stop", () => c.log().includes("accepted"));
    expect(await guardCalls()).toHaveLength(1);
  });

  it("starts from an onstart too long to send as written (sent compressed, run by bash), and the user's script runs whole", async () => {
    const inst = await rent();
    const c = container(inst, ["curl"]);
    c.setGpu([0]);
    const user = `${Array.from({ length: 40 }, (_, i) => `: step ${i} of the set-up`).join("\n")}\necho set-up done; exit 4`;
    const sent = prepareOnstart(guardedOnstart(user, plan({ autostop: IDLE_STOP })));
    expect(sent).toMatchObject({ encoded: true, fits: true });
    expect(await c.runOnstart(sent.command)).toEqual({ code: 4, out: "set-up done\n" });
    await until("the stop", () => c.log().includes("accepted"));
  });

  it("with args, starts the guard and execs the user's command: its exit code and signals are kept", async () => {
    const inst = await rent();
    const c = container(inst, ["curl"]);
    c.setGpu([50]);
    const args = guardedArgs(["sh", "-c", 'echo "$0 $1"; exit 5', "a b", "c"], plan({ autostop: IDLE_STOP }));
    const exited = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(args[0], args.slice(1), { env: c.env, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      child.stdout.on("data", (d: Buffer) => (out += d.toString()));
      child.on("exit", (code) => resolve({ code, out }));
    });
    expect(exited).toEqual({ code: 5, out: "a b c\n" });
    await until("the guard", () => c.guards().length === 1);
    // A signal reaches the user's command itself (exec: no shell in between).
    const sleeper = guardedArgs(["sleep", "30"], plan({ autostop: IDLE_STOP }));
    const child = spawn(sleeper[0], sleeper.slice(1), { env: c.env, stdio: "ignore" });
    const ended = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
    await until("the exec", () => {
      try {
        return require("node:fs").readFileSync(`/proc/${child.pid}/cmdline`, "utf8") === "sleep\u000030\u0000";
      } catch {
        return false;
      }
    });
    child.kill("SIGTERM");
    expect(await ended).toBe("SIGTERM");
    expect(c.guards()).toHaveLength(1);
  });

  it("with argsStr, the command line splits into the guard's words then the user's, quoted as written", async () => {
    const inst = await rent();
    const c = container(inst, ["curl"]);
    c.setGpu([50]);
    const line = guardedArgsStr(`sh -c 'echo "$0 $1"; exit 6' "a b" c`, plan({ autostop: IDLE_STOP }));
    const words = shellSplit(line);
    expect(words.slice(0, 2)).toEqual(["sh", "-c"]);
    expect(words.slice(3)).toEqual(["vastai-guard", "sh", "-c", 'echo "$0 $1"; exit 6', "a b", "c"]);
    const exited = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(words[0], words.slice(1), { env: c.env, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      child.stdout.on("data", (d: Buffer) => (out += d.toString()));
      child.on("exit", (code) => resolve({ code, out }));
    });
    expect(exited).toEqual({ code: 6, out: "a b c\n" });
    await until("the guard", () => c.guards().length === 1);
  });
});
