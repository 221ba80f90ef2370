/** One entry of the simulator's request log (`GET /_sim/requests`). */
export interface LoggedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  /** Status sent; 0 when the connection was destroyed by a `drop` fault. */
  status: number;
  query: Record<string, unknown>;
  /**
   * Parsed JSON body (a string for other content types), null when there was none. When the
   * body was longer than `logBodyBytes`, the first `logBodyBytes` bytes of its JSON text.
   */
  body: unknown;
  /** Set when the body was cut: its size in bytes as logged whole. */
  bodyBytes?: number;
  /** Set when `body` is only the start of the body. */
  bodyTruncated?: true;
  headers: Record<string, string | string[] | undefined>;
  /** Set when the caller used an instance's own key (`CONTAINER_API_KEY`): that instance's id. */
  instanceKey?: number;
  /** Set when a fault destroyed the connection. */
  dropped?: "before" | "after";
}
