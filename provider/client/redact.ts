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
 * Known secrets of at least this many characters are replaced wherever they occur.
 *
 * Shorter ones (a 6-character password echoed by the service) are replaced where they stand
 * as a whole token: not touching a letter, digit, `_` or `-` on either side (so "abc12" is
 * hidden in `refused: abc12.` but not inside "xabc12y"). Two kinds of short value are hidden
 * only as a whole value (quoted, after `=`, or the whole text), since replacing every token
 * would blank out the ordinary words and numbers messages are made of: values of fewer than
 * MIN_TOKEN_SECRET_LENGTH characters ("on", "1"), and values that are only digits (a port
 * "8080" or a count in an env value would otherwise hide every id and port), and the common
 * setting words of COMMON_VALUES ("true", "debug": env values are registered as secrets, and
 * "must be true or false" must stay readable). Such values are no secret worth the name: a
 * password of 3 characters, 4 digits or "true" is guessed anyway.
 */
const MIN_SECRET_LENGTH = 8;
/** Short secrets of at least this many characters (and not only digits) are hidden as tokens. */
const MIN_TOKEN_SECRET_LENGTH = 4;
/** Setting words an env value often is, hidden only as whole values (compared case-insensitively). */
const COMMON_VALUES = new Set(["true", "false", "yes", "none", "null", "auto", "info", "debug", "warn", "error", "trace", "test", "prod", "production", "dev", "development", "local", "train", "eval", "cuda", "disabled", "enabled"]);
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

/** A short secret as a whole token: no letter, digit, `_` or `-` right before or after it. */
function wholeToken(secret: string): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}_-])${escapeRegExp(secret)}(?![\\p{L}\\p{N}_-])`, "gu");
}

/** Whether a short secret is hidden wherever it stands as a token (see MIN_SECRET_LENGTH). */
function tokenSecret(secret: string): boolean {
  return secret.length >= MIN_TOKEN_SECRET_LENGTH && !/^\d+$/.test(secret) && !COMMON_VALUES.has(secret.toLowerCase());
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
    else if (tokenSecret(secret)) out = out.replace(wholeToken(secret), REDACTED);
    else out = out.replace(wholeValue(secret), (_m, quote?: string, lead?: string) => (quote ? `${quote}${REDACTED}${quote}` : `${lead}${REDACTED}`));
  }
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}
