/**
 * Names a user may misspell: the nearest known name by edit distance, so a failure can say
 * "did you mean ...?". Pure; lookups use it as well as resources.
 */

/** Levenshtein distance, case-insensitive: `gpuNmae` is 2 edits from `gpuName`. */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const cur = [i];
    for (let j = 1; j <= t.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (s[i - 1] === t[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[t.length];
}

/** The known name nearest to `name` (the first of equals, in the order given). */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = editDistance(name, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** "an" before a vowel sound: an Instance, an SshKey (ess), a SubaccountKeyRotation. */
function article(word: string): string {
  return /^([aeiou]|s[^aeiouy])/i.test(word) ? "an" : "a";
}

/** "X is not a <Type> property; did you mean Y?", the one wording for an unknown name. */
export function unknownNameMessage(name: string, type: string, known: readonly string[]): string {
  const near = nearestName(name, known);
  return `${name} is not ${article(type)} ${type} property; ${near ? `did you mean ${near}?` : "it takes no properties"}`;
}
