/**
 * The request log behind `GET /_sim/requests`: what clients sent, in arrival order, with the
 * status they got. The Authorization header is left out so tests can scan everything else a
 * client sent for leaked secrets.
 */
import type { FastifyRequest } from "fastify";

export interface LoggedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  /** Status sent; 0 when the connection was destroyed by a `drop` fault. */
  status: number;
  query: Record<string, unknown>;
  /** Parsed JSON body (a string for other content types), null when there was none. */
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
  /** Set when a fault destroyed the connection. */
  dropped?: "before" | "after";
}

/** Oldest entries are discarded past this many, so long benchmarks stay bounded. */
const MAX_ENTRIES = 20000;

export class RequestLog {
  private entries: LoggedRequest[] = [];

  start(request: FastifyRequest): LoggedRequest {
    const { authorization: _auth, ...headers } = request.headers;
    const entry: LoggedRequest = {
      method: request.method,
      path: pathOf(request.url),
      status: 0,
      query: { ...(request.query as Record<string, unknown> | undefined) },
      body: null,
      headers,
    };
    this.entries.push(entry);
    if (this.entries.length > MAX_ENTRIES) this.entries.splice(0, this.entries.length - MAX_ENTRIES);
    return entry;
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
