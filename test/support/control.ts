/** The simulator's control API (`/_sim/...`, no auth), as every test harness calls it. */

/**
 * Whether a fetch failed because the server closed an idle keep-alive connection just as the
 * request went out on it (the simulator closes them after `keepAliveTimeoutMs`; on a busy
 * machine the client's own idle timer can fire late). The server never read the request.
 */
function closedIdleConnection(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } } | undefined)?.cause;
  return error instanceof TypeError && (cause?.code === "ECONNRESET" || cause?.code === "UND_ERR_SOCKET");
}

/** A control call; its JSON reply parsed (undefined when empty). Fails on an HTTP error. */
export async function simControl<T = unknown>(simUrl: string, method: string, path: string, body?: unknown): Promise<T> {
  const send = () =>
    fetch(`${simUrl}/_sim${path}`, {
      method,
      // The simulator takes control writes as JSON only, with or without a body.
      headers: method === "GET" ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  // Once more on a fresh connection when the reused one was closed under the request.
  const res = await send().catch((error: unknown) => {
    if (closedIdleConnection(error)) return send();
    throw error;
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`control ${method} ${path} failed: HTTP ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}
