/**
 * Numbered source listings in a failure's text: an editor showing the file as the refused edit would
 * have left it, `cat -n`, a compiler's excerpt with a gutter. Such lines are the file's own words, so
 * a timeout or a connection error named in the code says nothing about the environment, and the
 * rules that read the text must not see them. A listing is told apart by its numbers: three or more
 * lines in a row, each numbered one more than the line before (clock times, `12:30:01`, never are).
 */

/** A line's number and what follows it: `31:code`, `     7\tcode`, `  7 | code`. */
const NUMBERED_LINE = /^\s*(\d{1,7})(?::|\t| ?\|)/;
/**
 * What every numbered line holds: a digit and the mark after its number. A text without it (most
 * failures, a test log of 20 KB) holds no numbered line, and is not split into lines to look for one.
 */
const NUMBER_MARK = /\d(?::|\t| ?\|)/;
/** Fewer lines in a row are as likely a log's or a message's own numbering. */
const MIN_LISTING_LINES = 3;

function lineNumber(line: string): number | undefined {
  const match = NUMBERED_LINE.exec(line);
  return match ? Number(match[1]) : undefined;
}

/** Whether the text has at least `MIN_LISTING_LINES` lines, read up to the line break that makes them. */
function holdsEnoughLines(text: string): boolean {
  let at = -1;
  for (let breaks = 0; breaks < MIN_LISTING_LINES - 1; breaks++) {
    at = text.indexOf('\n', at + 1);
    if (at < 0) return false;
  }
  return true;
}

/** The text with every line of each numbered listing blanked (its line breaks kept). */
export function withoutListings(text: string): string {
  // Fewer lines than a listing takes (a one- or two-line error, most short failures) hold none.
  if (!holdsEnoughLines(text) || !NUMBER_MARK.test(text)) return text;
  const lines = text.split('\n');
  const blank = new Uint8Array(lines.length);
  let runStart = 0;
  let previous: number | undefined;
  let any = false;
  const close = (end: number) => {
    if (end - runStart < MIN_LISTING_LINES) return;
    blank.fill(1, runStart, end);
    any = true;
  };
  lines.forEach((line, index) => {
    const number = lineNumber(line);
    if (number !== undefined && previous !== undefined && number === previous + 1) {
      previous = number;
      return;
    }
    close(index);
    runStart = index;
    previous = number;
  });
  close(lines.length);
  if (!any) return text;
  return lines.map((line, index) => (blank[index] === 1 ? '' : line)).join('\n');
}
