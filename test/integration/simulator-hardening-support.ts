/**
 * Raw HTTP for the hardening tests: they need a Host header of their choosing and sockets
 * that send a request slowly, which fetch does not allow.
 */
import * as http from "http";
import * as net from "net";

export interface RawReply {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
}

export interface RawRequest {
  method: string;
  path: string;
  /** Sent as given, Host included (the default Host is the simulator's own address). */
  headers?: Record<string, string>;
  body?: string;
}

export function raw(baseUrl: string, req: RawRequest): Promise<RawReply> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const r = http.request(
      { host: url.hostname.replace(/^\[|\]$/g, ""), port: url.port, method: req.method, path: req.path, headers: { host: url.host, ...req.headers } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (text += d));
        res.on("end", () => {
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, body, text });
        });
      },
    );
    r.on("error", reject);
    r.end(req.body);
  });
}

/** A socket to the simulator that records what comes back and when it closes. */
export function rawSocket(baseUrl: string): Promise<{ socket: net.Socket; received: () => string; closed: Promise<number> }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port) });
    let data = "";
    socket.setEncoding("utf8");
    socket.on("data", (d: string) => (data += d));
    const opened = performance.now();
    const closed = new Promise<number>((res) => socket.on("close", () => res(performance.now() - opened)));
    socket.once("connect", () => resolve({ socket, received: () => data, closed }));
    socket.once("error", reject);
  });
}

/** Resolves with `value` after `ms` unless the test finished first (the timer does not hold jest). */
export function after<T>(ms: number, value: T): Promise<T> {
  return new Promise((resolve) => setTimeout(() => resolve(value), ms).unref());
}
