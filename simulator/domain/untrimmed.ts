/**
 * Rows as the live service is seen to serve them (api-facts: Live quirks): string values with
 * trailing whitespace, which the vendor's own client strips. Only with the simulator option
 * `untrimmedStrings`; the stored state and the control views stay clean.
 */
import type { SimContext } from "../context";

function pad(value: unknown, depth: number): unknown {
  if (typeof value === "string") return `${value}\n`;
  if (depth <= 0 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => pad(v, depth - 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, pad(v, depth - 1)]));
}

/** `row` as served: every string value (also in `ports` bindings) followed by a newline when the option is on. */
export function served<T extends Record<string, unknown>>(ctx: SimContext, row: T): T {
  if (!ctx.untrimmedStrings) return row;
  const out: Record<string, unknown> = {};
  // Top-level strings, and the strings of `ports` (`{"22/tcp": [{HostIp, HostPort}]}`).
  for (const [k, v] of Object.entries(row)) out[k] = k === "ports" ? pad(v, 3) : pad(v, 0);
  return out as T;
}

/** `row` as served, every string value a few levels down (cluster nodes, charge items) followed by a newline when the option is on. */
export function servedNested<T>(ctx: SimContext, row: T): T {
  return ctx.untrimmedStrings ? (pad(row, 4) as T) : row;
}
