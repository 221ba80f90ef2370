/**
 * The request core: every call of every API area goes through `RequestCore.request`, which
 * waits for its turn (pacing.ts, one `acquire` per attempt), sends it (transport.ts), maps failures to the error classes
 * (errors.ts), retries what is safe to retry (retry.ts) and validates the response with the
 * call's zod schema.
 */
import type { z } from "zod";
import { Endpoint, endpointKey, fillRoute } from "./endpoints";
import {
  CallSite,
  ResponseLostError,
  ResponseSchemaError,
  ResponseTooLargeError,
  UndocumentedSuccessError,
  VastConnectionError,
  VastOperationError,
  VastApiError,
  VastTimeoutError,
  apiErrorFor,
} from "./errors";
import { echoMask, type EchoMask } from "./echo-mask";
import { operationFailure, parseErrorBody } from "./error-body";
import { Pacer, type Refusal } from "./pacing";
import { scrub } from "./redact";
import { Clock, RetryPolicy, withRetry } from "./retry";
import { ResponseTooLarge, Transport, TransportFailure } from "./transport";

/** Where the client logs its requests and retries (debug and warnings); secrets are scrubbed first. */
export interface Logger {
  debug?(message: string): void;
  warn?(message: string): void;
}

export interface CoreSettings {
  apiKey: string;
  apiUrl: string;
  runUrl: string;
  timeoutMs: number;
  retry: RetryPolicy;
  pacer: Pacer;
  /** Named in the advice of a 429 that survives the retries. */
  rateLimitScale: number;
  clock: Clock;
  transport: Transport;
  logger?: Logger;
  userAgent: string;
  /** Most bytes of a response body; longer answers are ResponseTooLargeError. */
  maxResponseBytes: number;
}

/** A value of a URL query parameter; `undefined` and `null` leave the parameter out. */
export type QueryValue = string | number | boolean | null | undefined;

/**
 * What a request checks its response with: a zod schema in practice, typed structurally so that
 * zod's declarations stay out of the package's public ones.
 */
export interface ResponseSchema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false; error: unknown };
}

/** One API request as the client's areas describe it: endpoint, path parameters, query, body and the schema of the answer. */
export interface RequestSpec<T> {
  endpoint: Endpoint;
  /** Values for the route's `{name}` placeholders. */
  params?: Record<string, string | number>;
  /** Query parameters; undefined and null values are left out. */
  query?: Record<string, QueryValue>;
  /** JSON body. */
  body?: unknown;
  /** Parses the 2xx body into the result (snake_case in, camelCase out). */
  schema: ResponseSchema<T>;
  /** Hand `{success: false, ...}` bodies at HTTP 200 to the schema instead of throwing
   * VastOperationError (for calls where success=false is not a failure); a function decides
   * per body. */
  acceptOperationFailure?: boolean | ((body: Record<string, unknown>) => boolean);
  /** The success shape the service documents for this call (a delete's `{success: true}`): a
   * 2xx body without it is an UndocumentedSuccessError, not a success. */
  documented?: DocumentedShape;
}

/** A documented success shape: its description for messages, and the test. */
export interface DocumentedShape {
  shape: string;
  test: (json: unknown) => boolean;
}

/** Answers that say a route is not there. */
const NO_ROUTE_STATUSES = new Set([404, 405, 501]);

/** A failure of a spec-only endpoint that says no such route: the message says the endpoint may not exist on the service. */
function mayNotExist(error: unknown): unknown {
  if (error instanceof VastApiError && NO_ROUTE_STATUSES.has(error.status)) {
    error.message +=
      ` (${error.method} ${error.path} is described only in this package's own description of the API, not by the vendor's ` +
      "document or client: the endpoint may not exist on the service)";
  }
  return error;
}

/** Statuses after which the request may still have been carried out upstream. */
const AMBIGUOUS_STATUSES = new Set([502, 504]);

/**
 * A Retry-After header in ms from `nowMs`: seconds (decimals allowed) or an HTTP date; undefined
 * when absent or unreadable. At most ten minutes, so a wild value cannot stall a lane for good.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  const ms = /^\d+(\.\d+)?$/.test(text) ? Number(text) * 1000 : Date.parse(text) - nowMs;
  if (!Number.isFinite(ms)) return undefined;
  return Math.min(600_000, Math.max(0, Math.ceil(ms)));
}

/** What a 429 says of the service's pace: the threshold its body names (seconds) and Retry-After. */
function refusalOf(body: string, retryAfterMs: number | undefined): Refusal {
  const threshold = /threshold\s*=\s*(\d+(?:\.\d+)?)/.exec(body);
  const thresholdMs = threshold ? Number(threshold[1]) * 1000 : undefined;
  return {
    ...(thresholdMs !== undefined && thresholdMs > 0 && thresholdMs <= 600_000 ? { thresholdMs } : {}),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  };
}

function buildQuery(query: Record<string, QueryValue> | undefined): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) params.append(k, String(v));
  const s = params.toString();
  return s ? `?${s}` : "";
}

type Issue = z.core.$ZodIssue;

/**
 * The most telling issue: for a union that failed in every branch, the deepest issue of the
 * branch that got furthest (a wrong field inside a record beats "not an array").
 */
function deepestIssue(issue: Issue, prefix: PropertyKey[] = []): { path: PropertyKey[]; message: string } {
  const path = [...prefix, ...issue.path];
  if (issue.code === "invalid_union" && issue.errors.length > 0) {
    const candidates = issue.errors.filter((branch) => branch.length > 0).map((branch) => deepestIssue(branch[0], path));
    candidates.sort((a, b) => b.path.length - a.path.length);
    if (candidates[0]) return candidates[0];
  }
  return { path, message: issue.message };
}

function schemaProblem(error: z.ZodError): { fieldPath: string; problem: string } {
  const issue = error.issues[0];
  if (!issue) return { fieldPath: "", problem: "invalid response" };
  const { path, message } = deepestIssue(issue);
  return { fieldPath: path.map(String).join("."), problem: message };
}

export class RequestCore {
  /** The server's clock by the Date header of the last response, and our clock then (ms). */
  private serverDate: { serverMs: number; localMs: number } | undefined;

  constructor(private readonly s: CoreSettings) {}

  /**
   * How far the server's clock is ahead of ours (ms, negative when behind), by the Date header
   * of the last response; undefined before any response with a Date. The header has whole
   * seconds, so this is exact to about a second.
   */
  serverClockSkewMs(): number | undefined {
    return this.serverDate && this.serverDate.serverMs - this.serverDate.localMs;
  }

  /** The least time between two sends of `endpoint` this client keeps now, ms (0 when unpaced). */
  spacingMs(endpoint: Endpoint): number {
    return this.s.pacer.spacingFor(endpointKey(endpoint));
  }

  /** Make one API call. Throws the error classes of errors.ts. */
  async request<T>(spec: RequestSpec<T>): Promise<T> {
    const e = spec.endpoint;
    const path = fillRoute(e.route, spec.params);
    const site: CallSite = { method: e.method, path, endpoint: endpointKey(e) };
    const base = (e.base === "run" ? this.s.runUrl : this.s.apiUrl).replace(/\/+$/, "");
    const url = `${base}${path}${buildQuery(spec.query)}`;
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    // Made on the first answer that needs it: a request answered well pays nothing for it.
    let made: { mask: EchoMask | undefined } | undefined;
    const mask = (): EchoMask | undefined => (made ??= { mask: echoMask(spec.body) }).mask;
    if (e.specOnly) return this.retried(spec, site, url, body, mask).catch((error: unknown) => Promise.reject(mayNotExist(error)));
    return this.retried(spec, site, url, body, mask);
  }

  private retried<T>(spec: RequestSpec<T>, site: CallSite, url: string, body: string | undefined, mask: () => EchoMask | undefined): Promise<T> {
    return withRetry<T>(
      {
        attempt: (_n, remaining) => this.attempt(spec, site, url, body, remaining, mask),
        deadlineExceeded: () => this.deadlineError(site),
        onRetry: (error, n, delay) =>
          this.s.logger?.warn?.(scrub(`${site.method} ${site.path}: attempt ${n} failed (${(error as Error).message}); retrying in ${delay} ms`)),
      },
      this.s.retry,
      this.s.clock,
    );
  }

  private deadlineError(site: CallSite): VastTimeoutError {
    return new VastTimeoutError(site, `the total deadline of ${this.s.retry.deadlineMs} ms ran out`, { requestSent: false, retryable: false });
  }

  private async attempt<T>(
    spec: RequestSpec<T>,
    site: CallSite,
    url: string,
    body: string | undefined,
    remainingMs: number,
    mask: () => EchoMask | undefined,
  ): Promise<T> {
    // The first call of a process loads the HTTP library: load it before taking a slot.
    if (this.s.transport.ready) await this.s.transport.ready();
    const slot = await this.s.pacer.acquire(site.endpoint, remainingMs);
    if (slot === null) throw this.deadlineError(site);
    const timeoutMs = Math.max(1, Math.min(this.s.timeoutMs, remainingMs - slot.waitedMs));
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.s.apiKey}`,
      accept: "application/json",
      "user-agent": this.s.userAgent,
    };
    if (body !== undefined) headers["content-type"] = "application/json";
    const started = this.s.clock.now();
    // The pacer counts the send from when the request was written, when the transport says so.
    let sentAt = started;
    const reportsSend = this.s.transport.reportsSend === true;
    if (!reportsSend) slot.sent(started);
    const onSent = () => {
      sentAt = this.s.clock.now();
      slot.sent(sentAt);
    };
    let result;
    try {
      const maxResponseBytes = this.s.maxResponseBytes;
      result = await this.s.transport({
        method: site.method,
        url,
        headers,
        body,
        timeoutMs,
        freshConnection: !spec.endpoint.idempotent,
        maxResponseBytes,
        ...(reportsSend ? { onSent } : {}),
      });
      // Transports that do not stop reading at the cap are held to it here.
      if (Buffer.byteLength(result.body, "utf8") > maxResponseBytes) throw new ResponseTooLarge(maxResponseBytes);
    } catch (error) {
      slot.done(sentAt, this.s.clock.now(), undefined);
      throw this.transportError(error, site, spec.endpoint.idempotent, timeoutMs);
    }
    const retryAfterMs = result.status === 429 ? parseRetryAfter(result.retryAfter, this.s.clock.now()) : undefined;
    slot.done(sentAt, this.s.clock.now(), result.status, result.status === 429 ? refusalOf(result.body, retryAfterMs) : undefined);
    const serverMs = result.date ? Date.parse(result.date) : NaN;
    if (Number.isFinite(serverMs)) this.serverDate = { serverMs, localMs: this.s.clock.now() };
    this.s.logger?.debug?.(`${site.method} ${site.path} -> HTTP ${result.status} in ${this.s.clock.now() - started} ms`);
    if (result.status < 200 || result.status >= 300) {
      // The answer may echo what was sent (`invalid onstart: ...`): hidden before any message holds it.
      const parsed = parseErrorBody(result.body, mask());
      const error = apiErrorFor({
        ...site,
        status: result.status,
        code: parsed.code,
        serverMessage: parsed.message,
        rateLimitScale: this.s.rateLimitScale,
        fromService: parsed.fromService,
        host: new URL(url).host,
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      });
      if (!spec.endpoint.idempotent && AMBIGUOUS_STATUSES.has(result.status)) {
        throw new ResponseLostError(site, `HTTP ${result.status} from a gateway`, error);
      }
      throw error;
    }
    return this.parseSuccess(spec, site, result.body, { host: new URL(url).host, status: result.status, contentType: result.contentType }, mask);
  }

  private transportError(error: unknown, site: CallSite, idempotent: boolean, timeoutMs: number): Error {
    // Not retried: the same request would get the same answer.
    if (error instanceof ResponseTooLarge) return new ResponseTooLargeError(site, error.capBytes);
    if (!(error instanceof TransportFailure)) throw error;
    // Keep a scrubbed copy as the cause: got's error holds the request options and headers.
    const cause = new Error(scrub(error.message));
    const detail = error.kind === "timeout" ? `no response within ${timeoutMs} ms` : `connection failed (${error.code ?? "unknown error"}: ${error.message})`;
    const opts = { code: error.code, requestSent: error.requestSent, cause };
    const wrapped = error.kind === "timeout" ? new VastTimeoutError(site, detail, opts) : new VastConnectionError(site, detail, opts);
    if (error.requestSent && !idempotent) return new ResponseLostError(site, detail, wrapped);
    return wrapped;
  }

  private parseSuccess<T>(
    spec: RequestSpec<T>,
    site: CallSite,
    text: string,
    answer: { host: string; status: number; contentType: string },
    mask: () => EchoMask | undefined,
  ): T {
    let json: unknown;
    try {
      json = text.trim() === "" ? {} : JSON.parse(text);
    } catch {
      // An HTML page (or other text) with a success status comes from something that is not the
      // API: a web site or proxy at a wrong vastai:apiUrl. Say where the calls went.
      throw new ResponseSchemaError(site, "", "the body is not JSON", answer);
    }
    const failure = operationFailure(json);
    const accept = spec.acceptOperationFailure;
    const accepted = typeof accept === "function" ? failure && accept(json as Record<string, unknown>) : accept;
    if (failure && !accepted) {
      const masked = operationFailure(json, mask()) ?? failure;
      throw new VastOperationError(site, masked.code, masked.message);
    }
    if (spec.documented && !spec.documented.test(json)) {
      const hide = mask() ?? ((t: string) => t);
      const whole = hide(text.trim());
      const shown = whole === "" ? "an empty body" : scrub(whole.length > 80 ? `${whole.slice(0, 80)}...` : whole);
      throw new UndocumentedSuccessError({ ...site, status: answer.status, host: answer.host }, spec.documented.shape, shown);
    }
    const parsed = spec.schema.safeParse(json);
    if (!parsed.success) {
      const { fieldPath, problem } = schemaProblem(parsed.error as z.ZodError);
      throw new ResponseSchemaError(site, fieldPath, problem);
    }
    return parsed.data;
  }
}
