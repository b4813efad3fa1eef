/** What a recorded call returned, as one short line next to its verdict. */
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

/**
 * Raw characters looked at first, a little more than the excerpt: most texts give a whole excerpt from
 * these; a text whose start is mostly whitespace is looked at further, four times as far each time.
 */
const FIRST_LOOK = 128;

/**
 * The text with its whitespace collapsed and trimmed, or, for a long text, enough of its start to cut
 * the excerpt from: a start of the text collapses to a start of the whole collapsed, so a start longer
 * than the excerpt by two (the trailing space the whole one might trim) reads the same.
 */
function oneLine(text: string): string {
  for (let size = FIRST_LOOK; size < text.length; size *= 4) {
    const start = text.slice(0, size).replace(/\s+/g, ' ').trimStart();
    if (start.length >= EXCERPT + 2) return start;
  }
  return text.replace(/\s+/g, ' ').trim();
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
