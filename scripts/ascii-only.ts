// Makes a bundle's text ASCII, for the bundles a process compiles on every start (the command line's,
// the hook's, the helper's). A text with a single character beyond ASCII is read by Node into a string
// of two bytes a character, and V8 then reads and compiles a source twice the size: for the command
// line's bundle (2.4 MB), reading it took 16–21 ms of CPU from its code cache where the same bundle in
// ASCII took 10–12, and 98 ms where it took 62 with no cache. esbuild's `charset: 'ascii'` (its
// default) escapes every string, template and name, but leaves the characters of regular expression
// literals as they are written (`…`, `’`, `µs` in the failure patterns).

/**
 * `text` with every character beyond ASCII written as `\uXXXX` (a character beyond the first 65,536 as
 * its two halves): in a regular expression, a string or a template, the same character, with or
 * without the `u` flag. One already escaped by a backslash (`\’`, which means `’`) loses that
 * backslash. A text esbuild wrote holds such characters only in regular expression literals and in
 * the raw text of tagged templates, which this would change: the sources and the bundled packages
 * have no tagged template with one (`test/scripts/ascii-only.test.ts` holds it for the bundles).
 */
export function asciiOnly(text: string): string {
  let out = '';
  let copied = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) continue;
    let start = index;
    let backslashes = 0;
    while (start - backslashes - 1 >= copied && text.charCodeAt(start - backslashes - 1) === 0x5c) backslashes++;
    // An odd run of backslashes escapes the character: the last of them goes with it.
    if (backslashes % 2 === 1) start -= 1;
    out += `${text.slice(copied, start)}\\u${code.toString(16).padStart(4, '0')}`;
    copied = index + 1;
  }
  return copied === 0 ? text : out + text.slice(copied);
}
