/**
 * Conversions of environment variables and port mappings between the three forms the API
 * uses: the template's docker-flag string (`-e VAR=value -p 8080:8080`), the instance-creation
 * object (`{"VAR": "value", "-p 8080:8080": "1"}`) and an instance's `extra_env` pairs.
 */
import { shellQuote, shellSplit } from "./shell";

export interface EnvSpec {
  /** Variable name to value. */
  env: Record<string, string>;
  /** Port mappings such as `8080:8080` or `5000:5000/udp`. */
  ports: string[];
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PORT = /^\d{1,5}(:\d{1,5})?(\/(tcp|udp))?$/;

function checkName(name: string): void {
  if (!NAME.test(name)) {
    throw new Error(`environment variable name "${name}" is invalid: use letters, digits and _, not starting with a digit`);
  }
}

function checkPort(port: string): void {
  if (!PORT.test(port)) throw new Error(`port mapping "${port}" is invalid: use HOST:CONTAINER, for example 8080:8080 or 5000:5000/udp`);
}

/** `{env, ports}` to the docker-flag string; values are shell-quoted where needed. */
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
