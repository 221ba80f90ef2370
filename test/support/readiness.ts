/**
 * What readiness tests share: a local HTTP server a probe can reach (200 on `/health`, 503
 * elsewhere, every path asked recorded), a port nobody listens on, and the kit's clock replaced
 * by one that each sleep moves at least 30 s, so a one-minute readiness deadline is a few
 * probes and no real wait.
 */
import * as http from "node:http";
import * as net from "node:net";
import { setTiming, type Timing } from "../../provider/resources/kit";

/** A port nobody listens on: bound, then closed. */
export async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** The health server for the file's tests (started before them); `hits` is emptied before each test. */
export function useHealthServer(): { readonly port: number; readonly hits: string[] } {
  let server: http.Server | undefined;
  let port = 0;
  let hits: string[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits.push(req.url ?? "");
      res.statusCode = req.url === "/health" ? 200 : 503;
      res.end("ok");
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));
  beforeEach(() => {
    hits = [];
  });
  return {
    get port() {
      return port;
    },
    get hits() {
      return hits;
    },
  };
}

/** The kit's clock for each test: starts at 0, each sleep moves it max(ms, 30 s); restored after. */
export function useSteppedClock(): { readonly now: number; advance(ms: number): void } {
  let clock = 0;
  let previous: Timing | undefined;
  beforeEach(() => {
    clock = 0;
    previous = setTiming({ now: () => clock, sleep: async (ms: number) => void (clock += Math.max(ms, 30_000)) });
  });
  afterEach(() => {
    if (previous) setTiming(previous);
  });
  return {
    get now() {
      return clock;
    },
    advance(ms: number) {
      clock += ms;
    },
  };
}
