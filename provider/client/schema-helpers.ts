/**
 * Building blocks of the wire schemas. Fields the client's callers depend on are checked
 * strictly, so a changed API fails loudly with the field's path; descriptive fields are read
 * leniently (a value of an unexpected type becomes undefined) so the API can evolve them
 * without breaking the client.
 */
import { z } from "zod";

/** Strict optional fields: absent or null become undefined. */
export const optString = z.string().nullish().transform((v) => v ?? undefined);
export const optNumber = z.number().nullish().transform((v) => v ?? undefined);
export const optBoolean = z.boolean().nullish().transform((v) => v ?? undefined);

/**
 * Lenient fields: never fail; a value of another type reads as undefined. (An absent key
 * skips the transform and also reads as undefined, so mappers add `?? null` where null is
 * the documented "no value".)
 */
export const anyString = z.unknown().optional().transform((v) => (typeof v === "string" ? v : undefined));
export const anyNumber = z.unknown().optional().transform((v) => (typeof v === "number" && Number.isFinite(v) ? v : undefined));
export const anyBoolean = z.unknown().optional().transform((v) => (typeof v === "boolean" ? v : undefined));
export const anyRecord = z
  .unknown()
  .optional()
  .transform((v) => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined));
/** Lenient, but keeps null (meaningful for some fields such as a status while provisioning). */
export const nullableString = z.unknown().optional().transform((v) => (typeof v === "string" ? v : null));
export const nullableNumber = z.unknown().optional().transform((v) => (typeof v === "number" && Number.isFinite(v) ? v : null));
export const timestampLike = z
  .unknown()
  .optional()
  .transform((v) => (typeof v === "number" || typeof v === "string" ? v : v === null ? null : undefined));

/** Ids sometimes arrive as numeric strings; accept both, require an integer. */
export const idNumber = z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]);

/** A loose object keeps unknown fields, which `raw` exposes. */
export const record = z.record(z.string(), z.unknown());

/** Copy of a wire record without fields that hold secrets, for `raw`. */
export function withoutSecrets(r: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const out = { ...r };
  for (const f of fields) delete out[f];
  return out;
}

/** Fields whose strings are the user's own text (scripts, environment, prose), kept exactly as sent. */
const VERBATIM_FIELDS = new Set(["extra_env", "env", "onstart", "readme", "desc", "args_str"]);

function trimmed(value: unknown, depth: number): unknown {
  if (typeof value === "string") return value.trim();
  if (depth <= 0 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => trimmed(v, depth - 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, trimmed(v, depth - 1)]));
}

/**
 * A row with its strings trimmed: the live service serves values with trailing whitespace
 * (`"127.0.0.1\n"`; api-facts: Live quirks) and its own client strips every string of a row.
 * Top-level strings and those nested in objects a few levels down (`ports` bindings); scripts,
 * environment and prose are the user's text and stay as sent.
 */
export function normalizeRow(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[k] = VERBATIM_FIELDS.has(k) ? v : trimmed(v, 3);
  return out;
}

/**
 * `schema` applied to the row with its strings trimmed (`normalizeRow`), for row schemas not
 * built with `mapped` (clusters, overlays, charges): a value that is not an object is left to
 * `schema` to refuse.
 */
export function trimmedRow<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (v !== null && typeof v === "object" && !Array.isArray(v) ? normalizeRow(v as Record<string, unknown>) : v), schema);
}

/**
 * A wire record checked against `shape` (unknown fields kept) and mapped to a public type.
 * `map` receives the parsed fields and the record as sent, its strings trimmed
 * (`normalizeRow`; for `raw`). Failures keep their field paths. Every row schema of the client
 * is built here, so this is the one place rows are normalised.
 */
export function mapped<Shape extends z.ZodRawShape, Out>(
  shape: Shape,
  map: (parsed: z.output<z.ZodObject<Shape, z.core.$loose>>, raw: Record<string, unknown>) => Out,
): z.ZodType<Out> {
  const inner = z.looseObject(shape);
  return record.transform((sent, ctx) => {
    const raw = normalizeRow(sent);
    const result = inner.safeParse(raw);
    if (!result.success) {
      for (const issue of result.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
      return z.NEVER;
    }
    return map(result.data, raw);
  }) as unknown as z.ZodType<Out>;
}

/** A list read row by row: rows that do not validate are counted, never fatal to the list. */
export interface Rows<T> {
  items: T[];
  /** Rows left out because they did not validate. */
  skipped: number;
  /** The first problem met, for the debug log (a field path and rule, never a value). */
  firstProblem?: string;
}

/**
 * For market lists (public templates, offers) where one odd row of someone else's must not
 * hide the rest. Not for lists that prove an object of the caller's exists: a skipped row
 * there would read as "gone".
 */
export function rowsOf<T>(item: z.ZodType<T>): z.ZodType<Rows<T>> {
  return z.array(z.unknown()).transform((rows) => {
    const out: Rows<T> = { items: [], skipped: 0 };
    for (const row of rows) {
      const parsed = item.safeParse(row);
      if (parsed.success) {
        out.items.push(parsed.data);
        continue;
      }
      out.skipped++;
      const issue = parsed.error.issues[0];
      out.firstProblem ??= issue ? `${issue.path.map(String).join(".") || "(row)"}: ${issue.message}` : "invalid row";
    }
    return out;
  }) as unknown as z.ZodType<Rows<T>>;
}
