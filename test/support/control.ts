/** The simulator's control API (`/_sim/...`, no auth), as every test harness calls it. */

/** A control call; its JSON reply parsed (undefined when empty). Fails on an HTTP error. */
export async function simControl<T = unknown>(simUrl: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${simUrl}/_sim${path}`, {
    method,
    // The simulator takes control writes as JSON only, with or without a body.
    headers: method === "GET" ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`control ${method} ${path} failed: HTTP ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}
