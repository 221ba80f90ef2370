/**
 * The faults of the matrix, as simulator fault specs (`POST /_sim/faults`), with what a clear
 * error about each must say; and the "wrong server" the providers are pointed at instead of
 * the simulator (a proxy or a wrong `vastai:apiUrl`).
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import type { FaultSpec } from "./rig";
import type { Profile } from "./profile";

export interface FaultKind {
  /** Column name in the printed matrix. */
  name: string;
  spec(p: Profile): Partial<FaultSpec>;
  /** The service carries the request out although the client never sees the answer. */
  acted: boolean;
  /** What an error caused by this fault must say about the cause. */
  cause: RegExp;
  /** The fault lasts: the operation must give up after bounded attempts. */
  persistent?: boolean;
  /**
   * Not a fault of the service: the providers talk to a server that is not the service for
   * the whole operation (`spec` is unused). Nothing it answers may count as "deleted" or "gone".
   */
  wrongServer?: boolean;
  /**
   * The rows this fault meets, when not every row: a scenario's name (each of its operations) or
   * one `<scenario>.<op>`; a fault that only some kinds can meet (a refusal that repeats a body
   * holding a start command, a documented answer forged for some writes).
   */
  rows?: readonly string[];
  /** Met at the endpoint that carries the operation's effect (the scenario's target) only, not the reads around it. */
  effectOnly?: boolean;
}

/** Whether `fault` is a cell of `row`. */
export const meets = (fault: FaultKind, row: string): boolean =>
  fault.rows === undefined || fault.rows.includes(row) || fault.rows.includes(row.slice(0, row.lastIndexOf(".")));

const status = (code: number): Partial<FaultSpec> => ({ status: code });

export const FAULTS: readonly FaultKind[] = [
  // The simulator answers a 429 without body with the plain text "API requests too frequent" and no Retry-After.
  { name: "429-text", spec: () => status(429), acted: false, cause: /HTTP 429/ },
  { name: "500", spec: () => status(500), acted: false, cause: /HTTP 500/ },
  { name: "502", spec: () => status(502), acted: false, cause: /HTTP 502/ },
  { name: "503", spec: () => status(503), acted: false, cause: /HTTP 503/ },
  { name: "504", spec: () => status(504), acted: false, cause: /HTTP 504/ },
  { name: "drop-before", spec: () => ({ drop: "before" }), acted: false, cause: /connection|response was lost/i },
  { name: "drop-after", spec: () => ({ drop: "after" }), acted: true, cause: /connection|response was lost/i },
  { name: "slow", spec: (p) => ({ delayMs: p.slowDelayMs }), acted: true, cause: /no response within|response was lost/i },
  { name: "bad-json", spec: () => ({ status: 200, body: '{"success": true, "templates": [' }), acted: false, cause: /not JSON/ },
  {
    name: "success-false",
    spec: () => ({ status: 200, body: { success: false, error: "internal_error", msg: "Temporary failure, please retry" } }),
    acted: false,
    cause: /success=false/,
  },
  { name: "503-always", spec: () => ({ status: 503, times: 1000 }), acted: false, cause: /HTTP 503.*gave up after \d+ attempts/, persistent: true },
  // Issue 33 item 4: a refusal that repeats the request's body (`invalid request: {...}`), as a
  // service that says `invalid onstart: <value>`; met by the rows whose requests carry a start
  // command, a registry password, env values or a webhook address, whose every message must hide them.
  { name: "echo", spec: () => ({ status: 400, echo: "*" }), acted: false, cause: /HTTP 400 invalid_args: invalid request/, rows: ["Instance start command", "Template", "WorkerGroup", "Webhook"] },
  // Issue 33 item 3: a wrong server's answer, with the documented success but nothing done.
  // Only a read showing the effect absent refutes it; the write then fails naming what was not seen.
  {
    name: "forged-success",
    spec: () => ({ status: 200, body: { success: true } }),
    acted: false,
    cause: /answered as done/,
    effectOnly: true,
    rows: [
      "Cluster.create",
      "ScheduledJob.create",
      "ScheduledJob.update",
      "MachineListing.create",
      "MachineListing.update",
      "VolumeListing.create",
      "VolumeListing.update",
      "NetworkVolumeListing.create",
      "NetworkVolumeListing.update",
      "Team.create",
    ],
  },
  // Issue 33 item 3: a create answered 200 {} is unreadable, not a success.
  { name: "empty-200", spec: () => ({ status: 200, body: {} }), acted: false, cause: /instead of the documented success/, rows: ["TeamMember.create", "MachineListing.create"], effectOnly: true },
  {
    name: "wrong-server",
    spec: () => ({}),
    acted: false,
    // The host of the wrong server (HTML 404), or a body the client cannot read (HTML 200).
    cause: /127\.0\.0\.1:\d+|not JSON|cannot read/,
    wrongServer: true,
  },
];

/** A loopback server that is not the service: an HTML 200 page to GET (a web console, a portal), an HTML 404 to the rest. */
export interface WrongServer {
  url: string;
  /** Requests it answered since start. */
  hits(): number;
  close(): Promise<void>;
}

const PAGE = "<!doctype html><html><head><title>Console</title></head><body><div id=app></div></body></html>";
const NOT_FOUND = "<html><head><title>404 Not Found</title></head><body><center><h1>404 Not Found</h1></center><hr><center>nginx</center></body></html>";

export async function startWrongServer(): Promise<WrongServer> {
  let hits = 0;
  const server = http.createServer((req, res) => {
    hits++;
    req.resume();
    if (req.method === "GET") res.writeHead(200, { "content-type": "text/html" }).end(PAGE);
    else res.writeHead(404, { "content-type": "text/html" }).end(NOT_FOUND);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits: () => hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
