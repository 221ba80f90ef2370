/**
 * Template `hash_id` is derived from content (spec: Template identifiers), so it changes on
 * every edit while `id` stays. Keys are sorted so the order of fields in a body does not matter.
 */
import { createHash } from "crypto";

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

export function templateHash(creatorId: number, fields: Record<string, unknown>): string {
  return createHash("sha256").update(`${creatorId}:${canonical(fields)}`).digest("hex").slice(0, 32);
}
