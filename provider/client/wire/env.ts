/**
 * Conversions of environment variables and port mappings between the three forms the API
 * uses: the template's docker-flag string (`-e VAR=value -p 8080:8080`), the instance-creation
 * object (`{"VAR": "value", "-p 8080:8080": "1"}`) and an instance's `extra_env` pairs.
 */
import { shellQuote, shellSplit } from "./shell";

/** Environment variables and port mappings of an instance or template, before encoding to the wire's flag string. */
export interface EnvSpec {
  /** Variable name to value. */
  env: Record<string, string>;
  /** Port mappings such as `8080:8080` or `5000:5000/udp`. */
  ports: string[];
}

/** The one rule for environment variable names, wherever a name is accepted. */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** The rule in words, to go after "must be" or "must use". */
export const ENV_NAME_RULE = "letters, digits and _, not starting with a digit";

const PORT = /^(\d{1,5})(?::(\d{1,5}))?(\/(tcp|udp))?$/;

/**
 * The one rule for port mappings: `HOST:CONTAINER` (each 1-65535), optionally `/tcp` or
 * `/udp`; with `single`, a lone port `N` too (the instance-creation form accepts it).
 */
export function isPortMapping(port: string, options: { single?: boolean } = {}): boolean {
  const m = PORT.exec(port);
  if (!m || (m[2] === undefined && !options.single)) return false;
  return [m[1], m[2]].every((p) => p === undefined || (Number(p) >= 1 && Number(p) <= 65535));
}

function checkName(name: string): void {
  if (!ENV_NAME.test(name)) throw new Error(`environment variable name "${name}" is invalid: use ${ENV_NAME_RULE}`);
}

function checkPort(port: string): void {
  if (!isPortMapping(port, { single: true })) {
    throw new Error(`port mapping "${port}" is invalid: use HOST:CONTAINER, for example 8080:8080 or 5000:5000/udp`);
  }
}

/** `{env, ports}` to the docker-flag string, in the order given; values are shell-quoted where needed. */
export function formatEnvFlags(spec: Partial<EnvSpec>): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(spec.env ?? {})) {
    checkName(name);
    // Only the value is quoted (VAR='a b', not 'VAR=a b'): readers that split on the first
    // "=" and strip quotes from the value read it the same way.
    const quoted = shellQuote(value);
    parts.push(`-e ${name}=${quoted === "''" ? "" : quoted}`);
  }
  for (const port of spec.ports ?? []) {
    checkPort(port);
    parts.push(`-p ${port}`);
  }
  return parts.join(" ");
}

/**
 * Parse a docker-flag string. Accepts `-e NAME=value`, `--env NAME=value`, `-p PORTS` and
 * `--publish PORTS`; any other word is an error naming it (with `strict: false` it is skipped).
 */
export function parseEnvFlags(flags: string, options: { strict?: boolean } = {}): EnvSpec {
  const strict = options.strict ?? true;
  const words = shellSplit(flags);
  const out: EnvSpec = { env: {}, ports: [] };
  for (let i = 0; i < words.length; i++) {
    const flag = words[i];
    const arg = words[i + 1];
    if (flag === "-e" || flag === "--env" || flag === "-p" || flag === "--publish") {
      if (arg === undefined) throw new Error(`env flags: ${flag} at the end has no value`);
      i++;
      if (flag === "-p" || flag === "--publish") {
        checkPort(arg);
        if (!out.ports.includes(arg)) out.ports.push(arg);
        continue;
      }
      const eq = arg.indexOf("=");
      if (eq <= 0) throw new Error(`env flags: "${flag} ${arg}" needs the form NAME=value`);
      const name = arg.slice(0, eq);
      checkName(name);
      out.env[name] = arg.slice(eq + 1);
    } else if (strict) {
      throw new Error(`env flags: unexpected "${flag}"; only -e NAME=value and -p HOST:CONTAINER are understood`);
    }
  }
  return out;
}

/**
 * The flag string of a template: names sorted, so the same variables always give the same
 * string (and the same hash_id), whatever order they were written in.
 */
export function templateEnvFlags(spec: Partial<EnvSpec>): string {
  const sorted = Object.entries(spec.env ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return formatEnvFlags({ env: Object.fromEntries(sorted), ports: spec.ports });
}

/** `{env, ports}` to the instance-creation `env` object. */
export function toRequestEnv(spec: Partial<EnvSpec>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(spec.env ?? {})) {
    checkName(name);
    out[name] = value;
  }
  for (const port of spec.ports ?? []) {
    checkPort(port);
    out[`-p ${port}`] = "1";
  }
  return out;
}

/** The instance-creation `env` object, or `extra_env` pairs, back to `{env, ports}`. */
export function fromRequestEnv(env: Record<string, string> | Array<[string, string]>): EnvSpec {
  const entries = Array.isArray(env) ? env : Object.entries(env);
  const out: EnvSpec = { env: {}, ports: [] };
  for (const [key, value] of entries) {
    const port = /^-p\s+(\S+)$/.exec(key);
    if (port) {
      if (!out.ports.includes(port[1])) out.ports.push(port[1]);
    } else {
      out.env[key] = value;
    }
  }
  return out;
}
