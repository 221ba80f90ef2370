/**
 * What the request log must not keep. `GET /_sim/requests` is readable by anything that can
 * reach the loopback port, other users of the machine included, so every place a secret can
 * enter a request is blanked here: the credential headers, `api_key` in the query, and the
 * body fields that carry keys, passwords, account variable values, instance env values and
 * private keys. Responses (created keys, derived subaccount keys) are never logged.
 */

export const REDACTED = "[redacted]";

/** Body fields that hold a secret wherever they appear. */
const SECRET_FIELDS = new Set(["api_key", "docker_login_pass", "image_login", "derived_key", "password", "private_key"]);

/** Headers dropped entirely (Authorization) or blanked (the other credential carriers). */
const DROPPED_HEADERS = new Set(["authorization"]);
const SECRET_HEADERS = new Set(["proxy-authorization", "cookie", "x-api-key"]);

/** Private key material is a secret in any field, whatever the client meant to send. */
const PRIVATE_KEY = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g;

/** Routes whose body carries secrets under ordinary names. */
function routeSecrets(method: string, path: string): { value?: boolean; envValues?: boolean } {
  const p = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
  // Account environment variables: `value` is the variable's value.
  if (p === "/api/v0/secrets") return { value: true };
  // Instance creation: env values are often tokens (HF_TOKEN and the like).
  if ((method === "PUT" || method === "POST") && /^\/api\/v0\/asks\/[^/]+$/.test(p)) return { envValues: true };
  return {};
}

function blank(value: unknown): unknown {
  // An empty value is no secret, and keeping it shows that none was sent.
  return value === "" || value === null || value === undefined ? value : REDACTED;
}

function scrub(value: unknown): unknown {
  if (typeof value === "string") return value.replace(PRIVATE_KEY, REDACTED);
  if (Array.isArray(value)) return value.map(scrub);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = SECRET_FIELDS.has(k.toLowerCase()) ? blank(v) : scrub(v);
    return out;
  }
  return value;
}

/** A copy of a parsed body (or a raw text body) with its secrets blanked. */
export function redactBody(method: string, path: string, body: unknown): unknown {
  const out = scrub(body);
  if (!out || typeof out !== "object" || Array.isArray(out)) return out;
  const rec = out as Record<string, unknown>;
  const route = routeSecrets(method, path);
  if (route.value && "value" in rec) rec.value = blank(rec.value);
  if (route.envValues && rec.env && typeof rec.env === "object" && !Array.isArray(rec.env)) {
    rec.env = Object.fromEntries(Object.entries(rec.env as Record<string, unknown>).map(([k, v]) => [k, blank(v)]));
  } else if (route.envValues && typeof rec.env === "string") {
    rec.env = blank(rec.env);
  }
  return out;
}

export function redactQuery(query: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query)) out[k] = SECRET_FIELDS.has(k.toLowerCase()) ? blank(v) : v;
  return out;
}

export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string | string[] | undefined> {
  const out: Record<string, string | string[] | undefined> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (DROPPED_HEADERS.has(k)) continue;
    out[k] = SECRET_HEADERS.has(k) ? REDACTED : v;
  }
  return out;
}
