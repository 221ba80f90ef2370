/**
 * Earnings chart `GET /api/v1/user/earnings/chart` (spec: Accounts and keys). Query: `start`
 * and `end` (Unix seconds; default the last 30 days) and `bucket` (hour, day, week; default
 * day). A malformed query is answered `{detail}` with 422, an impossible window `{error, msg}`.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { SimContext } from "../context";
import { requirePermission } from "../http/auth";
import { ApiError, invalidArgs } from "../http/errors";
import { machinesOwnedBy } from "../seed/machines";

const BUCKETS: Record<string, number> = { hour: 3600, day: 86400, week: 7 * 86400 };
const MAX_BUCKETS = 1000;

function seconds(q: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = q[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d{1,12}(\.\d+)?$/.test(raw)) throw new ApiError(422, { detail: `${name} must be a Unix timestamp in seconds (got "${raw}")` });
  return Math.floor(Number(raw));
}

function chart(ctx: SimContext, request: FastifyRequest) {
  const userId = requirePermission(request, "billing_read").user.id;
  const q = request.query as Record<string, string | undefined>;
  const bucket = q.bucket ?? "day";
  const size = BUCKETS[bucket];
  if (!size) throw new ApiError(422, { detail: `bucket must be one of hour, day, week (got "${bucket}")` });
  const now = Math.floor(ctx.now() / 1000);
  const end = seconds(q, "end", now);
  const start = seconds(q, "start", end - 30 * 86400);
  if (start >= end) throw invalidArgs(`start must be before end (got start ${start}, end ${end})`);
  if ((end - start) / size > MAX_BUCKETS) throw invalidArgs(`The window holds more than ${MAX_BUCKETS} ${bucket} buckets; use a larger bucket`);
  const machines = machinesOwnedBy(userId).length;
  const series = [];
  for (let t = start - (start % size); t < end; t += size) {
    // Deterministic: the same window always charts the same amounts.
    const perHour = machines * (0.2 + ((Math.floor(t / 3600) * 7919) % 100) / 1000);
    series.push({ start: t, end: t + size, earnings: Math.round(perHour * (size / 3600) * 100) / 100, gpu_hours: machines * (size / 3600) });
  }
  const total = Math.round(series.reduce((s, b) => s + b.earnings, 0) * 100) / 100;
  return { success: true, start, end, bucket, total, series };
}

export function registerEarnings(app: FastifyInstance, ctx: SimContext): void {
  app.get("/api/v1/user/earnings/chart", (req) => chart(ctx, req));
}
