/**
 * Lines of a tool's error that only point elsewhere: to a list to print, a log file, output above, a
 * command that explains an error code. A reason quotes a failure in about two hundred characters;
 * these lines say nothing about what failed and would use them up, so the words kept of a failure
 * leave them out. The error lines and the tool's suggestion ("Did you mean this? npm run test") stay.
 *
 *     npm error Missing script: "tset"
 *     npm error To see a list of scripts, run:     <- left out, with the command line after it
 *     npm error   npm run
 *     npm error A complete log of this run can be found in: /home/dev/.npm/_logs/…-debug-0.log  <- left out
 */

/** npm's prefix of every line of an error (npm 10 and later `npm error`, earlier `npm ERR!`). */
const NPM = String.raw`(?:npm (?:error|ERR!)(?:\s+|$))?`;

/** A line that points elsewhere on its own. */
const POINTERS: readonly RegExp[] = [
  // npm, every version since 7: the path on the same line (npm 10) or on the next (npm 7 to 9).
  new RegExp(String.raw`^${NPM}A complete log of this run can be found in:(?:\s+\S+\.log)?\s*$`),
  // npm 6 and earlier, after a failed lifecycle script.
  new RegExp(
    String.raw`^${NPM}This is probably not a problem with npm\. There is likely additional logging output above\.\s*$`,
  ),
  // pip, after a failed build ("╰─> See above for output.") and its closing hint.
  /^[\s╰─>]*See above for output\.\s*$/,
  /^hint: See above for details\.\s*$/,
  // rustc and cargo, after errors that have explanations, and after a panic.
  /^For more information about (?:this|an) error, try `rustc --explain E\d{4}`\.\s*$/,
  /^Some errors have detailed explanations: E\d{4}\b[^\n]*$/,
  /^note: run with `RUST_BACKTRACE=(?:1|full)` environment variable to display a backtrace\.?\s*$/,
  // yarn 1, after a failed `yarn run`.
  /^info Visit https:\/\/yarnpkg\.com\/\S+ for documentation about this command\.\s*$/,
];

/** A line that points elsewhere together with the line after it, when that line is `follows`. */
const INTRODUCTIONS: readonly { readonly line: RegExp; readonly follows: RegExp }[] = [
  {
    line: new RegExp(String.raw`^${NPM}To see a list of scripts, run:\s*$`),
    follows: new RegExp(String.raw`^${NPM}\s*npm run\s*$`),
  },
  {
    line: new RegExp(String.raw`^${NPM}A complete log of this run can be found in:\s*$`),
    follows: new RegExp(String.raw`^${NPM}\s*\S+\.log\s*$`),
  },
];

/**
 * Words one of the lines above has: a text without any of them is kept as it is, unsplit. Each is
 * looked for with `includes`, which finds a literal text several times faster than an expression
 * alternating between them (no character starts them all), and a test log of 20 KB holds none; and
 * each behind a piece of it that starts with a character most texts seldom hold (a capital, a `w`,
 * an `x`): `includes` looks for a text's first character first and compares the rest where it finds
 * it, so a marker that starts with a common letter (`not a…`, `rustc…`, `detailed…`) made it stop at
 * most characters of a long log. The piece is looked for first, the marker only where the piece is (a
 * text without the piece cannot hold its marker); one piece may stand for several.
 */
export const MARKER_PROBES: readonly { readonly probe: string; readonly markers: readonly string[] }[] = [
  { probe: 'To see a list of scripts', markers: ['To see a list of scripts'] },
  { probe: 'A complete log of this run', markers: ['A complete log of this run'] },
  { probe: 'with npm', markers: ['not a problem with npm'] },
  { probe: 'See above for', markers: ['See above for'] },
  { probe: 'xpla', markers: ['rustc --explain', 'detailed explanations: E'] },
  { probe: 'RUST_BACKTRACE', markers: ['RUST_BACKTRACE'] },
  { probe: 'yarnpkg.com', markers: ['yarnpkg.com'] },
];

/** Every marker of `MARKER_PROBES`, in order. */
export const MARKERS: readonly string[] = MARKER_PROBES.flatMap((entry) => entry.markers);

/** Whether a text holds one of `MARKERS`. Exported for tests. */
export function holdsMarker(text: string): boolean {
  for (const { probe, markers } of MARKER_PROBES) {
    if (!text.includes(probe)) continue;
    for (const marker of markers) if (marker === probe || text.includes(marker)) return true;
  }
  return false;
}

/** `holdsMarker` looking for every marker whole: what it must answer, for tests. */
export function holdsMarkerExhaustively(text: string): boolean {
  return MARKERS.some((marker) => text.includes(marker));
}

/**
 * The text without its lines that only point elsewhere; the text itself when it has none, or when
 * they are all it says.
 */
export function withoutPointerLines(text: string): string {
  if (!holdsMarker(text)) return text;
  const lines = text.split('\n');
  const kept: string[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const introduction = INTRODUCTIONS.find((candidate) => candidate.line.test(line));
    if (introduction !== undefined) {
      if (introduction.follows.test(lines[index + 1] ?? '')) index++;
      continue;
    }
    if (!POINTERS.some((pointer) => pointer.test(line))) kept.push(line);
  }
  if (kept.length === lines.length) return text;
  return kept.some((line) => line.trim() !== '') ? kept.join('\n') : text;
}
