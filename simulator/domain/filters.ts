/**
 * Search filters shared by template and offer search: `{<field>: {<op>: <value>}}` with the
 * operators eq, neq, lt, lte, gt, gte, in, notin (spec: Template search filters).
 */

export type Filters = Record<string, unknown>;

/** A filter the server cannot evaluate; template search answers it with no result. */
export class FilterError extends Error {}

const OPS = new Set(["eq", "neq", "lt", "lte", "gt", "gte", "in", "notin"]);

/** A field may have several values to match against (geolocation: full name and country code). */
export type FieldReader = (field: string) => unknown[];

function same(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "string" && b.trim() !== "") return a === Number(b);
  // A flag the service keeps as 0/1 (`has_avx`) matches true/false, as a database compares them.
  if (typeof a === "number" && typeof b === "boolean") return a === (b ? 1 : 0);
  if (typeof a === "boolean" && typeof b === "number") return same(b, a);
  if (typeof a === "string" && typeof b === "number") return same(b, a);
  return a === b;
}

function compare(a: unknown, b: unknown): number | undefined {
  const na = typeof a === "number" ? a : typeof a === "string" && a.trim() !== "" ? Number(a) : NaN;
  const nb = typeof b === "number" ? b : typeof b === "string" && b.trim() !== "" ? Number(b) : NaN;
  if (!Number.isNaN(na) && !Number.isNaN(nb) && (typeof a === "number" || typeof b === "number")) return na - nb;
  if (typeof a === "string" && typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
  return undefined;
}

function test(op: string, value: unknown, expected: unknown): boolean {
  switch (op) {
    case "eq":
      return same(value, expected);
    case "in":
      return (expected as unknown[]).some((e) => same(value, e));
    default: {
      const c = compare(value, expected);
      if (c === undefined) return false;
      return op === "lt" ? c < 0 : op === "lte" ? c <= 0 : op === "gt" ? c > 0 : c >= 0;
    }
  }
}

function checkOp(field: string, op: string, expected: unknown): void {
  if (!OPS.has(op)) throw new FilterError(`${field}: unknown operator "${op}" (use eq, neq, lt, lte, gt, gte, in, notin)`);
  if ((op === "in" || op === "notin") && !Array.isArray(expected)) {
    throw new FilterError(`${field}: operator ${op} needs an array value`);
  }
}

/** True when the record passes every filter; a value missing on the record passes only neq/notin. */
export function matches(read: FieldReader, filters: Filters): boolean {
  for (const [field, cond] of Object.entries(filters)) {
    if (cond === null || typeof cond !== "object" || Array.isArray(cond)) {
      throw new FilterError(`${field}: a filter must be an object like {"eq": value}`);
    }
    const values = read(field).filter((v) => v !== undefined);
    for (const [op, expected] of Object.entries(cond as Record<string, unknown>)) {
      checkOp(field, op, expected);
      const ok =
        op === "neq" || op === "notin"
          ? values.every((v) => !test(op === "neq" ? "eq" : "in", v, expected))
          : values.some((v) => test(op, v, expected));
      if (!ok) return false;
    }
  }
  return true;
}

/** Reads a field from a flat record. */
export function plainReader(record: Record<string, unknown>): FieldReader {
  return (field) => [record[field]];
}
