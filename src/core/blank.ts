/**
 * Whether a call's answer is blank: nothing, or only white space. A change that answers nothing
 * (a redirection, a copy, an append) shows nothing of what it did.
 */

/** Blank: no character other than white space. Stops at the first one, so long answers cost little. */
export function isBlank(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    // Space, tab, line feed, vertical tab, form feed, carriage return.
    if (code !== 32 && (code < 9 || code > 13)) return false;
  }
  return true;
}
