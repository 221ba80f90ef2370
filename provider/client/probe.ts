/**
 * Probes of a service an instance publishes (readiness): a TCP connect, or an HTTP GET whose
 * answer is 2xx or 3xx. These talk to the instance's own port, never to the API. Each answers
 * undefined when the port is ready, else why not, and never throws.
 */
import * as http from "node:http";
import * as net from "node:net";

/** Longest a single probe waits for a connection or an answer, ms. */
export const PROBE_TIMEOUT_MS = 5000;

/** Opens a TCP connection and resolves to why it failed, or `undefined` when it connects. */
export function probeTcp(host: string, port: number, timeoutMs = PROBE_TIMEOUT_MS): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (why: string | undefined) => {
      socket.destroy();
      resolve(why);
    };
    socket.setTimeout(timeoutMs, () => done(`no TCP connection to ${host}:${port} within ${timeoutMs} ms`));
    socket.once("connect", () => done(undefined));
    socket.once("error", (error) => done(`TCP connection to ${host}:${port} failed (${(error as NodeJS.ErrnoException).code ?? error.message})`));
  });
}

/** Requests `path` over HTTP and resolves to why it is not ready, or `undefined` when it answers. */
export function probeHttp(host: string, port: number, path: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<string | undefined> {
  return new Promise((resolve) => {
    const where = `http://${host.includes(":") ? `[${host}]` : host}:${port}${path}`;
    const request = http.get({ host, port, path, timeout: timeoutMs, headers: { connection: "close" } }, (response) => {
      response.resume();
      const status = response.statusCode ?? 0;
      resolve(status >= 200 && status < 400 ? undefined : `GET ${where} answered HTTP ${status}`);
    });
    request.once("timeout", () => {
      request.destroy();
      resolve(`GET ${where} got no answer within ${timeoutMs} ms`);
    });
    request.once("error", (error) => resolve(`GET ${where} failed (${(error as NodeJS.ErrnoException).code ?? error.message})`));
  });
}
