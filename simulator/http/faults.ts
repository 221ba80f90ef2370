/**
 * Injected faults (`POST /_sim/faults`): the next `times` requests matching method and path
 * answer with a given status and body, wait first, or lose their connection before or after
 * the change is applied.
 */
import { invalidArgs, show } from "./errors";
import { optInt, optObject, optString, type Body } from "./validate";

/** A fault the simulator injects on the next `times` requests matching `method` and `path`: a status and body, a delay, or a dropped connection. */
export interface FaultSpec {
  method: string;
  path: string;
  times: number;
  status?: number;
  /** A string is sent as-is (malformed JSON, plain text); anything else as JSON. */
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
  delayMs?: number;
  drop?: "before" | "after";
  /**
   * Answer `status` (default 400) with a refusal that repeats what the request sent, as a
   * service's `invalid onstart: <value>` does: a body field's value as sent (`"onstart"`), or
   * the whole body as JSON (`"*"`). Tests make the echo of secrets over real HTTP with it.
   */
  echo?: string;
}

interface Fault extends FaultSpec {
  pattern: RegExp;
}

/** `*` matches one path segment; a trailing slash is ignored on both sides. */
function compile(path: string): RegExp {
  const parts = trimSlash(path)
    .split("/")
    .map((seg) => (seg === "*" ? "[^/]+" : seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  return new RegExp(`^${parts.join("/")}$`);
}

function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
}

/** A delay longer than an hour is no test's wish. */
const MAX_FAULT_DELAY_MS = 3_600_000;

export function parseFault(body: Body): FaultSpec {
  const method = (optString(body, "method") ?? "*").toUpperCase();
  const path = optString(body, "path");
  if (!path || !path.startsWith("/")) throw invalidArgs(`path must be a request path starting with "/" (got ${show(path)})`);
  const times = optInt(body, "times") ?? 1;
  if (times < 1 || times > MAX_FAULT_TIMES) throw invalidArgs(`times must be 1 to ${MAX_FAULT_TIMES} (got ${times})`);
  const status = optInt(body, "status");
  if (status !== undefined && (status < 100 || status > 599)) throw invalidArgs(`status must be 100-599 (got ${status})`);
  const delayMs = optInt(body, "delayMs");
  if (delayMs !== undefined && (delayMs < 0 || delayMs > MAX_FAULT_DELAY_MS)) throw invalidArgs(`delayMs must be 0 to ${MAX_FAULT_DELAY_MS} (got ${delayMs})`);
  const drop = body.drop;
  if (drop !== undefined && drop !== "before" && drop !== "after") {
    throw invalidArgs(`drop must be "before" or "after" (got ${show(drop)})`);
  }
  const headers = optObject(body, "headers") as Record<string, string> | undefined;
  const contentType = optString(body, "contentType");
  const echo = optString(body, "echo", 100);
  if (echo !== undefined && body.body !== undefined) throw invalidArgs("echo makes the answer's body: give echo or body, not both");
  return { method, path, times, status, body: body.body, contentType, headers, delayMs, drop, ...(echo !== undefined ? { echo } : {}) };
}

/** The refusal an `echo` fault answers: what the request sent, repeated in the message. */
export function echoBody(echo: string, sent: unknown): { success: false; error: string; msg: string } {
  if (echo === "*") return { success: false, error: "invalid_args", msg: `invalid request: ${JSON.stringify(sent ?? null)}` };
  const value = sent && typeof sent === "object" && !Array.isArray(sent) ? (sent as Record<string, unknown>)[echo] : undefined;
  const shown = Array.isArray(value) ? value.map(String).join(" ") : typeof value === "string" ? value : JSON.stringify(value ?? null);
  return { success: false, error: "invalid_args", msg: `invalid ${echo}: ${shown}` };
}

/**
 * Pending faults at most, and uses of one fault at most: a script that adds faults in a loop
 * gets a clear 400 instead of a simulator whose memory and per-request matching grow without
 * end. Both are far above what a test arranges (the fault matrix holds a handful at a time).
 */
export const MAX_PENDING_FAULTS = 1000;
export const MAX_FAULT_TIMES = 100_000;

export class FaultRegistry {
  private faults: Fault[] = [];

  add(spec: FaultSpec): void {
    if (this.faults.length >= MAX_PENDING_FAULTS) {
      throw invalidArgs(
        `too many pending faults: at most ${MAX_PENDING_FAULTS} may wait at once; clear them with DELETE /_sim/faults or raise times on one instead of adding many`,
      );
    }
    this.faults.push({ ...spec, pattern: compile(spec.path) });
  }

  /** Consumes one use of the first fault matching this request, if any. */
  take(method: string, path: string): FaultSpec | undefined {
    const p = trimSlash(path);
    const fault = this.faults.find((f) => (f.method === "*" || f.method === method) && f.pattern.test(p));
    if (!fault) return undefined;
    fault.times -= 1;
    if (fault.times <= 0) this.faults = this.faults.filter((f) => f !== fault);
    const { pattern: _pattern, ...spec } = fault;
    return spec;
  }

  list(): FaultSpec[] {
    return this.faults.map(({ pattern: _pattern, ...spec }) => spec);
  }

  clear(): void {
    this.faults = [];
  }
}
