/** Starting the simulator process and reading its request log through the control API. */
import { spawn, type ChildProcess } from "child_process";
import * as path from "path";
import * as readline from "readline";
import type { LoggedRequest, RateLimitTable } from "./deps";

export interface SimProcess {
  url: string;
  runUrl: string;
  apiKey: string;
  /** The request log since the last `clearLog`. */
  log(): Promise<LoggedRequest[]>;
  clearLog(): Promise<void>;
  /** Back to the seed state, limits and log cleared. */
  reset(): Promise<void>;
  /** Puts `count` running instances on the account at once (the control API); their ids. */
  addInstances(count: number, label: string): Promise<number[]>;
  /** When each instance on the account was created (ms, the simulator's clock). */
  instanceCreationTimes(): Promise<number[]>;
  /** Sets an instance's actual_status (the control API): it dies as a real one can. */
  setStatus(id: number, status: string): Promise<void>;
  close(): Promise<void>;
}

export interface SimSettings {
  rateLimits: RateLimitTable;
  latencyMs: number;
  /** Offers of the bulk market beside the catalogue (the fleet scenario rents 100 distinct ones). */
  marketOffers?: number;
  /** Milliseconds from an instance's creation (or in-place update) to running (default 0). */
  bootMs?: number;
}

export async function startSimProcess(settings: SimSettings): Promise<SimProcess> {
  const child = spawn(process.execPath, [path.join(__dirname, "sim-process.js"), JSON.stringify({ bootMs: 0, ...settings })], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const info = await firstLine(child);
  const control = async (method: string, route: string, body?: unknown): Promise<unknown> => {
    // The simulator takes control writes as JSON only, with or without a body.
    const init: RequestInit = { method, headers: method === "GET" ? {} : { "content-type": "application/json" } };
    if (body !== undefined) init.body = JSON.stringify(body);
    const res = await fetch(`${info.url}/_sim${route}`, init);
    if (!res.ok) throw new Error(`simulator control ${method} ${route}: HTTP ${res.status}`);
    return res.json();
  };
  return {
    ...info,
    log: async () => (await control("GET", "/requests")) as LoggedRequest[],
    clearLog: async () => {
      await control("DELETE", "/requests");
    },
    reset: async () => {
      await control("POST", "/reset");
    },
    instanceCreationTimes: async () => ((await control("GET", "/state")) as { instances: Array<{ start_date: number }> }).instances.map((i) => i.start_date * 1000),
    setStatus: async (id, status) => {
      await control("POST", `/instances/${id}/status`, { actual_status: status });
    },
    addInstances: async (count, label) => ((await control("POST", "/instances", { count, label })) as { ids: number[] }).ids,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

function firstLine(child: ChildProcess): Promise<{ url: string; runUrl: string; apiKey: string }> {
  return new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! });
    lines.once("line", (line) => {
      lines.close();
      resolve(JSON.parse(line));
    });
    child.once("exit", (code) => reject(new Error(`the simulator process exited with code ${code} before it started`)));
  });
}
