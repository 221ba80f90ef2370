/**
 * The benchmark's arithmetic: the scaled tables, the lower bounds the rate limits set, and how
 * the targets are judged (the benchmark itself runs with `npm run bench`).
 */
import { REALISTIC_RATE_LIMITS } from "pulumi-vastai/simulator";
import { DEFAULT_INTERVALS_MS } from "../../provider/client/endpoints";
import { clientPacing, lowerBoundMs, refreshCallTarget, serviceLimits } from "../../bench/limits";
import type { Cost } from "../../bench/measure";
import { costOf } from "../../bench/measure";
import { createPace, judge, operationsTable, type Row } from "../../bench/report";

const table = { "*": 50, "PUT /api/v0/asks/{id}": 100, "DELETE /api/v0/instances/{id}": 100, "GET /api/v1/instances": 500 };

describe("benchmark limits", () => {
  it("scales the service's table and the client's intervals by the same factor", () => {
    expect(serviceLimits(0.5)["GET /api/v1/instances"]).toBe(REALISTIC_RATE_LIMITS["GET /api/v1/instances"] / 2);
    expect(clientPacing(0.5)["PUT /api/v0/asks/{id}/"]).toBe(DEFAULT_INTERVALS_MS["PUT /api/v0/asks/{id}/"] / 2);
  });

  it("bounds a create by the creations one interval apart plus the last answer and one read", () => {
    expect(lowerBoundMs("create", 10, table, 25)).toBe(9 * 100 + 50);
  });

  it("bounds a refresh by the paged list's pages, each after the previous one's answer", () => {
    expect(lowerBoundMs("refresh", 10, table, 25)).toBe(25);
    expect(lowerBoundMs("refresh", 200, table, 25)).toBe(7 * 500 + 25);
    expect(lowerBoundMs("diff", 51, table, 600)).toBe(2 * 600 + 600);
  });

  it("bounds a destroy by the deletions one interval apart", () => {
    expect(lowerBoundMs("destroy", 200, table, 25)).toBe(199 * 100 + 25);
  });

  it("allows a refresh ceil(N/25) + 1 list calls", () => {
    expect([10, 25, 26, 200].map(refreshCallTarget)).toEqual([2, 2, 3, 9]);
  });
});

describe("benchmark targets", () => {
  const cost = (over: Partial<Cost>): Cost => ({ calls: 0, writes: 0, refused: 0, listCalls: 0, timeMs: 0, failures: 0, ...over });
  const row = (op: Row["op"], provider: Partial<Cost>, boundMs = 1000): Row => ({ n: 50, op, provider: cost(provider), naive: cost({}), boundMs });

  it("passes a stack that meets every target", () => {
    const rows = [row("create", { timeMs: 1050 }), row("refresh", { listCalls: 3 }), row("diff", { listCalls: 2 })];
    expect(judge({ rows }, refreshCallTarget).map((t) => t.pass)).toEqual([true, true, true]);
  });

  it("fails a create over 1.05x the bound, or with a refusal, and a diff that writes", () => {
    expect(judge({ rows: [row("create", { timeMs: 1060 })] }, refreshCallTarget)[1].pass).toBe(false);
    expect(judge({ rows: [row("create", { timeMs: 1000, refused: 1 })] }, refreshCallTarget)[1].pass).toBe(false);
    expect(judge({ rows: [row("refresh", { listCalls: 4 })] }, refreshCallTarget)[0].pass).toBe(false);
    expect(judge({ rows: [row("diff", { writes: 1 })] }, refreshCallTarget)[2].pass).toBe(false);
  });

  it("28.5 holds creates of N >= 50 to the 1.05x create pace and smaller stacks to 1.15x, and shows the pace of each create row", () => {
    const target = (r: Row) => judge({ rows: [r] }, refreshCallTarget)[1];
    expect(target(row("create", { timeMs: 1050 })).name).toMatch(/^create pace: /);
    expect(target(row("create", { timeMs: 1051 })).pass).toBe(false);
    expect(target({ ...row("create", { timeMs: 1140 }), n: 10 }).pass).toBe(true);
    const settings = { latencyMs: 25, limits: { create: 100 } };
    expect(createPace({ ...row("create", { timeMs: 49 * 103 + 50 }), n: 50 }, settings)).toBeCloseTo(1.03, 6);
    expect(createPace(row("destroy", { timeMs: 5000 }), settings)).toBeUndefined();
    expect(operationsTable([{ ...row("create", { timeMs: 49 * 103 + 50 }), n: 50 }], settings)).toMatch(/pace[\s\S]*1\.030/);
  });

  it("judges the shared-account scenarios: calls of the stack whatever the account holds, and the mixed up", () => {
    const account = (others: number, calls: number) => ({ n: 10, others, refresh: cost({ calls }), diff: cost({ calls }), callTarget: 3 });
    const mixed = (over: Partial<Cost>) => ({ existing: 200, created: 200, cost: cost({ listCalls: 9, timeMs: 1100, ...over }), boundMs: 1000, listTarget: 10 });
    const ok = judge({ rows: [], account: [account(0, 1), account(500, 3)], mixed: mixed({}) }, refreshCallTarget);
    expect(ok.slice(3).map((t) => t.pass)).toEqual([true, true]);
    expect(judge({ rows: [], account: [account(500, 4)] }, refreshCallTarget)[3].pass).toBe(false);
    expect(judge({ rows: [], mixed: mixed({ listCalls: 11 }) }, refreshCallTarget)[3].pass).toBe(false);
    expect(judge({ rows: [], mixed: mixed({ timeMs: 1160 }) }, refreshCallTarget)[3].pass).toBe(false);
    expect(judge({ rows: [], mixed: mixed({ refused: 1 }) }, refreshCallTarget)[3].pass).toBe(false);
  });

  it("counts calls, writes, refusals and list calls from a request log", () => {
    const entry = (method: string, path: string, status = 200) => ({ method, path, status, query: {}, body: null, headers: {} });
    const log = [entry("GET", "/api/v1/instances/"), entry("GET", "/api/v0/instances/"), entry("GET", "/api/v0/instances/7/"), entry("PUT", "/api/v0/asks/1/", 429)];
    expect(costOf(log, 5, { failures: 0 })).toEqual({
      calls: 4, writes: 1, refused: 1, refusedBy: { "PUT /api/v0/asks/{id}/": 1 }, listCalls: 2, timeMs: 5, failures: 0, firstError: undefined,
    });
  });
});
