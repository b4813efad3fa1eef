/** Whether a character is one `\s` matches in a regular expression (and `trim` removes). */
export function isWhiteSpace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** Whether a character is an ASCII letter, of either case: `[A-Za-z]`. */
export function isAsciiLetter(code: number): boolean {
  const lower = code | 32;
  return lower >= 97 && lower <= 122;
}

/** Whether a character is an ASCII digit: `[0-9]`. */
export function isAsciiDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** Whether a character is one `\w` matches in a regular expression: `[A-Za-z0-9_]`. */
export function isWordCharacter(code: number): boolean {
  return (
    (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95
  );
}

/** Whether `word` stands in `text` as a word of its own: no word character (`\w`) just before or after it. */
export function hasWholeWord(text: string, word: string): boolean {
  if (word === '') return false;
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    const before = at === 0 ? 32 : text.charCodeAt(at - 1);
    const after = at + word.length >= text.length ? 32 : text.charCodeAt(at + word.length);
    if (!isWordCharacter(before) && !isWordCharacter(after)) return true;
  }
  return false;
}
