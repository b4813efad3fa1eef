/**
 * The lines a package manager prints before it runs a package's script: npm's and pnpm's banner (the
 * package, its version and the script's name, then the script's command), yarn 1's version and
 * command. They echo what runs, and whether they are printed depends on how it was asked for
 * (`npm run build --silent` prints none, `npm run build -- --pretty false` another command), not on
 * what failed: two runs of one build that failed with one error answered alike, banner or none.
 *
 *     > web@0.4.0 build                       <- left out, with the command line after it
 *     > tsc -p tsconfig.json && vite build
 *
 *     src/api/client.ts:42:7 - error TS2322: Type 'string | undefined' is not assignable to type 'string'.
 */

/** npm's and pnpm's first line: `> name@version script`, the package's folder after it in npm 6 and pnpm. */
const NPM_BANNER =
  /^> (?:@[\w.-]{1,100}\/)?[\w.-]{1,214}@\d[\w.+-]{0,60} [\w:.-]{1,100}(?: \S[^\n]{0,500})?$/;
/** The script's command under it: one line or more, each after `> `. */
const BANNER_COMMAND = /^> \S/;
/** yarn 1's first line, and the script's command under it. */
const YARN_BANNER = /^yarn run v\d+\.\d+\.\d+$/;
const YARN_COMMAND = /^\$ \S/;

/** Only the start of a long text is looked at: a banner comes before the output it introduces. */
const LINES_LOOKED_AT = 200;

/**
 * The text without the banners of the scripts it ran; the text itself when it has none, or when
 * they are all it says.
 */
export function withoutScriptBanners(text: string): string {
  if (!text.startsWith('> ') && !text.includes('\n> ') && !text.includes('yarn run v')) return text;
  const headEnd = endOfLine(text, LINES_LOOKED_AT);
  const lines = text.slice(0, headEnd).split('\n');
  const kept: string[] = [];
  let removed = false;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const trimmed = line.trimEnd();
    const command = NPM_BANNER.test(trimmed)
      ? BANNER_COMMAND
      : YARN_BANNER.test(trimmed)
        ? YARN_COMMAND
        : undefined;
    if (command === undefined) {
      kept.push(line);
      continue;
    }
    removed = true;
    while (index + 1 < lines.length && command.test(lines[index + 1] as string)) index++;
  }
  if (!removed) return text;
  // The blank lines the banners stood among go with them.
  const out = `${kept.join('\n')}${text.slice(headEnd)}`.replace(/^\s*\n/, '');
  return out.trim() === '' ? text : out;
}

/** Where the newline that ends the `count`th line of `text` is, or the text's end. */
function endOfLine(text: string, count: number): number {
  let at = -1;
  for (let line = 0; line < count; line++) {
    at = text.indexOf('\n', at + 1);
    if (at === -1) return text.length;
  }
  return at;
}
