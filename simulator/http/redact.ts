/**
 * What the request log must not keep. `GET /_sim/requests` is readable by anything that can
 * reach the loopback port, other users of the machine included, so every place a secret can
 * enter a request is blanked here: the credential headers, `api_key` in the query, and the
 * body fields that carry keys, passwords, account variable values and private keys, the values
 * of every `env` (an object's values, or the values of the `-e K=V` flags of a template's flag
 * string; the names stay readable) and the scripts and command lines (`onstart`, `args`,
 * `args_str`, `launch_args`), which often carry a token. Responses (created keys, derived
 * subaccount keys) are never logged. `GET /_sim/state` masks env values the same way.
 */
import { tokenize } from "../domain/env-flags";
import type { StateView } from "../state-view-types";

export const REDACTED = "[redacted]";

/** Body fields that hold a secret wherever they appear. */
const SECRET_FIELDS = new Set(["api_key", "docker_login_pass", "image_login", "derived_key", "password", "private_key"]);

/** Scripts and command lines: a token often rides in them; the whole value is blanked. */
const FREE_TEXT_FIELDS = new Set(["onstart", "args", "args_str", "launch_args"]);
/** Fields holding environment variables: values blanked, names kept. */
const ENV_FIELDS = new Set(["env", "extra_env"]);
/** The variable the provider finds its instances by: no secret, and tools read it. */
const MARKER_ENV = "PULUMI_VASTAI_MARKER";

/** Headers dropped entirely (Authorization) or blanked (the other credential carriers). */
const DROPPED_HEADERS = new Set(["authorization"]);
const SECRET_HEADERS = new Set(["proxy-authorization", "cookie", "x-api-key"]);

/** Private key material is a secret in any field, whatever the client meant to send. */
const PRIVATE_KEY = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g;

/** Routes whose body carries secrets under ordinary names. */
function routeSecrets(path: string): { value?: boolean } {
  const p = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
  // Account environment variables: `value` is the variable's value.
  if (p === "/api/v0/secrets") return { value: true };
  return {};
}

function blank(value: unknown): unknown {
  // An empty value is no secret, and keeping it shows that none was sent.
  return value === "" || value === null || value === undefined ? value : REDACTED;
}

/**
 * A Docker flag string (`-e TOKEN=abc -p 8080:8080`) with the value of every variable blanked:
 * `-e TOKEN=[redacted] -p 8080:8080`. Any other `NAME=value` token is blanked after its `=`
 * too (`--env=K=V` keeps `--env=K=`), so no spelling of a flag shows a value. Text that does
 * not split like a shell line is blanked whole.
 */
export function maskEnvFlags(text: string): string {
  let tokens: string[];
  try {
    tokens = tokenize(text);
  } catch {
    return blank(text) as string;
  }
  return tokens
    .map((t) => {
      const eq = t.startsWith("--env=") ? t.indexOf("=", "--env=".length) : t.indexOf("=");
      if (eq === -1) return t;
      return `${t.slice(0, eq + 1)}${t.slice(eq + 1) === "" ? "" : REDACTED}`;
    })
    .join(" ");
}

/** An env in any of its shapes with its values blanked and its names kept. */
export function maskEnv(env: unknown): unknown {
  if (typeof env === "string") return maskEnvFlags(env);
  if (Array.isArray(env)) {
    // [[name, value], ...] (an instance's extra_env)
    return env.map((pair) => (Array.isArray(pair) && pair.length === 2 ? [pair[0], pair[0] === MARKER_ENV ? pair[1] : blank(pair[1])] : blank(pair)));
  }
  if (env && typeof env === "object") {
    return Object.fromEntries(Object.entries(env as Record<string, unknown>).map(([k, v]) => [k, k === MARKER_ENV ? v : blank(v)]));
  }
  return blank(env);
}

function scrub(value: unknown): unknown {
  if (typeof value === "string") return value.replace(PRIVATE_KEY, REDACTED);
  if (Array.isArray(value)) return value.map(scrub);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const key = k.toLowerCase();
      if (SECRET_FIELDS.has(key) || FREE_TEXT_FIELDS.has(key)) out[k] = blank(v);
      else if (ENV_FIELDS.has(key)) out[k] = maskEnv(v);
      else out[k] = scrub(v);
    }
    return out;
  }
  return value;
}

/** A copy of a parsed body (or a raw text body) with its secrets blanked. */
export function redactBody(_method: string, path: string, body: unknown): unknown {
  const out = scrub(body);
  if (!out || typeof out !== "object" || Array.isArray(out)) return out;
  const rec = out as Record<string, unknown>;
  if (routeSecrets(path).value && "value" in rec) rec.value = blank(rec.value);
  return out;
}

/** The state as `GET /_sim/state` serves it to anyone on the machine: env values, scripts and command lines blanked. */
export function redactState(view: StateView): StateView {
  return { ...view, instances: view.instances.map((i) => scrub(i) as Record<string, unknown>), templates: view.templates.map((t) => scrub(t) as Record<string, unknown>) };
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
