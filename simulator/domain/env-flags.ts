/**
 * Template env is a Docker flag string (`-e VAR=value -p 8080:8080`); the instance-creation
 * body sends an object (`{"VAR": "value", "-p 8080:8080": "1"}`). Both become ordered
 * [key, value] pairs; on a conflicting key the request wins (spec: Precedence).
 */

export class EnvFlagError extends Error {}

/** Splits like a POSIX shell: single quotes literal, double quotes with \" escapes, \ outside quotes. */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let cur = "";
  let inToken = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'" || c === '"') {
      const end = closingQuote(text, i);
      const inner = text.slice(i + 1, end);
      cur += c === '"' ? inner.replace(/\\(["\\$`])/g, "$1") : inner;
      inToken = true;
      i = end;
    } else if (c === "\\" && i + 1 < text.length) {
      cur += text[++i];
      inToken = true;
    } else if (/\s/.test(c)) {
      if (inToken) tokens.push(cur);
      cur = "";
      inToken = false;
    } else {
      cur += c;
      inToken = true;
    }
  }
  if (inToken) tokens.push(cur);
  return tokens;
}

function closingQuote(text: string, start: number): number {
  const q = text[start];
  for (let i = start + 1; i < text.length; i++) {
    if (q === '"' && text[i] === "\\") i++;
    else if (text[i] === q) return i;
  }
  throw new EnvFlagError(`unterminated ${q === '"' ? "double" : "single"} quote at character ${start + 1}`);
}

/** `-e K=V` / `--env K=V` give [K, V]; `-p A:B` / `--publish A:B` give ["-p A:B", "1"]; other flags are ignored. */
export function parseEnvFlags(text: string): [string, string][] {
  const tokens = tokenize(text);
  const out: [string, string][] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t === "-e" || t === "--env") {
      const arg = tokens[++i];
      if (arg === undefined) throw new EnvFlagError(`${t} needs a VAR=value argument`);
      const eq = arg.indexOf("=");
      out.push(eq === -1 ? [arg, ""] : [arg.slice(0, eq), arg.slice(eq + 1)]);
    } else if (t === "-p" || t === "--publish") {
      const arg = tokens[++i];
      if (arg === undefined || !/^\d+:\d+(\/(tcp|udp))?$/.test(arg)) {
        throw new EnvFlagError(`${t} needs a <port>:<port> argument (got ${arg === undefined ? "nothing" : `"${arg}"`})`);
      }
      out.push([`-p ${arg}`, "1"]);
    }
  }
  return out;
}

/** Template entries stay, request entries are added, and the request wins on a conflict. */
export function mergeEnv(template: [string, string][], request: Record<string, string>): [string, string][] {
  const merged = new Map(template);
  for (const [k, v] of Object.entries(request)) merged.set(k, v);
  return [...merged.entries()];
}
