/** What a recorded call returned, as one short line next to its verdict. */
import type { TraceResult } from '../trace/types.js';

const EXCERPT = 120;

/** The recorded result's text, or its error prefixed `error:`, on one line and cut short. */
export function returnedExcerpt(result: TraceResult | undefined): string | undefined {
  if (result === undefined) return undefined;
  const failed = result.isError === true || result.error !== undefined;
  const text = [result.error, contentText(result.content)].filter((part) => part).join(' ');
  const line = text.replace(/\s+/g, ' ').trim();
  const cut = line.length > EXCERPT ? `${line.slice(0, EXCERPT - 1)}…` : line;
  const shown = cut === '' ? '(empty)' : cut;
  return failed ? `error: ${shown}` : shown;
}

function contentText(content: TraceResult['content']): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  const texts: string[] = [];
  for (const item of content) {
    if (item && typeof item === 'object' && typeof (item as { text?: unknown }).text === 'string')
      texts.push((item as { text: string }).text);
    if (texts.join(' ').length > EXCERPT) break;
  }
  return texts.join(' ');
}
