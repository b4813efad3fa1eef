/** What a recorded call returned, as one short line next to its verdict. */
import { isWhiteSpace } from '../adapters/tool-call/white-space.js';
import type { TraceResult } from '../trace/types.js';

const EXCERPT = 120;

/** The recorded result's text, or its error prefixed `error:`, on one line and cut short. */
export function returnedExcerpt(result: TraceResult | undefined): string | undefined {
  if (result === undefined) return undefined;
  const failed = result.isError === true || result.error !== undefined;
  const content = contentText(result.content);
  // The error, then the content, with a space between when both say something.
  const text = result.error ? (content ? `${result.error} ${content}` : result.error) : content;
  const line = oneLine(text);
  const cut = line.length > EXCERPT ? `${line.slice(0, EXCERPT - 1)}…` : line;
  const shown = cut === '' ? '(empty)' : cut;
  return failed ? `error: ${shown}` : shown;
}

/** Characters of the collapsed text read before it is known to be longer than the excerpt. */
const ENOUGH = EXCERPT + 2;

/** Runs of whitespace, as `oneLine` collapses them. */
const WHITESPACE_RUNS = /\s+/g;

/**
 * The text with each run of whitespace (what `\s` matches) made one space and trimmed, as
 * `text.replace(/\s+/g, ' ').trim()` gives it, or, for a long text, a start of that at least two
 * characters longer than the excerpt, which cuts to the same excerpt (the whole one is longer than
 * the excerpt whatever trailing space it trims). Read character by character and stopped there, so a
 * 20 KB output costs what its first line costs. The part read is cut from the text once, and
 * collapsed only when it holds whitespace other than single spaces: a replay makes one excerpt per
 * call, and building it word by word made a string for every word.
 */
function oneLine(text: string): string {
  const length = text.length;
  let start = 0;
  while (start < length && isWhiteSpace(text.charCodeAt(start))) start++;
  /** Characters of the collapsed text read so far, a run of whitespace counting one. */
  let collapsed = 0;
  let inSpace = false;
  /** Whether the part read holds whitespace that is not a single space. */
  let uneven = false;
  let end = start;
  for (; end < length && collapsed < ENOUGH; end++) {
    const code = text.charCodeAt(end);
    if (!isWhiteSpace(code)) {
      collapsed++;
      inSpace = false;
    } else if (inSpace) {
      uneven = true;
    } else {
      collapsed++;
      inSpace = true;
      if (code !== 32) uneven = true;
    }
  }
  const part = text.slice(start, end);
  const line = uneven ? part.replace(WHITESPACE_RUNS, ' ') : part;
  // Trailing whitespace is trimmed when it ends the text; a part cut short is longer than the
  // excerpt, which is cut before its last space anyway.
  return inSpace && end === length ? line.slice(0, -1) : line;
}

function contentText(content: TraceResult['content']): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  // Most results hold one text, given as it is; a list is made only for a second one.
  let first: string | undefined;
  let texts: string[] | undefined;
  // The length of the texts joined with spaces, kept as they are added rather than joined each time.
  let length = -1;
  for (const item of content) {
    if (item && typeof item === 'object' && typeof (item as { text?: unknown }).text === 'string') {
      const text = (item as { text: string }).text;
      if (first === undefined) first = text;
      else if (texts === undefined) texts = [first, text];
      else texts.push(text);
      length += text.length + 1;
    }
    if (length > EXCERPT) break;
  }
  return texts !== undefined ? texts.join(' ') : (first ?? '');
}
