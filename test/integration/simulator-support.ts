/**
 * Plain-fetch helpers for the simulator's own tests: they talk HTTP on 127.0.0.1 the way any
 * client would, without the typed client.
 */
import { startSimulator, type Simulator, type SimulatorOptions } from "pulumi-vastai/simulator";

export interface Reply {
  status: number;
  /** Parsed JSON, or undefined when the body is not JSON. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
  headers: Headers;
}

export interface CallOptions {
  /** API key to send as Bearer; null sends no Authorization header. Default: the default key. */
  key?: string | null;
  /** A body sent as-is instead of JSON. */
  raw?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface SimHarness {
  sim: Simulator;
  call(method: string, path: string, body?: unknown, opts?: CallOptions): Promise<Reply>;
  /** Control API call (no auth). */
  control(method: string, path: string, body?: unknown): Promise<Reply>;
  /** Runs against runUrl instead of url. */
  run(path: string, body?: unknown, opts?: CallOptions): Promise<Reply>;
  close(): Promise<void>;
}

async function send(url: string, method: string, body: unknown, opts: CallOptions, defaultKey: string): Promise<Reply> {
  const headers: Record<string, string> = { ...opts.headers };
  const key = opts.key === undefined ? defaultKey : opts.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  let payload: string | undefined;
  if (opts.raw !== undefined) payload = opts.raw;
  else if (body !== undefined) {
    payload = JSON.stringify(body);
    headers["content-type"] = "application/json";
  }
  const res = await fetch(url, { method, headers, body: payload, signal: opts.signal });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
}

export async function openSimulator(options: SimulatorOptions = {}): Promise<SimHarness> {
  const sim = await startSimulator({ port: 0, bootMs: 0, ...options });
  return {
    sim,
    call: (method, path, body, opts = {}) => send(sim.url + path, method, body, opts, sim.apiKey),
    // Control writes must be JSON (the simulator refuses others), even without a body.
    control: (method, path, body) =>
      send(sim.url + path, method, body, { key: null, headers: method === "GET" ? {} : { "content-type": "application/json" } }, sim.apiKey),
    run: (path, body, opts = {}) => send(sim.runUrl + path, "POST", body, opts, sim.apiKey),
    close: () => sim.close(),
  };
}

/** A clock the test moves by hand. */
export function manualClock(start = Date.UTC(2026, 0, 1)): { now: () => number; advance(ms: number): void } {
  let t = start;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

export const ED25519_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIEXAMPLEexampleEXAMPLEexampleEXAMPLEexample test@example";
export const RSA_KEY = "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQCexampleKEYexampleKEYexampleKEY other@example";
