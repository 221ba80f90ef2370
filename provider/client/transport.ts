/**
 * One HTTP exchange over got, with got's retry off and HTTP errors returned rather than thrown
 * (the request core maps them). got is ESM-only and is loaded here, and only here, with a
 * dynamic import (docs/development.md, "Module setup").
 */
import http from "node:http";
import https from "node:https";
import type { Got } from "got" with { "resolution-mode": "import" };

/** One HTTP request as the client hands it to a `Transport`. */
export interface Exchange {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** JSON text, or undefined for no body. */
  body?: string;
  timeoutMs: number;
  /** Use a fresh connection: a reused keep-alive socket that the server closed would turn a
   * write into an ambiguous "response lost" failure. */
  freshConnection: boolean;
  /** Most bytes of response body to read; a longer body is abandoned with ResponseTooLarge. */
  maxResponseBytes?: number;
  /** Called once when the request has been handed to the network (transports with `reportsSend`). */
  onSent?: () => void;
}

/** What a `Transport` answers for one `Exchange`: status, headers and body. */
export interface ExchangeResult {
  status: number;
  body: string;
  contentType: string;
  /** The response's Date header (the server's clock), when it sent one. */
  date?: string;
  /** The response's Retry-After header, when it sent one. */
  retryAfter?: string;
}

/** The response body grew past `Exchange.maxResponseBytes`; the rest was not read. */
export class ResponseTooLarge extends Error {
  constructor(readonly capBytes: number) {
    super(`response body over ${capBytes} bytes`);
    this.name = "ResponseTooLarge";
  }
}

/** A transport failure, classified for the retry policy. */
export class TransportFailure extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly kind: "timeout" | "connection",
    /** False only when the request certainly did not reach the server. */
    readonly requestSent: boolean,
  ) {
    super(message);
    this.name = "TransportFailure";
  }
}

/** Sends one HTTP exchange. The default uses got; tests and proxies may inject their own. */
export interface Transport {
  (exchange: Exchange): Promise<ExchangeResult>;
  /** Resolves once the transport can send at once (its library loaded): the request core waits
   * for it before taking a pacing slot, so a slow first load does not eat into the interval. */
  ready?(): Promise<unknown>;
  /** True when the transport calls `Exchange.onSent` once the request is written: the pacer then
   * keeps intervals from that moment rather than from the call of the transport. */
  reportsSend?: boolean;
}

let gotPromise: Promise<Got> | undefined;
function loadGot(): Promise<Got> {
  gotPromise ??= import("got").then((m) => m.default, loadGotNatively);
  return gotPromise;
}

/**
 * Where dynamic import() is refused (jest without --experimental-vm-modules runs tests in a vm
 * context with no import callback), got is loaded by Node's own require, which loads ES modules
 * since Node 20.19 (`require(esm)`). Jest replaces `require`, `module` and `process` in its
 * sandbox; the host realm's `process` still reaches Node's loader. Errors got raises there come
 * from that realm: the transport reads their `code`/`name`, never `instanceof`.
 */
function loadGotNatively(importError: unknown): Got {
  type HostProcess = { getBuiltinModule?(id: "module"): typeof import("node:module") };
  const host = (require("node:vm") as typeof import("node:vm")).runInThisContext("process") as HostProcess;
  const nodeModule = host.getBuiltinModule?.("module");
  if (!nodeModule) throw importError;
  try {
    return (nodeModule.createRequire(__filename)("got") as { default: Got }).default;
  } catch {
    throw importError;
  }
}

const keepAlive = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
const fresh = { http: new http.Agent({ keepAlive: false }), https: new https.Agent({ keepAlive: false }) };

/** Codes that mean no connection was made, so the server saw nothing. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);
/** got timeout events that happen before the request is written. */
const NOT_SENT_TIMEOUT_EVENTS = new Set(["lookup", "connect", "secureConnect"]);

/**
 * Follow a redirect only when it keeps the method (and so the body) and stays on the same
 * origin: a route moved to its trailing-slash form answers 301/307/308. A 303 turns a write into
 * a GET, and another origin would not get the key, so both come back as they are.
 */
export function followsRedirect(method: string, from: string, status: number, location: string | undefined): boolean {
  if (!location) return false;
  if (status === 303 && method !== "GET") return false;
  if (![301, 302, 303, 307, 308].includes(status)) return false;
  const a = new URL(from);
  const b = new URL(location, from);
  return a.protocol === b.protocol && a.host === b.host;
}

function classify(error: unknown): TransportFailure {
  const e = error as { code?: string; name?: string; event?: string; message?: string };
  const message = e.message ?? String(error);
  if (e.name === "TimeoutError") {
    const sent = !NOT_SENT_TIMEOUT_EVENTS.has(e.event ?? "");
    return new TransportFailure(message, e.code, "timeout", sent);
  }
  const sent = !NOT_SENT_CODES.has(e.code ?? "");
  return new TransportFailure(message, e.code, "connection", sent);
}

/** The real transport. */
export const gotTransport: Transport = async (exchange: Exchange): Promise<ExchangeResult> => {
  const got = await loadGot();
  const cap = exchange.maxResponseBytes;
  let tooLarge = false;
  try {
    const request = got(exchange.url, {
      method: exchange.method as "GET",
      headers: exchange.headers,
      body: exchange.body,
      timeout: { connect: Math.min(exchange.timeoutMs, 30_000), request: exchange.timeoutMs },
      retry: { limit: 0 },
      throwHttpErrors: false,
      followRedirect: (response) =>
        followsRedirect(exchange.method, response.url, response.statusCode, response.headers.location),
      methodRewriting: false,
      maxRedirects: 3,
      responseType: "text",
      agent: exchange.freshConnection ? fresh : keepAlive,
    });
    const onSent = exchange.onSent;
    if (onSent) {
      // "finish": the whole request (headers and body) was handed to the operating system; a
      // redirect's second request reports nothing more.
      let reported = false;
      request.on("request", (req: http.ClientRequest) =>
        req.once("finish", () => {
          if (reported) return;
          reported = true;
          onSent();
        }),
      );
    }
    if (cap !== undefined) {
      // Stop reading as soon as the body (or its announced length) passes the cap.
      request.on("downloadProgress", (progress: { transferred: number; total?: number }) => {
        if (!tooLarge && (progress.transferred > cap || (progress.total ?? 0) > cap)) {
          tooLarge = true;
          request.cancel();
        }
      });
    }
    const response = await request;
    const date = response.headers.date;
    const retryAfter = response.headers["retry-after"];
    return {
      status: response.statusCode,
      body: response.body,
      contentType: String(response.headers["content-type"] ?? ""),
      ...(date ? { date } : {}),
      ...(retryAfter ? { retryAfter } : {}),
    };
  } catch (error) {
    if (tooLarge && cap !== undefined) throw new ResponseTooLarge(cap);
    throw classify(error);
  }
};
gotTransport.ready = loadGot;
gotTransport.reportsSend = true;
