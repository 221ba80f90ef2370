/**
 * Values of one request that its answer may echo back: a start script (`onstart`), container
 * arguments (`args`, `args_str`, `launch_args`), a webhook address. They are no process-wide
 * secrets (a script's lines would hide the same words in every other message, and a long one
 * would crowd the API key out of redact.ts's bounded set), but an error text of this request's
 * answer shows none of them: the service says `invalid onstart: <the script>`, or repeats the
 * body it refused as JSON or as Python's repr.
 *
 * Each value is hidden whole, line by line (an echo of part of a script) and token by token
 * (a key inside a command line), in the forms an answer carries text in: as sent, with its
 * whitespace run together (error-body.ts clips so), JSON-escaped (quotes, backslashes,
 * newlines as `\n`, non-ASCII as `\uXXXX` or not), Python's repr and HTML-escaped. A form cut
 * short at the end of the text or before `...` (a clipped echo) is hidden too.
 *
 * One pass over the text: candidate forms are indexed by their first KEY_LENGTH characters,
 * so a big answer costs a map look-up per character, whatever the number of forms.
 */

const REDACTED = "<redacted>";
/** The shortest part of a value hidden, and the length of the index key. */
const KEY_LENGTH = 8;
/** A word of a value counts as a token worth hiding from this length on when it mixes letters and digits. */
const TOKEN_LENGTH = 8;
/** Any word of a value this long is hidden (a key without digits). */
const LONG_WORD_LENGTH = 20;
/** Forms of one request at most (a script of thousands of lines has its later pieces left out), bounding the mask's memory. */
const MAX_FORMS = 20_000;

/** Body fields whose values a refusal may echo. */
export const ECHOED_FIELDS: readonly string[] = ["onstart", "args", "args_str", "launch_args", "webhook_url"];
/** Fields whose values are URLs: shown as `scheme://host/…` rather than hidden whole. */
const URL_FIELDS = new Set(["webhook_url"]);

/** A URL as a message may show it: scheme and host, nothing of the path, query or userinfo that may hold a token. */
export function shortUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return REDACTED;
  }
  if (!parsed.host) return `${parsed.protocol}${REDACTED}`;
  const rest = (parsed.pathname !== "" && parsed.pathname !== "/") || parsed.search !== "" || parsed.hash !== "" || url.includes("@");
  return `${parsed.protocol}//${parsed.host}${rest ? "/…" : ""}`;
}

/** Every URL in `text` in its short form (see shortUrl). */
export function hideUrls(text: string): string {
  return text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>\\]+/gi, (url) => shortUrl(url));
}

interface Form {
  text: string;
  replacement: string;
}

const collapse = (s: string) => s.replace(/\s+/g, " ").trim();
const jsonInner = (s: string) => JSON.stringify(s).slice(1, -1);
const unicodeEscaped = (s: string, upper: boolean) =>
  s.replace(/[\u0080-\uffff]/g, (c) => {
    const hex = c.charCodeAt(0).toString(16).padStart(4, "0");
    return `\\u${upper ? hex.toUpperCase() : hex}`;
  });
/** Control characters (below a space, and DEL): anything but printable ASCII and the rest of Unicode. */
const CONTROL = /[^ -~\u0080-\uffff]/g;
const pythonRepr = (s: string) =>
  s
    .replace(/\\/g, "\\\\")
    .replace(/\n/g, "\\n")
    .replace(/\r/g, "\\r")
    .replace(/\t/g, "\\t")
    // Other control characters as \xNN.
    .replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
const htmlEscaped = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");

/** The texts `value` may stand as in an answer. */
function formsOf(value: string): string[] {
  const json = jsonInner(value);
  const repr = pythonRepr(value);
  const out = [
    value,
    json,
    json.replace(/\//g, "\\/"),
    unicodeEscaped(json, false),
    unicodeEscaped(json, true),
    repr,
    repr.replace(/'/g, "\\'"),
    htmlEscaped(value),
    htmlEscaped(value).replace(/&#x27;/g, "&#39;"),
  ];
  return [...out, ...out.map(collapse)];
}

/** The parts of a value worth hiding: itself, each line, each token-like word. */
function partsOf(value: string): string[] {
  const parts = [value];
  const lines = value.split(/\r?\n/).map((l) => l.trim());
  if (lines.length > 1) parts.push(...lines);
  // Words, and the pieces of a word a URL or a flag is made of (`https://user:<key>@host`, `--token=<key>`).
  const words = value.split(/[\s'"=,;]+/);
  for (const word of [...words, ...words.flatMap((w) => w.split(/[:@/?&#]+/))]) {
    const tokenLike = word.length >= TOKEN_LENGTH && /\p{L}/u.test(word) && /\p{N}/u.test(word);
    if (tokenLike || word.length >= LONG_WORD_LENGTH) parts.push(word);
  }
  return [...new Set(parts)].filter((p) => p.trim().length >= KEY_LENGTH);
}

/** The values of `body`'s echoed fields, with what each is shown as. */
function echoedIn(body: unknown): { value: string; replacement: string }[] {
  if (!body || typeof body !== "object" || Array.isArray(body)) return [];
  const out: { value: string; replacement: string }[] = [];
  for (const field of ECHOED_FIELDS) {
    const v = (body as Record<string, unknown>)[field];
    const values = Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : typeof v === "string" ? [v] : [];
    // Container arguments may be sent as a list: together they are one command line.
    if (Array.isArray(v) && values.length > 1) values.push(values.join(" "));
    for (const value of values) {
      if (!URL_FIELDS.has(field)) {
        out.push({ value, replacement: REDACTED });
        continue;
      }
      out.push({ value, replacement: shortUrl(value) });
      // The path and query alone (where a webhook's token stands), should only they be echoed.
      const tail = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([/?#].*)?$/i.exec(value)?.[1];
      if (tail && tail.length >= KEY_LENGTH) out.push({ value: tail, replacement: "/…" });
    }
  }
  return out;
}

/** Hides in a text every form of the values one request sent; see the file comment. */
export type EchoMask = (text: string) => string;

/** Forms of one first KEY_LENGTH characters: the short ones, and the longer ones by their first LONG_KEY_LENGTH. */
interface Bucket {
  short: Form[];
  long: Map<string, Form[]>;
  /** Every long form, for an echo cut before LONG_KEY_LENGTH characters. */
  allLong: Form[];
}
/** The second key: forms sharing their first this many characters are rare (identical lines are one form). */
const LONG_KEY_LENGTH = 24;
/** Places an echo may be cut at (`...`) that are looked at, besides the end: the clip makes one. */
const MAX_CUTS = 16;

function addForm(index: Map<string, Bucket>, form: Form): void {
  const key = form.text.slice(0, KEY_LENGTH);
  let bucket = index.get(key);
  if (!bucket) {
    bucket = { short: [], long: new Map(), allLong: [] };
    index.set(key, bucket);
  }
  if (form.text.length < LONG_KEY_LENGTH) {
    bucket.short.push(form);
    return;
  }
  const longKey = form.text.slice(0, LONG_KEY_LENGTH);
  const list = bucket.long.get(longKey) ?? [];
  list.push(form);
  bucket.long.set(longKey, list);
  bucket.allLong.push(form);
}

/** The mask of the values `body` (a request's JSON body) and `extra` carry; undefined when there are none. */
export function echoMask(body: unknown, extra: readonly (string | null | undefined)[] = []): EchoMask | undefined {
  const values = [...echoedIn(body), ...extra.filter((x): x is string => typeof x === "string").map((value) => ({ value, replacement: REDACTED }))];
  const index = new Map<string, Bucket>();
  const seen = new Set<string>();
  for (const { value, replacement } of values) {
    for (const part of partsOf(value)) {
      // A piece of an address stands for itself: only the whole one is shown as scheme://host/….
      const shownAs = part === value ? replacement : REDACTED;
      for (const text of formsOf(part)) {
        if (text.length < KEY_LENGTH || seen.has(text) || seen.size >= MAX_FORMS) continue;
        seen.add(text);
        addForm(index, { text, replacement: shownAs });
      }
    }
  }
  if (seen.size === 0) return undefined;
  // Longest first: a whole script wins over its first line.
  const longestFirst = (a: Form, b: Form) => b.text.length - a.text.length;
  for (const bucket of index.values()) {
    bucket.short.sort(longestFirst);
    for (const list of bucket.long.values()) list.sort(longestFirst);
  }
  return (text) => maskText(text, index);
}

/** Where the text may be cut (a clipped echo): its end, and the first MAX_CUTS places of `...` or `…`. */
function cutsOf(text: string): number[] {
  const cuts: number[] = [];
  for (const m of text.matchAll(/\.\.\.|…/g)) {
    if (cuts.length >= MAX_CUTS) break;
    cuts.push(m.index);
  }
  cuts.push(text.length);
  return cuts;
}

function commonPrefix(text: string, at: number, form: string): number {
  let n = 0;
  while (n < form.length && at + n < text.length && text.charCodeAt(at + n) === form.charCodeAt(n)) n++;
  return n;
}

interface Hit {
  length: number;
  replacement: string;
}

/** The longest form standing whole at `at`, else the longest one cut short at a cut. */
function hitAt(text: string, at: number, bucket: Bucket, cuts: number[]): Hit | undefined {
  const long = text.length - at >= LONG_KEY_LENGTH ? bucket.long.get(text.slice(at, at + LONG_KEY_LENGTH)) : undefined;
  const whole = long?.find((f) => text.startsWith(f.text, at)) ?? bucket.short.find((f) => text.startsWith(f.text, at));
  if (whole) return { length: whole.text.length, replacement: whole.replacement };
  // A cut within the first LONG_KEY_LENGTH characters may end any form of the bucket; a later one only those of `long`.
  const nearCut = cuts.some((c) => c >= at + KEY_LENGTH && c < at + LONG_KEY_LENGTH);
  const candidates = [...(long ?? []), ...(nearCut ? [...bucket.short, ...bucket.allLong] : [])];
  let hit: Hit | undefined;
  for (const f of candidates) {
    const n = commonPrefix(text, at, f.text);
    if (n >= KEY_LENGTH && cuts.includes(at + n) && (!hit || n > hit.length)) hit = { length: n, replacement: f.replacement };
  }
  return hit;
}

function maskText(text: string, index: Map<string, Bucket>): string {
  const cuts = cutsOf(text);
  let out = "";
  let last = 0;
  let i = 0;
  while (i + KEY_LENGTH <= text.length) {
    const bucket = index.get(text.slice(i, i + KEY_LENGTH));
    const hit = bucket && hitAt(text, i, bucket, cuts);
    if (!hit) {
      i++;
      continue;
    }
    out += text.slice(last, i) + hit.replacement;
    i += hit.length;
    last = i;
  }
  return out + text.slice(last);
}
