/**
 * Each match of a global expression in a text, in the order `text.matchAll(pattern)` gives them,
 * found by `exec` on the expression itself, until `visit` returns true. `matchAll` makes a new
 * expression object at each call (a copy of `pattern`, its flags read back), which costs a failure's
 * reading more than scanning its short text does. The expression is left with `lastIndex` 0.
 */
export function forEachMatch(
  text: string,
  pattern: RegExp,
  visit: (match: RegExpExecArray) => boolean | undefined,
): void {
  pattern.lastIndex = 0;
  try {
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      if (visit(match) === true) return;
      // An empty match moves on by one character, as `matchAll` does without the `u` flag.
      if (match[0] === '') pattern.lastIndex++;
    }
  } finally {
    pattern.lastIndex = 0;
  }
}
