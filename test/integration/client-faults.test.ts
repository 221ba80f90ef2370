/**
 * Retry, lost responses, timeouts, pacing and error shapes over HTTP, driven by the
 * simulator's injected faults and rate limits.
 */
import { PACING_MARGIN } from "../../provider/client/pacing";
import { SEED } from "pulumi-vastai/simulator";
import {
  AuthenticationError,
  BadRequestError,
  RateLimitError,
  ResponseLostError,
  ServerError,
  VastApiError,
  VastConnectionError,
  VastError,
  VastTimeoutError,
} from "../../provider/client";
import { useSimulator } from "../support/simulator";

const h = useSimulator();

// A rented offer is taken until destroyed: each create rents the next offer of the catalogue.
let rented = 0;
const nextOffer = () => SEED.offerIds[rented++ % SEED.offerIds.length];

async function instanceCount(): Promise<number> {
  return (await h.client.instances.list()).length;
}

describe("retries", () => {
  it("retries a 429 and returns the later success", async () => {
    await h.fault({ method: "GET", path: "/api/v0/instances/", times: 1, status: 429 });
    await expect(h.client.instances.list()).resolves.toEqual([]);
    const log = (await h.requests()).filter((r) => r.path.startsWith("/api/v0/instances"));
    expect(log.map((r) => r.status)).toEqual([429, 200]);
  });

  it("gives up on repeated 503s after maxAttempts with a clear error", async () => {
    await h.fault({ method: "GET", path: "/api/v0/instances/", times: 10, status: 503 });
    const error = await h.clientWith({ maxAttempts: 3 }).instances.list().catch((e) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error.message).toBe(
      "GET /api/v0/instances/ failed: HTTP 503 simulated_fault: Injected fault: HTTP 503 (gave up after 3 attempts). The service failed; try again later.",
    );
    expect((await h.requests()).filter((r) => r.path === "/api/v0/instances/")).toHaveLength(3);
  });

  it("retries 502 and 504 of a read", async () => {
    await h.fault({ method: "GET", path: "/api/v0/instances/", times: 1, status: 502 });
    await h.fault({ method: "GET", path: "/api/v0/instances/", times: 1, status: 504 });
    await expect(h.client.instances.list()).resolves.toEqual([]);
  });

  it("retries a read whose connection was dropped", async () => {
    await h.fault({ method: "GET", path: "/api/v0/instances/", times: 2, drop: "before" });
    await expect(h.client.instances.list()).resolves.toEqual([]);
  });
});

describe("lost responses of writes", () => {
  it("reports instance creation whose response was lost after it took effect, without resending", async () => {
    await h.fault({ method: "PUT", path: "/api/v0/asks/*", times: 1, drop: "after" });
    const error = await h.client.instances.create(nextOffer(), { image: "ubuntu", label: "lost-1" }).catch((e) => e);
    expect(error).toBeInstanceOf(ResponseLostError);
    expect(error.message).toMatch(/^PUT \/api\/v0\/asks\/\d+\/ was sent but its response was lost/);
    const creates = (await h.requests()).filter((r) => r.path.startsWith("/api/v0/asks/"));
    expect(creates).toHaveLength(1);
    const instances = await h.client.instances.list();
    expect(instances.map((i) => i.label)).toEqual(["lost-1"]);
  });

  it("reports a connection dropped before the change too: the client cannot tell the two apart", async () => {
    await h.fault({ method: "PUT", path: "/api/v0/asks/*", times: 1, drop: "before" });
    await expect(h.client.instances.create(nextOffer(), { image: "ubuntu" })).rejects.toBeInstanceOf(ResponseLostError);
    expect(await instanceCount()).toBe(0);
  });

  it("reports a gateway 504 on creation as lost, but retries 429 and 503", async () => {
    await h.fault({ method: "PUT", path: "/api/v0/asks/*", times: 1, status: 504 });
    await expect(h.client.instances.create(nextOffer(), { image: "ubuntu" })).rejects.toBeInstanceOf(ResponseLostError);
    await h.fault({ method: "PUT", path: "/api/v0/asks/*", times: 1, status: 429 });
    await h.fault({ method: "PUT", path: "/api/v0/asks/*", times: 1, status: 503 });
    await expect(h.client.instances.create(nextOffer(), { image: "ubuntu" })).resolves.toMatchObject({ success: true });
    expect(await instanceCount()).toBe(1);
  });
});

describe("timeouts", () => {
  it("times out a slow read, retries, and gives up with VastTimeoutError", async () => {
    await h.fault({ method: "GET", path: "/api/v0/instances/", times: 2, delayMs: 400 });
    const error = await h.clientWith({ timeoutMs: 100, maxAttempts: 2 }).instances.list().catch((e) => e);
    expect(error).toBeInstanceOf(VastTimeoutError);
    expect(error.message).toMatch(/^GET \/api\/v0\/instances\/ failed: no response within 100 ms \(gave up after 2 attempts\)/);
  });

  it("turns a timed-out creation into a lost response", async () => {
    await h.fault({ method: "PUT", path: "/api/v0/asks/*", times: 1, delayMs: 400 });
    const error = await h.clientWith({ timeoutMs: 100 }).instances.create(nextOffer(), { image: "ubuntu" }).catch((e) => e);
    expect(error).toBeInstanceOf(ResponseLostError);
    expect(error.cause).toBeInstanceOf(VastTimeoutError);
  });

  it("names a refused connection", async () => {
    const client = h.clientWith({ apiUrl: "http://127.0.0.1:1", maxAttempts: 2 });
    const error = await client.instances.list().catch((e) => e);
    expect(error).toBeInstanceOf(VastConnectionError);
    expect(error).toMatchObject({ code: "ECONNREFUSED", requestSent: false, attempts: 2 });
  });
});

describe("error shapes", () => {
  const path = "/api/v0/instances/";
  const read = () => h.clientWith({ maxAttempts: 1 }).instances.list().catch((e) => e);

  it("reads {error, msg}", async () => {
    await h.fault({ method: "GET", path, status: 400, body: { success: false, error: "invalid_args", msg: "bad thing" } });
    expect(await read()).toMatchObject({ constructor: BadRequestError, code: "invalid_args", serverMessage: "bad thing" });
  });

  it("reads {error_msg}", async () => {
    await h.fault({ method: "GET", path, status: 400, body: { error_msg: "worker group gone" } });
    expect(await read()).toMatchObject({ status: 400, serverMessage: "worker group gone" });
  });

  it("reads {detail}", async () => {
    await h.fault({ method: "GET", path, status: 422, body: { detail: "Invalid window" } });
    const e = await read();
    expect(e).toBeInstanceOf(VastApiError);
    expect(e.message).toBe("GET /api/v0/instances/ failed: HTTP 422: Invalid window. See the server message.");
  });

  it("reads plain-text and JSON 429 bodies", async () => {
    await h.fault({ method: "GET", path, status: 429, body: "API requests too frequent: endpoint threshold=1" });
    expect(await read()).toMatchObject({ constructor: RateLimitError, serverMessage: "API requests too frequent: endpoint threshold=1" });
    await h.fault({ method: "GET", path, status: 429, body: { error: "rate_limit_exceeded" } });
    expect(await read()).toMatchObject({ constructor: RateLimitError, code: "rate_limit_exceeded" });
    await h.fault({ method: "GET", path, status: 429, body: { detail: "Too many requests" } });
    expect(await read()).toMatchObject({ constructor: RateLimitError, serverMessage: "Too many requests" });
  });

  it("answers an unknown key with AuthenticationError", async () => {
    const e = await h.clientWith({ apiKey: "not-a-key-of-this-service" }).instances.list().catch((x) => x);
    expect(e).toBeInstanceOf(AuthenticationError);
    expect(e.message).toMatch(/^GET \/api\/v0\/instances\/ failed: HTTP 401 unauthorized: .*it may have been deleted or reset/);
    expect(e.message).not.toContain("not-a-key-of-this-service");
  });
});

describe("pacing against the service's rate limits", () => {
  const limited = useSimulator({ simulator: { rateLimits: { "PUT /api/v0/instances/{id}": 50 } }, reset: false });

  it("spaces concurrent calls of one endpoint so none is refused", async () => {
    const { id } = await limited.client.instances.create(nextOffer(), { image: "ubuntu" });
    await limited.clearRequests();
    const client = limited.clientWith({ pacing: { intervalsMs: { "PUT /api/v0/instances/{id}/": 100 } }, maxAttempts: 1 });
    const started = Date.now();
    await Promise.all([1, 2, 3, 4, 5].map((n) => client.instances.setLabel(id, `l${n}`)));
    expect(Date.now() - started).toBeGreaterThanOrEqual(4 * 100 - 5);
    const statuses = (await limited.requests()).map((r) => r.status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
  });

  it("shares the slots between two clients of the same key", async () => {
    const { id } = await limited.client.instances.create(nextOffer(), { image: "ubuntu" });
    await limited.clearRequests();
    const pacing = { intervalsMs: { "PUT /api/v0/instances/{id}/": 100 } };
    const a = limited.clientWith({ pacing, maxAttempts: 1 });
    const b = limited.clientWith({ pacing, maxAttempts: 1 });
    await Promise.all([a.instances.setLabel(id, "a1"), b.instances.setLabel(id, "b1"), a.instances.setLabel(id, "a2"), b.instances.setLabel(id, "b2")]);
    expect((await limited.requests()).map((r) => r.status)).toEqual([200, 200, 200, 200]);
  });

  it("without pacing the same burst is refused with the plain-text 429", async () => {
    const { id } = await limited.client.instances.create(nextOffer(), { image: "ubuntu" });
    const client = limited.clientWith({ pacing: false, maxAttempts: 1 });
    const results = await Promise.allSettled([1, 2, 3].map((n) => client.instances.setLabel(id, `x${n}`)));
    const refused = results.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]).toBeInstanceOf(RateLimitError);
    expect(refused[0].serverMessage).toMatch(/^API requests too frequent/);
  });
});

describe("default pacing against the realistic rate limits", () => {
  const real = useSimulator({ simulator: { rateLimits: "realistic" }, reset: false });

  it("sends a concurrent burst of reads and updates without a single 429", async () => {
    const { id } = await real.client.instances.create(nextOffer(), { image: "ubuntu" });
    await real.clearRequests();
    const warnings: string[] = [];
    // The default intervals, shared process-wide; no retries allowed to hide a refusal.
    const client = real.clientWith({ pacing: {}, maxAttempts: 1, logger: { warn: (m) => warnings.push(m) } });
    const started = Date.now();
    await Promise.all([
      ...[1, 2, 3, 4, 5].map(() => client.instances.get(id)),
      client.instances.setLabel(id, "first"),
      client.instances.setLabel(id, "second"),
    ]);
    const elapsed = Date.now() - started;
    const statuses = (await real.requests()).map((r) => r.status);
    expect(statuses).toHaveLength(7);
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(warnings).toEqual([]);
    // Two updates one interval (the 1 s limit plus the pacing margin) apart; the five reads overlap them.
    expect(elapsed).toBeGreaterThanOrEqual(Math.ceil(1000 * (1 + PACING_MARGIN)) - 5);
    expect(elapsed).toBeLessThan(2500);
  });
});

describe("secrets in messages", () => {
  it("never puts the API key into an error message, a cause or a log line", async () => {
    const lines: string[] = [];
    const client = h.clientWith({ maxAttempts: 2, logger: { warn: (m) => lines.push(m), debug: (m) => lines.push(m) } });
    const echo = { success: false, error: "invalid_args", msg: `key ${h.sim.apiKey} was used` };
    await h.fault({ method: "GET", path: "/api/v0/instances/", times: 1, status: 503, body: echo });
    await h.fault({ method: "GET", path: "/api/v0/instances/", times: 1, status: 400, body: echo });
    await h.fault({ method: "PUT", path: "/api/v0/asks/*", times: 1, drop: "after" });
    const errors: unknown[] = [
      await client.instances.list().catch((e) => e),
      await client.instances.create(nextOffer(), { image: "ubuntu" }).catch((e) => e),
      await h.clientWith({ apiUrl: "http://127.0.0.1:1", maxAttempts: 1 }).instances.list().catch((e) => e),
    ];
    for (const e of errors) {
      expect(e).toBeInstanceOf(VastError);
      const err = e as Error & { cause?: unknown };
      const text = `${err.message} ${JSON.stringify(err)} ${String(err.stack)} ${String((err.cause as Error | undefined)?.message)}`;
      expect(text).not.toContain(h.sim.apiKey);
    }
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).not.toContain(h.sim.apiKey);
  });

  it("sends the key only in the Authorization header, and in the body of the one call that needs it", async () => {
    await h.client.instances.create(nextOffer(), { image: "ubuntu", label: "scan" });
    await h.client.instances.list();
    await h.client.secrets.add("TOKEN", "value-of-a-secret");
    await h.client.serverless.workerGroupLogs({ workerGroupId: SEED.workerGroup.id, tail: 1 });
    const log = await h.requests();
    const carrying = log.filter((r) => JSON.stringify({ query: r.query, body: r.body, headers: r.headers }).includes(h.sim.apiKey)).map((r) => r.path);
    expect(carrying).toEqual(["/run/get_workergroup_logs"]);
  });
});
