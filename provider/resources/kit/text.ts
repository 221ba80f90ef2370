/**
 * Rules for the free text a user names things with (names, labels, paths): the service stores
 * it and shows it in listings, consoles and logs, where control characters (ANSI escapes that
 * recolour or rewrite a terminal, CR/LF that forge a line of a log or an HTTP header) and the
 * invisible direction overrides that make text read otherwise than it is do harm. They are
 * refused by check, naming the character and where it is.
 */

/** C0 controls (tab, CR, LF, ESC ...), DEL, C1 controls, line/paragraph separators, bidi overrides and isolates. */
// eslint-disable-next-line no-control-regex -- the rule is about control characters
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

/** Why `text` holds a control character, or undefined when it holds none. */
export function controlCharacterProblem(text: string): string | undefined {
  const m = CONTROL_CHARACTER.exec(text);
  if (!m) return undefined;
  const code = m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
  return `must not contain control characters such as ANSI escapes, CR or LF (found U+${code} at character ${m.index + 1})`;
}

/**
 * Names the service documents no limit for (template and API key names) are held to this
 * many characters, our own bound: it is far above any name a listing shows whole, and keeps a
 * name pasted from a file by mistake (a megabyte) from being sent, stored and listed.
 */
export const NAME_LIMIT = 256;

/**
 * Port mappings an instance or template takes at most: our own bound (the service documents
 * none), far above what a container publishes, so a generated list of 100000 mappings fails
 * check in one line instead of megabytes of flags sent and failures printed.
 */
export const MAX_PORT_MAPPINGS = 256;

/** The failure of a list of ports longer than MAX_PORT_MAPPINGS, or undefined. */
export function portCountProblem(ports: unknown): string | undefined {
  if (!Array.isArray(ports) || ports.length <= MAX_PORT_MAPPINGS) return undefined;
  return `must hold at most ${MAX_PORT_MAPPINGS} port mappings (got ${ports.length})`;
}
