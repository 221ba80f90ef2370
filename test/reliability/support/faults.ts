/**
 * The faults of the matrix, as simulator fault specs (`POST /_sim/faults`), with what a clear
 * error about each must say.
 */
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
}

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
];
