/**
 * The request log behind `GET /_sim/requests`: what clients sent, in arrival order, with the
 * status they got. The Authorization header is left out, and so are the other secrets a
 * request can carry (see redact.ts) unless `logSecrets` is set; everything else stays so tests
 * can scan what a client sent for leaked secrets. Bodies are cut to a prefix and the number of
 * entries is capped, so a long run or a huge upload cannot fill the memory.
 */
import type { IncomingHttpHeaders } from "http";
import { redactBody, redactHeaders, redactQuery } from "./redact";

// The entry type lives in logged-request.ts, without fastify, for the public declarations.
export type { LoggedRequest } from "./logged-request";
import type { LoggedRequest } from "./logged-request";

/** The parts of a request the log reads (a fastify request has them; typed here without fastify). */
export interface RequestLine {
  method: string;
  url: string;
  query: unknown;
  headers: IncomingHttpHeaders;
}

export interface RequestLogOptions {
  /** Entries kept; the oldest are discarded first. */
  maxEntries: number;
  /** Bytes of a body kept. */
  maxBodyBytes: number;
  /** Keep secret values instead of `[redacted]`. */
  keepSecrets: boolean;
}

/** The first `max` bytes of `text`, without a character cut in half. */
function prefix(text: string, max: number): string {
  const cut = Buffer.from(text, "utf8").subarray(0, max).toString("utf8");
  return cut.endsWith("\uFFFD") && !text.startsWith(cut) ? cut.slice(0, -1) : cut;
}

export class RequestLog {
  private entries: LoggedRequest[] = [];

  constructor(private readonly opts: RequestLogOptions) {}

  start(request: RequestLine): LoggedRequest {
    const query = { ...(request.query as Record<string, unknown> | undefined) };
    const entry: LoggedRequest = {
      method: request.method,
      path: pathOf(request.url),
      status: 0,
      query: this.opts.keepSecrets ? query : redactQuery(query),
      body: null,
      headers: redactHeaders(request.headers),
    };
    if (this.opts.keepSecrets) {
      const { authorization: _auth, ...headers } = request.headers;
      entry.headers = headers;
    }
    this.entries.push(entry);
    if (this.entries.length > this.opts.maxEntries) this.entries.splice(0, this.entries.length - this.opts.maxEntries);
    return entry;
  }

  /** Records the parsed body: a copy with secrets blanked, cut to `maxBodyBytes`. */
  setBody(entry: LoggedRequest, body: unknown): void {
    if (body === undefined || body === null) return;
    const logged = this.opts.keepSecrets ? body : redactBody(entry.method, entry.path, body);
    const text = typeof logged === "string" ? logged : JSON.stringify(logged);
    const bytes = Buffer.byteLength(text, "utf8");
    if (bytes <= this.opts.maxBodyBytes) {
      // A copy, so later changes by a handler do not show in the log.
      entry.body = typeof logged === "string" ? logged : JSON.parse(text);
      return;
    }
    entry.body = prefix(text, this.opts.maxBodyBytes);
    entry.bodyBytes = bytes;
    entry.bodyTruncated = true;
  }

  /** Whether secrets are kept (`logSecrets`): then `GET /_sim/state` shows env values too. */
  get keepsSecrets(): boolean {
    return this.opts.keepSecrets;
  }

  list(): LoggedRequest[] {
    return this.entries;
  }

  clear(): void {
    this.entries = [];
  }
}

export function pathOf(url: string): string {
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}
