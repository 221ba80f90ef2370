import { REALISTIC_RATE_LIMITS, routeKey, SEED, startSimulator, type SimulatorOptions } from "pulumi-vastai/simulator";
import { manualClock, openSimulator } from "./simulator-support";
import { useSimulator } from "../support/simulator";

const h = useSimulator({ start: openSimulator });

const CREATE = `/api/v0/asks/${SEED.offerIds[0]}/`;

async function instanceCount(): Promise<number> {
  return (await h.control("GET", "/_sim/state")).body.instances.length;
}

describe("faults", () => {
  it("answers the next matching request with the given status and a string body sent as-is", async () => {
    await h.control("POST", "/_sim/faults", { method: "GET", path: "/api/v0/instances", status: 502, body: '{"half": ' });
    const r = await h.call("GET", "/api/v0/instances/");
    expect(r.status).toBe(502);
    expect(r.text).toBe('{"half": ');
    expect(r.headers.get("content-type")).toContain("application/json");
    expect((await h.call("GET", "/api/v0/instances/")).status).toBe(200);
  });

  it("sends plain text and object bodies, `times` times", async () => {
    await h.control("POST", "/_sim/faults", { method: "PUT", path: CREATE, status: 500, body: { error: "boom", msg: "x" }, times: 2 });
    for (let i = 0; i < 2; i++) {
      const r = await h.call("PUT", CREATE, { image: "ubuntu" });
      expect(r.status).toBe(500);
      expect(r.body).toEqual({ error: "boom", msg: "x" });
    }
    expect(await instanceCount()).toBe(0);
    expect((await h.call("PUT", CREATE, { image: "ubuntu" })).status).toBe(200);
    await h.control("POST", "/_sim/faults", { method: "*", path: "/api/v0/ssh", status: 503, body: "Service Unavailable" });
    const text = await h.call("POST", "/api/v0/ssh/", { ssh_key: "x" });
    expect(text.status).toBe(503);
    expect(text.text).toBe("Service Unavailable");
    expect(text.headers.get("content-type")).toContain("text/plain");
  });

  it("matches * against one path segment only", async () => {
    await h.control("POST", "/_sim/faults", { method: "GET", path: "/api/v0/instances/*", status: 418, times: 5 });
    expect((await h.call("GET", "/api/v0/instances/")).status).toBe(200);
    expect((await h.call("GET", "/api/v0/instances/77/")).status).toBe(418);
    expect((await h.call("GET", "/api/v0/instances/77/ssh")).status).toBe(404);
    const listed = await h.control("GET", "/_sim/faults");
    expect(listed.body.faults).toEqual([expect.objectContaining({ path: "/api/v0/instances/*", times: 4 })]);
    await h.control("DELETE", "/_sim/faults");
    expect((await h.call("GET", "/api/v0/instances/77")).status).toBe(200);
  });

  it("waits delayMs before answering, long enough for a client timeout", async () => {
    await h.control("POST", "/_sim/faults", { method: "GET", path: "/api/v0/users/current", delayMs: 400 });
    await expect(h.call("GET", "/api/v0/users/current/", undefined, { signal: AbortSignal.timeout(50) })).rejects.toThrow();
    await h.control("POST", "/_sim/faults", { method: "GET", path: "/api/v0/users/current", delayMs: 60 });
    const t0 = performance.now();
    expect((await h.call("GET", "/api/v0/users/current/")).status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(55);
  });

  it("drops the connection before applying with drop: before", async () => {
    await h.control("POST", "/_sim/faults", { method: "PUT", path: "/api/v0/asks/*", drop: "before" });
    await expect(h.call("PUT", CREATE, { image: "ubuntu" })).rejects.toThrow();
    expect(await instanceCount()).toBe(0);
    const log = (await h.control("GET", "/_sim/requests")).body;
    expect(log[log.length - 1]).toMatchObject({ method: "PUT", status: 0, dropped: "before" });
  });

  it("applies the change and then drops the connection with drop: after", async () => {
    await h.control("POST", "/_sim/faults", { method: "PUT", path: "/api/v0/asks/*", drop: "after" });
    await expect(h.call("PUT", CREATE, { image: "ubuntu" })).rejects.toThrow();
    expect(await instanceCount()).toBe(1);
    const log = (await h.control("GET", "/_sim/requests")).body;
    expect(log[log.length - 1]).toMatchObject({ status: 0, dropped: "after" });
  });

  it("rejects a fault without a path", async () => {
    const r = await h.control("POST", "/_sim/faults", { method: "GET", status: 500 });
    expect(r.status).toBe(400);
    expect(r.body.msg).toContain("path");
  });
});

describe("request log", () => {
  it("records method, path, status, query, body and headers without Authorization, in order", async () => {
    await h.control("DELETE", "/_sim/requests");
    await h.call("GET", "/api/v0/machines/maintenances?machine_ids=[1]", undefined, { headers: { "x-trace": "abc" } });
    await h.call("POST", "/api/v0/secrets/", { key: "A", value: "v" }, { key: "wrong-key-1234" });
    const log = (await h.control("GET", "/_sim/requests")).body;
    expect(log).toHaveLength(2);
    expect(log[0]).toEqual({
      method: "GET",
      path: "/api/v0/machines/maintenances",
      status: 200,
      query: { machine_ids: "[1]" },
      body: null,
      headers: expect.objectContaining({ "x-trace": "abc" }),
    });
    expect(JSON.stringify(log)).not.toContain(h.sim.apiKey);
    expect(JSON.stringify(log)).not.toContain("wrong-key-1234");
    expect(log[0].headers).not.toHaveProperty("authorization");
    expect(log[1]).toMatchObject({ method: "POST", status: 401, body: { key: "A", value: "[redacted]" } });
  });

  it("leaves control calls out and clears with DELETE", async () => {
    await h.call("GET", "/api/v0/users/current/");
    expect((await h.control("GET", "/_sim/requests")).body.map((e: { path: string }) => e.path)).toEqual(["/api/v0/users/current/"]);
    await h.control("DELETE", "/_sim/requests");
    expect((await h.control("GET", "/_sim/requests")).body).toEqual([]);
  });
});

describe("control API", () => {
  it("answers health and resets to the seed state", async () => {
    expect((await h.control("GET", "/_sim/health")).body).toEqual({ ok: true });
    await h.call("PUT", CREATE, { image: "ubuntu" });
    await h.call("POST", "/api/v0/auth/apikeys/", { name: "k" });
    await h.control("POST", "/_sim/reset");
    const state = (await h.control("GET", "/_sim/state")).body;
    expect(state.instances).toEqual([]);
    expect(state.apiKeys.every((k: { primary: boolean }) => k.primary)).toBe(true);
    expect(JSON.stringify(state)).not.toContain(h.sim.apiKey);
  });

  it("validates control bodies", async () => {
    expect((await h.control("POST", `/_sim/offers/${SEED.offerIds[0]}`, { state: "sold" })).status).toBe(400);
    expect((await h.control("POST", "/_sim/offers/1", { state: "gone" })).status).toBe(404);
    expect((await h.control("POST", "/_sim/next-boot", { times: 1 })).status).toBe(400);
    expect((await h.control("POST", "/_sim/instances/5/status", { actual_status: "exited" })).status).toBe(404);
  });
});

describe("trailing slashes", () => {
  const routes: [string, string][] = [
    ["PUT", "/api/v0/subaccounts/regenerate_keys"], ["GET", "/api/v0/users/current"],
    ["POST", "/api/v0/auth/apikeys"], ["GET", "/api/v0/auth/apikeys"], ["DELETE", "/api/v0/auth/apikeys/999"],
    ["POST", "/api/v0/ssh"], ["GET", "/api/v0/users/current"], ["PUT", "/api/v0/ssh/999"], ["DELETE", "/api/v0/ssh/999"],
    ["GET", "/api/v0/secrets"], ["POST", "/api/v0/secrets"], ["PUT", "/api/v0/secrets"], ["DELETE", "/api/v0/secrets"],
    ["GET", "/api/v0/template"], ["POST", "/api/v0/template"], ["PUT", "/api/v0/template"], ["DELETE", "/api/v0/template"],
    ["GET", `/api/v0/users/${SEED.user.id}/templates/autoscaler`], ["GET", "/api/v1/user/earnings/chart"],
    ["GET", "/api/v0/instances"], ["GET", "/api/v1/instances"], ["GET", "/api/v0/instances/999"],
    ["PUT", "/api/v0/instances/999"], ["DELETE", "/api/v0/instances/999"], ["POST", "/api/v0/instances/999/ssh"],
    ["PUT", `/api/v0/asks/${SEED.offerIds[0]}`], ["POST", `/api/v0/asks/${SEED.offerIds[0]}`],
    ["POST", "/api/v0/bundles"], ["PUT", `/api/v0/bundles/${SEED.offerIds[0]}`], ["PUT", "/api/v0/commands/rsync"],
    ["GET", "/api/v0/machines"], ["GET", `/api/v0/machines/${SEED.hostedMachineIds[0]}`], ["GET", "/api/v0/machines/maintenances"],
    ["POST", "/api/v0/machines/maintenances/batch"], ["DELETE", "/api/v0/machines/maintenances/batch"],
    ["GET", `/api/v0/deployment/${SEED.deployment.id}/versions`], ["POST", "/run/get_workergroup_logs"],
  ];

  it.each(routes)("serves %s %s with and without a trailing slash", async (method, path) => {
    for (const p of [path, `${path}/`]) {
      const r = await h.call(method, p, method === "GET" ? undefined : {});
      expect(r.body?.msg ?? "").not.toMatch(/^No such endpoint/);
      expect(r.status).not.toBe(401);
    }
  });

  it("answers an unknown path with 404 {error, msg}", async () => {
    const r = await h.call("GET", "/api/v0/nowhere/");
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ error: "not_found", msg: expect.stringContaining("/api/v0/nowhere/") });
  });
});

describe("rate limits", () => {
  const clock = manualClock();
  const limited = useSimulator({ start: openSimulator, simulator: { rateLimits: "realistic", now: clock.now }, reset: false });

  it("refuses a second call within the interval with 429, plain text and no Retry-After, applying nothing", async () => {
    const inst = await limited.call("PUT", CREATE, { image: "ubuntu" });
    const path = `/api/v0/instances/${inst.body.new_contract}/`;
    expect((await limited.call("PUT", path, { label: "first" })).status).toBe(200);
    const refused = await limited.call("PUT", path, { label: "second" });
    expect(refused.status).toBe(429);
    expect(refused.text).toBe("API requests too frequent: endpoint threshold=1");
    expect(refused.headers.get("content-type")).toContain("text/plain");
    expect(refused.headers.get("retry-after")).toBeNull();
    const read = await limited.call("GET", path);
    expect(read.body.instances.label).toBe("first");
    clock.advance(REALISTIC_RATE_LIMITS[routeKey("PUT", "/api/v0/instances/:id/")]);
    expect((await limited.call("PUT", path, { label: "third" })).status).toBe(200);
  });

  it("limits per key and per endpoint", async () => {
    clock.advance(10_000);
    expect((await limited.call("GET", "/api/v0/users/current/")).status).toBe(200);
    expect((await limited.call("GET", "/api/v0/users/current/", undefined, { key: SEED.unapprovedUser.apiKey })).status).toBe(200);
    expect((await limited.call("GET", "/api/v0/secrets/")).status).toBe(200);
    expect((await limited.call("GET", "/api/v0/users/current")).status).toBe(429);
  });

  it("takes a table of intervals in ms keyed by METHOD and route", async () => {
    const custom = await openSimulator({ rateLimits: { "GET /api/v0/users/current": 500 }, now: clock.now });
    try {
      expect((await custom.call("GET", "/api/v0/users/current/")).status).toBe(200);
      const refused = await custom.call("GET", "/api/v0/users/current/");
      expect(refused.text).toBe("API requests too frequent: endpoint threshold=0.5");
      for (let i = 0; i < 3; i++) expect((await custom.call("GET", "/api/v0/secrets/")).status).toBe(200);
    } finally {
      await custom.close();
    }
  });

  it("publishes the realistic table with the strictest endpoints at one second", () => {
    expect(REALISTIC_RATE_LIMITS["GET /api/v1/instances"]).toBe(1000);
    expect(REALISTIC_RATE_LIMITS["POST /api/v0/ssh"]).toBe(1000);
    expect(REALISTIC_RATE_LIMITS["PUT /api/v0/asks/{id}"]).toBeLessThan(1000);
  });
});

describe("options", () => {
  it("adds latencyMs to every API response", async () => {
    const slow = await openSimulator({ latencyMs: 80 });
    try {
      const t0 = performance.now();
      expect((await slow.call("GET", "/api/v0/users/current/")).status).toBe(200);
      expect(performance.now() - t0).toBeGreaterThanOrEqual(75);
    } finally {
      await slow.close();
    }
  });

  it.each(["0.0.0.0", "192.168.1.10", "example.com"])("refuses to bind to %s", async (host) => {
    await expect(startSimulator({ host } as unknown as SimulatorOptions)).rejects.toThrow(/loopback/);
  });

  it("closes once however often close() is called, and then refuses connections", async () => {
    const sim = await startSimulator({ port: 0 });
    await Promise.all([sim.close(), sim.close()]);
    await sim.close();
    await expect(fetch(`${sim.url}/_sim/health`)).rejects.toThrow();
  });

  it("binds to localhost as 127.0.0.1", async () => {
    const sim = await startSimulator({ host: "localhost", port: 0 });
    try {
      expect(sim.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(sim.runUrl).toBe(`${sim.url}/run`);
    } finally {
      await sim.close();
    }
  });
});
