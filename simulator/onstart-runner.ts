/**
 * Runs each instance's `onstart` as a real process on this machine (option `runOnstart`, off by
 * default), as the container would: so an in-machine guard started by it calls the simulator
 * with the instance's own key, and a stack's whole life (idle, stop, deadline) plays out without
 * anyone calling the API.
 *
 * A "container" is a scratch folder under the system's temp folder, kept from the instance's
 * creation to its destruction (its files survive a stop and a start, as a container's do):
 * `home/` (HOME and working folder), `guard/` (VASTAI_GUARD_DIR), `bin/nvidia-smi` (prints the
 * instance's `gpu_util`, one line per GPU, as set by `POST /_sim/instances/{id}/gpu`) and
 * `onstart.log` (the script's output). The script runs under `sh -c` in a process group of its
 * own, with the instance's env, `CONTAINER_ID`, `CONTAINER_API_KEY` and the extra `env` given;
 * the group is killed when the instance stops or is destroyed, and on reset and close; a start
 * after a stop runs the script again (a container restart). The processes run as the
 * simulator's user with its rights: this is a test facility for scripts the tests write, not a
 * sandbox. The guard reaches the simulator only at the API URL its plan names (loopback).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { offerSeed } from "./domain/offers";
import type { InstanceRecord } from "./store/types";

/** `runOnstart: true`, or settings for the processes. */
export interface RunOnstartOptions {
  /** Extra environment of every script (e.g. `{VASTAI_GUARD_TICK_SECONDS: "1"}`). */
  env?: Record<string, string>;
}

interface Container {
  dir: string;
  child: ChildProcess | null;
}

/** Ms between a stop (or destroy) and the end of the container's processes. */
const STOP_GRACE_MS = 500;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function shouldRun(inst: InstanceRecord): boolean {
  return inst.intendedStatus === "running" && !inst.startQueued && !inst.outbid && !!inst.onstart && inst.apiKey !== undefined;
}

export class OnstartRunner {
  private readonly containers = new Map<number, Container>();
  private readonly root = mkdtempSync(join(tmpdir(), "vastai-sim-onstart-"));
  private closed = false;

  constructor(private readonly opts: RunOnstartOptions = {}) {}

  /** Starts, stops and removes containers so they match the instances (called after every request). */
  reconcile(instances: InstanceRecord[]): void {
    if (this.closed) return;
    const live = new Map(instances.filter((i) => i.apiKey !== undefined).map((i) => [i.id, i]));
    for (const [id, c] of this.containers) {
      const inst = live.get(id);
      if (!inst) this.remove(id);
      else if (!shouldRun(inst)) this.kill(c);
    }
    for (const inst of live.values()) {
      if (!shouldRun(inst)) continue;
      const c = this.containers.get(inst.id) ?? this.create(inst);
      this.writeGpu(c, inst);
      if (!c.child) this.start(c, inst);
    }
  }

  /** Kills every process and removes every folder. */
  close(): void {
    this.closed = true;
    for (const id of [...this.containers.keys()]) this.remove(id, 0);
    rmSync(this.root, { recursive: true, force: true });
  }

  private create(inst: InstanceRecord): Container {
    const dir = join(this.root, `instance-${inst.id}`);
    for (const sub of ["bin", "home", "guard"]) mkdirSync(join(dir, sub), { recursive: true });
    const smi = join(dir, "bin", "nvidia-smi");
    writeFileSync(smi, `#!/bin/sh\ncat '${join(dir, "gpu")}'\n`);
    chmodSync(smi, 0o755);
    const c = { dir, child: null };
    this.containers.set(inst.id, c);
    return c;
  }

  private writeGpu(c: Container, inst: InstanceRecord): void {
    const gpus = Math.max(1, offerSeed(inst.offerId)?.numGpus ?? 1);
    writeFileSync(join(c.dir, "gpu"), `${Math.round(inst.gpuUtil ?? 0)}\n`.repeat(gpus));
  }

  private start(c: Container, inst: InstanceRecord): void {
    const env: Record<string, string> = {};
    for (const [k, v] of inst.env) if (ENV_NAME.test(k)) env[k] = v;
    Object.assign(env, this.opts.env, {
      PATH: `${join(c.dir, "bin")}:${process.env.PATH ?? "/usr/bin:/bin"}`,
      HOME: join(c.dir, "home"),
      CONTAINER_ID: String(inst.id),
      CONTAINER_API_KEY: inst.apiKey!,
      VASTAI_GUARD_DIR: join(c.dir, "guard"),
    });
    const out = openSync(join(c.dir, "onstart.log"), "a");
    try {
      const child = spawn("sh", ["-c", inst.onstart!], { cwd: join(c.dir, "home"), env, detached: true, stdio: ["ignore", out, out] });
      child.on("error", () => undefined);
      child.unref();
      c.child = child;
    } finally {
      closeSync(out);
    }
  }

  /**
   * Kills the script and everything it started (its process group), as a container stop does:
   * after `STOP_GRACE_MS`, so a guard that asked for the stop reads the answer first.
   */
  private kill(c: Container, graceMs = STOP_GRACE_MS): void {
    const pid = c.child?.pid;
    c.child = null;
    if (pid === undefined) return;
    const end = (): void => {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // The group is gone already.
      }
    };
    if (graceMs === 0) end();
    else setTimeout(end, graceMs).unref();
  }

  private remove(id: number, graceMs = STOP_GRACE_MS): void {
    const c = this.containers.get(id);
    if (!c) return;
    this.kill(c, graceMs);
    this.containers.delete(id);
    rmSync(c.dir, { recursive: true, force: true });
  }
}
