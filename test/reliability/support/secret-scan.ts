/** Looking for secret values in everything a user (or an onlooker of the wire) can read. */
import type { LoggedRequest } from "./rig";

/** A named secret value. */
export interface Secret {
  name: string;
  value: string;
}

/** Names of the secrets whose value occurs in `text`. */
export function found(text: string, secrets: readonly Secret[]): string[] {
  return secrets.filter((s) => s.value && text.includes(s.value)).map((s) => s.name);
}

/** Every string in a JSON-like value with its dotted path. */
export function leaves(value: unknown, path = ""): [string, string][] {
  if (typeof value === "string") return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, path ? `${path}.${i}` : String(i)));
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => leaves(v, path ? `${path}.${k}` : k));
  return [];
}

/** Where a secret may travel: in one body field of one call. */
export interface Allowance {
  secret: string;
  method: string;
  path: RegExp;
  field: string;
}

/** Secrets in a request outside the body field meant for them (the Authorization header is not logged). */
export function requestLeaks(log: readonly LoggedRequest[], secrets: readonly Secret[], allowed: readonly Allowance[]): string[] {
  const leaks: string[] = [];
  for (const r of log) {
    const where = `${r.method} ${r.path}`;
    for (const name of found(JSON.stringify([r.path, r.query, r.headers]), secrets)) leaks.push(`${name} in the URL or headers of ${where}`);
    for (const [field, text] of leaves(r.body)) {
      for (const name of found(text, secrets)) {
        const ok = allowed.some((a) => a.secret === name && a.method === r.method && a.path.test(r.path) && a.field === field);
        if (!ok) leaks.push(`${name} in body field ${field} of ${where}`);
      }
    }
  }
  return leaks;
}
