/**
 * The paged instance list `GET /api/v1/instances/` as the vendor documents it: keyset pages of
 * at most 25 (`limit` <= 0 means 5), `select_filters` on the columns stored on the contract
 * record (computed ones such as dph_total answer 400), `order_by` with `id` always appended as
 * the tiebreaker, `select_cols`, and `total_instances` counting every instance that matches.
 */
import type { FastifyRequest } from "fastify";
import type { SimContext } from "../context";
import { FilterError, matches, plainReader } from "../domain/filters";
import { instanceView } from "../domain/instance-view";
import { invalidArgs, show } from "../http/errors";
import type { InstanceRecord } from "../store/types";

const PAGE_MAX = 25;
const NON_POSITIVE_LIMIT = 5;
/** Columns computed per request, not stored on the contract: not filterable (vendor document). */
const COMPUTED = new Set(["dph_total", "num_gpus", "gpu_ram", "ssh_host", "ssh_port", "public_ipaddr", "ports", "extra_env"]);

type Row = Record<string, unknown>;
interface Directive {
  col: string;
  dir: "asc" | "desc";
}

function json(name: string, text: string | undefined, fallback: unknown): unknown {
  if (text === undefined || text === "") return fallback;
  try {
    return JSON.parse(text);
  } catch {
    throw invalidArgs(`${name} must be JSON (got ${show(text)})`);
  }
}

function limitOf(raw: string | undefined): number {
  if (raw === undefined) return PAGE_MAX;
  const n = Number(raw);
  if (!Number.isInteger(n)) throw invalidArgs(`limit must be an integer (got ${show(raw)})`);
  return n <= 0 ? NON_POSITIVE_LIMIT : Math.min(n, PAGE_MAX);
}

function filtersOf(raw: string | undefined, columns: Set<string>): Record<string, unknown> {
  const filters = json("select_filters", raw, {});
  if (!filters || typeof filters !== "object" || Array.isArray(filters)) throw invalidArgs("select_filters must be a JSON object");
  for (const col of Object.keys(filters)) {
    if (COMPUTED.has(col)) throw invalidArgs(`select_filters: ${col} is computed and cannot be filtered`);
    if (!columns.has(col)) throw invalidArgs(`select_filters: unknown column ${col}`);
  }
  return filters as Record<string, unknown>;
}

function orderOf(raw: string | undefined, columns: Set<string>): Directive[] {
  const given = json("order_by", raw, []);
  if (!Array.isArray(given)) throw invalidArgs("order_by must be a JSON array of {col, dir}");
  const out: Directive[] = [];
  for (const d of given as Array<Record<string, unknown>>) {
    const col = String(d?.col ?? "");
    if (!columns.has(col)) throw invalidArgs(`order_by: unknown column ${show(col)}`);
    if (col !== "id") out.push({ col, dir: d.dir === "desc" ? "desc" : "asc" });
  }
  const idDir = (given as Array<Record<string, unknown>>).find((d) => d?.col === "id")?.dir === "desc" ? "desc" : "asc";
  return [...out, { col: "id", dir: idDir }];
}

function compareBy(order: Directive[]) {
  return (a: Row, b: Row): number => {
    for (const { col, dir } of order) {
      const x = a[col];
      const y = b[col];
      if (x === y) continue;
      // Nulls sort last, as the service's database does for ascending order.
      const c = x === null || x === undefined ? 1 : y === null || y === undefined ? -1 : x < y ? -1 : 1;
      return dir === "asc" ? c : -c;
    }
    return 0;
  };
}

function tokenOf(row: Row, order: Directive[]): string {
  const values = Object.fromEntries(order.map(({ col }) => [col, row[col] ?? null]));
  return Buffer.from(JSON.stringify({ values })).toString("base64");
}

function afterOf(raw: string | undefined, order: Directive[]): Row | undefined {
  if (!raw) return undefined;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(raw, "base64").toString("utf8"));
  } catch {
    decoded = undefined;
  }
  const values = (decoded as { values?: Row } | undefined)?.values;
  if (!values || typeof values !== "object" || !order.every(({ col }) => col in values)) {
    throw invalidArgs(`after_token is not a token this API returned (got ${show(raw)})`);
  }
  return values;
}

function pick(row: Row, cols: unknown): Row {
  if (!Array.isArray(cols) || cols.includes("*")) return row;
  // Unknown column names come back as null (vendor document).
  return Object.fromEntries(cols.map((c) => [String(c), row[String(c)] ?? null]));
}

export function instancePage(ctx: SimContext, request: FastifyRequest, mine: InstanceRecord[]): Row {
  const q = request.query as Record<string, string | undefined>;
  const rows: Row[] = mine.map((i) => instanceView(ctx, i) as Row);
  const columns = new Set(rows[0] ? Object.keys(rows[0]) : ["id", "label", "actual_status"]);
  for (const c of ["id", "label", "actual_status", "intended_status", "gpu_name", "machine_id", "template_hash_id"]) columns.add(c);
  const limit = limitOf(q.limit);
  const order = orderOf(q.order_by, columns);
  let matching: Row[];
  try {
    const filters = filtersOf(q.select_filters, columns);
    matching = rows.filter((r) => matches(plainReader(r), filters));
  } catch (error) {
    if (error instanceof FilterError) throw invalidArgs(`select_filters: ${error.message}`);
    throw error;
  }
  const cmp = compareBy(order);
  matching.sort(cmp);
  const after = afterOf(q.after_token, order);
  const rest = after ? matching.filter((r) => cmp(r, after) > 0) : matching;
  const items = rest.slice(0, limit);
  const more = rest.length > items.length;
  const cols = json("select_cols", q.select_cols, ["*"]);
  return {
    success: true,
    instances_found: items.length,
    instances: items.map((r) => pick(r, cols)),
    next_token: more ? tokenOf(items[items.length - 1], order) : null,
    total_instances: matching.length,
  };
}
