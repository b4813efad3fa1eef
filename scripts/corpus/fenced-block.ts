/**
 * Code blocks of a saved chat's Markdown: the one reading of a fenced block the SpecStory readers
 * share. A block opens at a line whose trimmed text the opener matches (any fence, or one of a
 * language: a `diff` block) and closes at the next line that the closer matches; a block left open
 * runs to the end of the lines.
 */

/** Any fence line, with or without a language, indented or not. */
export const ANY_FENCE = /^```/;
/** A fence line with nothing after it: the close of a block that may hold fenced lines of its own. */
export const BARE_FENCE = /^```$/;

export interface FencedBlock {
  /** The lines between the fences, joined. */
  readonly body: string;
  /** The index of the line after the closing fence (or of the end of the lines). */
  readonly next: number;
}

/** The first block that opens at or after `from`. */
export function fencedBlock(
  lines: readonly string[],
  from = 0,
  opener: RegExp = ANY_FENCE,
  closer: RegExp = ANY_FENCE,
): FencedBlock | undefined {
  const open = lines.findIndex((line, index) => index >= from && opener.test(line.trim()));
  if (open < 0) return undefined;
  const close = lines.findIndex((line, index) => index > open && closer.test(line.trim()));
  const end = close < 0 ? lines.length : close;
  return { body: lines.slice(open + 1, end).join('\n'), next: end + 1 };
}
