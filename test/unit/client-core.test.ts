import { randomBytes } from "node:crypto";
/**
 * The request core with a scripted transport and an injected clock: which failures are
 * retried, which are reported as lost, how responses are validated. Over-HTTP behaviour
 * against the simulator is in test/integration/client-*.test.ts.
 */
import {
  BadRequestError,
  Exchange,
  ExchangeResult,
  RateLimitError,
  ResponseLostError,
  ResponseSchemaError,
  ServerError,
  VastConnectionError,
  VastOperationError,
  VastTimeoutError,
  VastValidationError,
  createClient,
} from "../../provider/client";
import { apiErrorFor } from "../../provider/client/errors";
import { TransportFailure } from "../../provider/client/transport";

// The request core's error builder, counted: a spy that calls the real one (module exports are
// read-only bindings, so it is swapped in when the module loads).
jest.mock("../../provider/client/errors", () => {
  const actual = jest.requireActual("../../provider/client/errors");
  return { ...actual, apiErrorFor: jest.fn(actual.apiErrorFor) };
});

type Step = ExchangeResult | TransportFailure | ((e: Exchange) => ExchangeResult);

const KEY = "unit-test-key-0123456789";
let seq = 0;

function json(status: number, body: unknown): ExchangeResult {
  return { status, body: typeof body === "string" ? body : JSON.stringify(body), contentType: "application/json" };
}

interface SetupOptions {
  maxAttempts?: number;
  deadlineMs?: number;
  pacing?: false | Record<string, number>;
  /** Leave the clock still while sleeping, so concurrent callers see the same "now". */
  frozenClock?: boolean;
  rateLimitScale?: number;
}

function setup(steps: Step[], opts: SetupOptions = {}) {
  let t = 1_000_000;
  const sleeps: number[] = [];
  const sent: Exchange[] = [];
  const client = createClient({
    apiKey: KEY,
    apiUrl: `http://core-test-${++seq}.invalid`,
    runUrl: "http://run.invalid",
    maxAttempts: opts.maxAttempts,
    deadlineMs: opts.deadlineMs,
    rateLimitScale: opts.rateLimitScale,
    pacing: opts.pacing ? { intervalsMs: opts.pacing, defaultIntervalMs: 0 } : false,
    now: () => t,
    sleep: async (ms) => {
      sleeps.push(ms);
      if (!opts.frozenClock) t += ms;
    },
    random: () => 0.5,
    transport: async (e) => {
      sent.push(e);
      const step = steps.shift();
      if (!step) throw new Error("transport called more often than scripted");
      if (step instanceof TransportFailure) throw step;
      return typeof step === "function" ? step(e) : step;
    },
  });
  return { client, sleeps, sent };
}

const reset = () => new TransportFailure("socket hang up", "ECONNRESET", "connection", true);
const refused = () => new TransportFailure("connect ECONNREFUSED", "ECONNREFUSED", "connection", false);
const timeout = () => new TransportFailure("Timeout awaiting 'request'", "ETIMEDOUT", "timeout", true);

const instance = { id: 7, actual_status: "running", intended_status: "running" };

describe("request core", () => {
  it("sends the bearer key, JSON body and route with the id filled in", async () => {
    const { client, sent } = setup([json(200, { success: true })]);
    await client.instances.setLabel(42, "train");
    expect(sent[0]).toMatchObject({
      method: "PUT",
      url: expect.stringMatching(/\/api\/v0\/instances\/42\/$/),
      body: JSON.stringify({ label: "train" }),
    });
    expect(sent[0].headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent[0].headers["content-type"]).toBe("application/json");
  });

  it("retries 429, 502, 503, 504 and connection failures of a read, then succeeds", async () => {
    const { client, sleeps, sent } = setup([json(429, "API requests too frequent"), json(503, {}), reset(), json(200, { instances: [instance] })]);
    const list = await client.instances.list();
    expect(list.map((i) => i.id)).toEqual([7]);
    expect(sent).toHaveLength(4);
    expect(sleeps).toEqual([250, 500, 1000]); // full jitter at random 0.5, base 500
  });

  it("gives up after maxAttempts with the last error and the attempt count", async () => {
    const { client, sent } = setup([json(503, {}), json(503, {}), json(503, { error: "busy", msg: "try later" })], { maxAttempts: 3 });
    const error = await client.instances.list().catch((e) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error.message).toBe("GET /api/v0/instances/ failed: HTTP 503 busy: try later (gave up after 3 attempts). The service failed; try again later.");
    expect(sent).toHaveLength(3);
  });

  it("gives up on a 429 with the error of the last response itself: built once, attempts=N, naming the setting to change", async () => {
    const built = jest.mocked(apiErrorFor);
    built.mockClear();
    try {
      const { client, sent } = setup([json(429, "too frequent"), json(429, "too frequent"), json(429, "API requests too frequent")], { maxAttempts: 3, rateLimitScale: 2 });
      const error = await client.instances.list().catch((e) => e);
      expect(sent).toHaveLength(3);
      // One error per response and none more when giving up; the one thrown is the last one.
      expect(built).toHaveBeenCalledTimes(3);
      expect(built.mock.results[2].value).toBe(error);
      expect(error).toBeInstanceOf(RateLimitError);
      expect(error.attempts).toBe(3);
      expect(error.message).toBe(
        "GET /api/v0/instances/ failed: HTTP 429: API requests too frequent (gave up after 3 attempts). " +
          "The service limits how often this endpoint may be called; slow the requests down: raise vastai:rateLimitScale (now 2) or lower vastai:maxConcurrentRequests, or try again later.",
      );
    } finally {
      built.mockClear();
    }
  });

  it("does not retry other client errors", async () => {
    const { client, sent } = setup([json(400, { error: "invalid_args", msg: "bad label" })]);
    await expect(client.instances.setLabel(1, "x")).rejects.toBeInstanceOf(BadRequestError);
    expect(sent).toHaveLength(1);
  });

  it("reports a lost response of instance creation instead of resending it", async () => {
    for (const failure of [reset(), timeout(), json(504, "gateway timeout"), json(502, "bad gateway")]) {
      const { client, sent } = setup([failure, json(200, { success: true, new_contract: 1 })]);
      const error = await client.instances.create(5, { image: "ubuntu" }).catch((e) => e);
      expect(error).toBeInstanceOf(ResponseLostError);
      expect(error.message).toMatch(/^PUT \/api\/v0\/asks\/5\/ was sent but its response was lost .*Look the object up/);
      expect(sent).toHaveLength(1);
    }
  });

  it("retries instance creation when the request certainly never arrived (refused, 429, 503)", async () => {
    const { client, sent } = setup([refused(), json(429, "API requests too frequent"), json(503, {}), json(200, { success: true, new_contract: 99, instance_api_key: "inst-key-secret-1" })]);
    await expect(client.instances.create(5, { image: "ubuntu" })).resolves.toEqual({ id: 99, success: true, instanceApiKey: "inst-key-secret-1" });
    expect(sent).toHaveLength(4);
    expect(sent.every((e) => e.freshConnection)).toBe(true);
  });

  it("retries a timed-out read and says how long it waited", async () => {
    const { client, sent } = setup([timeout(), timeout()], { maxAttempts: 2 });
    const error = await client.instances.get(3).catch((e) => e);
    expect(error).toBeInstanceOf(VastTimeoutError);
    expect(error.message).toMatch(/^GET \/api\/v0\/instances\/3\/ failed: no response within \d+ ms \(gave up after 2 attempts\)/);
    expect(sent).toHaveLength(2);
  });

  it("keeps a scrubbed cause on connection errors", async () => {
    const { client } = setup([new TransportFailure(`reset while sending Bearer ${KEY}`, "ECONNRESET", "connection", true)], { maxAttempts: 1 });
    const error = await client.instances.list().catch((e) => e);
    expect(error).toBeInstanceOf(VastConnectionError);
    expect(String(error.cause.message)).not.toContain(KEY);
    expect(error.message).not.toContain(KEY);
  });

  it("names the failing field of a response that does not match", async () => {
    const { client } = setup([json(200, { instances: [instance, { id: "seven" }] })]);
    const error = await client.instances.list().catch((e) => e);
    expect(error).toBeInstanceOf(ResponseSchemaError);
    expect(error.fieldPath).toBe("instances.1.id");
    expect(error.message).toMatch(/^GET \/api\/v0\/instances\/ returned a response the client cannot read: at `instances.1.id`: /);
  });

  it("25.6 refuses a 2xx body that is not JSON, naming the host and vastai:apiUrl", async () => {
    const { client } = setup([{ status: 200, body: "<html>", contentType: "text/html; charset=utf-8" }]);
    const error = await client.instances.list().catch((e) => e);
    expect(error).toBeInstanceOf(ResponseSchemaError);
    expect(error.message).toMatch(/answered HTTP 200 with a text\/html body that is not JSON, so it is not the service's API: check vastai:apiUrl \(the calls go to [^)]+\)/);
    expect(error.message).not.toContain("report this");
  });

  it("keeps unknown fields in raw and maps known ones to camelCase", async () => {
    const { client } = setup([json(200, { instances: { ...instance, gpu_ram: 24000, new_field: "x", extra_env: [["A", "1"]], jupyter_token: "tok" } })]);
    const got = await client.instances.get(7);
    expect(got).toMatchObject({ id: 7, gpuRamMb: 24000, extraEnv: [["A", "1"]], raw: { new_field: "x" } });
    expect(got?.raw).not.toHaveProperty("jupyter_token");
  });

  it("reads a gone instance as null whether the API says 404, {instances: null} or {} with a list that lacks it", async () => {
    const { client } = setup([
      json(404, { success: false, error: "no_such_instance", msg: "gone" }),
      json(200, { instances: null }),
      json(200, {}),
      json(200, { instances: [{ ...instance, id: 2 }] }),
    ]);
    await expect(client.instances.get(1)).resolves.toBeNull();
    await expect(client.instances.get(1)).resolves.toBeNull();
    await expect(client.instances.get(1)).resolves.toBeNull();
  });

  it("23.5 a {} for one instance the list still holds is that instance, and a {} list is an error, never 'gone'", async () => {
    const { client } = setup([json(200, {}), json(200, { instances: [{ ...instance, id: 1 }] }), json(200, {}), json(200, {})]);
    await expect(client.instances.get(1)).resolves.toMatchObject({ id: 1 });
    await expect(client.instances.get(1)).rejects.toThrow(/GET \/api\/v0\/instances\/ returned a response the client cannot read: at `instances`/);
  });

  it("throws VastOperationError for success=false at HTTP 200", async () => {
    const { client } = setup([json(200, { success: false, error: "invalid_args", msg: "Invalid src_path." })]);
    const error = await client.copy.rsync({ srcId: 1, dstId: 2, srcPath: "/nope", dstPath: "/x" }).catch((e) => e);
    expect(error).toBeInstanceOf(VastOperationError);
    expect(error).toMatchObject({ code: "invalid_args", serverMessage: "Invalid src_path." });
  });

  it("spaces calls of one endpoint by its interval through the injected sleep", async () => {
    const ok = json(200, { success: true });
    const { client, sleeps } = setup([ok, ok, ok], { pacing: { "PUT /api/v0/instances/{id}/": 1000 }, frozenClock: true });
    await Promise.all([client.instances.setLabel(1, "a"), client.instances.setLabel(2, "b"), client.instances.setLabel(3, "c")]);
    expect(sleeps.sort((a, b) => a - b)).toEqual([1000, 2000]);
  });

  it("stops at the total deadline rather than wait for a pacing slot past it", async () => {
    const ok = json(200, { success: true });
    const { client, sent } = setup([ok, ok], { pacing: { "PUT /api/v0/instances/{id}/": 5000 }, deadlineMs: 1000 });
    await client.instances.setLabel(1, "a");
    await expect(client.instances.setLabel(1, "b")).rejects.toThrow(/total deadline of 1000 ms ran out/);
    expect(sent).toHaveLength(1);
  });

  it("validates arguments before sending anything", async () => {
    const { client, sent } = setup([]);
    await expect(client.instances.create(1, { templateId: 5 } as never)).rejects.toThrow(VastValidationError);
    // A script that does not compress below the limit cannot be sent in any form.
    const noise = randomBytes(4500).toString("base64");
    await expect(client.instances.create(1, { onstart: noise })).rejects.toThrow(/onstart must be at most 4048 bytes, also after compression and encoding \(the script has 6000 bytes/);
    await expect(client.instances.create(1, { env: { "1BAD": "x" } })).rejects.toThrow(/environment variable name "1BAD" is invalid/);
    await expect(client.instances.create(1, { label: "x".repeat(1025) })).rejects.toThrow(/label is 1025 bytes of UTF-8; the API accepts at most 1024/);
    await expect(client.machines.scheduleMaintenance({ machineIds: [], startTime: 1 })).rejects.toThrow(/machineIds must hold 1 to 100 ids, got 0/);
    await expect(client.offers.search({ filters: { gpuName: { like: "x" } } as never })).rejects.toThrow(/unknown operator "like"/);
    expect(sent).toHaveLength(0);
    expect(() => createClient({ apiKey: " " })).toThrow(/apiKey is empty/);
    expect(() => createClient({ apiKey: "k", timeoutMs: -1 })).toThrow(/timeoutMs must be a positive number, got -1/);
  });

  it("hides a plain-text 429 body's key-looking values but keeps its text", async () => {
    const { client } = setup([json(429, `API requests too frequent for ${KEY}`)], { maxAttempts: 1 });
    const error = await client.instances.list().catch((e) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.message).toContain("API requests too frequent for <redacted>");
  });
});

describe("requests in flight", () => {
  const flush = async () => {
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  };

  it("holds requests beyond maxConcurrentRequests, across endpoints, until one in flight ends", async () => {
    let inFlight = 0;
    let most = 0;
    const release: Array<() => void> = [];
    const client = createClient({
      apiKey: KEY,
      apiUrl: `http://core-test-${++seq}.invalid`,
      pacing: false,
      maxConcurrentRequests: 2,
      transport: async (e) => {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise<void>((r) => release.push(r));
        inFlight--;
        return e.method === "GET" ? json(200, { instances: [] }) : json(200, { success: true });
      },
    });
    const calls = Promise.all([client.instances.list(), client.instances.setLabel(1, "a"), client.instances.list(), client.instances.setLabel(2, "b"), client.instances.list()]);
    await flush();
    expect(inFlight).toBe(2);
    for (let i = 0; i < 5; i++) {
      release.shift()?.();
      await flush();
    }
    await calls;
    expect(most).toBe(2);
  });

  it("counts the wait for room under the cap against the call's total deadline", async () => {
    let t = 1_000_000;
    const timeouts: number[] = [];
    const release: Array<() => void> = [];
    const client = createClient({
      apiKey: KEY,
      apiUrl: `http://core-test-${++seq}.invalid`,
      pacing: false,
      maxConcurrentRequests: 1,
      deadlineMs: 10_000,
      timeoutMs: 10_000,
      now: () => t,
      transport: async (e) => {
        timeouts.push(e.timeoutMs);
        await new Promise<void>((r) => release.push(r));
        return json(200, { instances: [] });
      },
    });
    const calls = Promise.all([client.instances.list(), client.instances.list()]);
    await flush();
    t += 4000; // the first call holds the only place for 4 s
    release.shift()?.();
    await flush();
    release.shift()?.();
    await calls;
    expect(timeouts).toEqual([10_000, 6000]);
  });
});
