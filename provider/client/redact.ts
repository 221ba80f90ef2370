/**
 * Scrubbing of secrets from every text the client puts into an error or a log line.
 *
 * Known secrets (the client's API key, keys the API returned: created API keys, derived
 * subaccount keys, instance keys, secret values sent) are kept in one process-wide set, so a
 * key learned by one client is also hidden from the messages of another. The set lives on
 * `globalThis` under a registered symbol because the provider code may be loaded more than
 * once in a process (once inlined by the closure serializer, once by `require`). Every value of
 * an environment variable is a secret too: a variable may hold a password.
 */

const REDACTED = "<redacted>";
/**
 * Secrets shorter than this are hidden only where they stand as a whole value (quoted, or
 * after `=` or `: `), never inside other text: a password "on" or "1234" replaced everywhere
 * would blank out ordinary words and numbers (ids, ports) and make every message useless.
 * Longer ones are replaced wherever they occur.
 */
const MIN_SECRET_LENGTH = 8;
/** Bound the set so a long-lived process that rotates keys cannot grow it without end. */
const MAX_KNOWN_SECRETS = 2000;

const SECRETS_SLOT = Symbol.for("pulumi-vastai.client.known-secrets");

function knownSecrets(): Set<string> {
  const holder = globalThis as unknown as Record<symbol, Set<string> | undefined>;
  let set = holder[SECRETS_SLOT];
  if (!set) {
    set = new Set();
    holder[SECRETS_SLOT] = set;
  }
  return set;
}

/** Remember a secret value so that it is replaced by `<redacted>` in every later message. */
export function registerSecret(value: string | null | undefined): void {
  if (typeof value !== "string" || value === "") return;
  const set = knownSecrets();
  if (set.has(value)) return;
  if (set.size >= MAX_KNOWN_SECRETS) {
    const oldest = set.values().next().value;
    if (oldest !== undefined) set.delete(oldest);
  }
  set.add(value);
}

/** Every value of an object of secrets (environment variables: any of them may be a password). */
export function registerSecrets(values: Record<string, string | null | undefined> | null | undefined): void {
  for (const value of Object.values(values ?? {})) registerSecret(value);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A short secret as a whole value: in quotes (JSON), or after `=` (flags, queries) up to a delimiter. */
function wholeValue(secret: string): RegExp {
  const s = escapeRegExp(secret);
  return new RegExp(`(["'])${s}\\1|(=)${s}(?=$|[\\s&,;"'})\\]])`, "g");
}

/** Patterns that look like credentials whether or not the value is known. */
const PATTERNS: ReadonlyArray<[RegExp, string]> = [
  [/\b(bearer)\s+[^\s"',;]+/gi, `$1 ${REDACTED}`],
  [/("?(?:api_key|apikey|derived_key|instance_api_key|docker_login_pass|authorization)"?\s*[:=]\s*)"[^"]*"/gi, `$1"${REDACTED}"`],
  [/\b(api_key|apikey|derived_key|instance_api_key|docker_login_pass)=[^\s&"']+/gi, `$1=${REDACTED}`],
  // Vast API keys are 64 hexadecimal characters.
  [/\b[0-9a-fA-F]{64}\b/g, REDACTED],
];

/** Replace every known secret and every key-looking value in `text`. */
export function scrub(text: string): string {
  let out = text;
  // Longest first, so a secret that contains another is replaced whole.
  const secrets = [...knownSecrets()].sort((a, b) => b.length - a.length);
  for (const secret of secrets) {
    if (!out.includes(secret)) continue;
    if (secret.length >= MIN_SECRET_LENGTH) out = out.split(secret).join(REDACTED);
    else if (out === secret) out = REDACTED;
    else out = out.replace(wholeValue(secret), (_m, quote?: string, lead?: string) => (quote ? `${quote}${REDACTED}${quote}` : `${lead}${REDACTED}`));
  }
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}
