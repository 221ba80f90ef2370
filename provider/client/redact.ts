/**
 * Scrubbing of secrets from every text the client puts into an error or a log line.
 *
 * Known secrets (the client's API key, keys the API returned: created API keys, derived
 * subaccount keys, instance keys, secret values sent) are kept in one process-wide set, so a
 * key learned by one client is also hidden from the messages of another. The set lives on
 * `globalThis` under a registered symbol because the provider code may be loaded more than
 * once in a process (once inlined by the closure serializer, once by `require`).
 */

const REDACTED = "<redacted>";
/** Shorter values would blank out ordinary words; real keys are far longer. */
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
  if (typeof value !== "string" || value.length < MIN_SECRET_LENGTH) return;
  const set = knownSecrets();
  if (set.has(value)) return;
  if (set.size >= MAX_KNOWN_SECRETS) {
    const oldest = set.values().next().value;
    if (oldest !== undefined) set.delete(oldest);
  }
  set.add(value);
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
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}
