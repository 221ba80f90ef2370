/**
 * Minimal POSIX shell quoting and word splitting, enough for docker-flag strings
 * (`-e VAR='a b' -p 8080:8080`): whitespace separates words; single quotes are literal;
 * double quotes allow backslash escapes of `"`, `\`, `$` and backtick; a backslash outside
 * quotes escapes the next character. No expansion of any kind.
 */

const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;
/** Characters that keep a special meaning inside double quotes. */
const DQ_SPECIAL = /["\\$`]/;

/** Quote `value` as one shell word. Plain words stay bare; others get the simplest quoting. */
export function shellQuote(value: string): string {
  if (value !== "" && SAFE.test(value)) return value;
  if (!value.includes("'")) return `'${value}'`;
  // A single quote and nothing special inside double quotes: "it's" reads well and is parsed
  // the same by naive quote-stripping readers of this format.
  if (!DQ_SPECIAL.test(value)) return `"${value}"`;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** Split a command line into words, undoing quoting. Throws on an unterminated quote. */
export function shellSplit(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let i = 0;
  const n = line.length;
  while (i < n) {
    const c = line[i];
    if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
      i++;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unterminated single quote at position ${i}`);
      word += line.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      i++;
      inWord = true;
      for (;;) {
        if (i >= n) throw new Error("unterminated double quote");
        const d = line[i];
        if (d === '"') break;
        if (d === "\\" && i + 1 < n && DQ_SPECIAL.test(line[i + 1])) {
          word += line[i + 1];
          i += 2;
        } else {
          word += d;
          i++;
        }
      }
      i++;
    } else if (c === "\\") {
      if (i + 1 < n && line[i + 1] !== "\n") word += line[i + 1];
      inWord = true;
      i += 2;
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(word);
  return words;
}
