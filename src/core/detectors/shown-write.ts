/**
 * Whether an edit's answer shows what the edit wrote: an editor that answers with the file as the
 * edit left it (a numbered listing, a `cat -n` snippet) shows its written lines. Two such answers
 * alike, back to back, prove the second write left the file as it was, so a third can change
 * nothing. An answer that shows nothing of the text (`Success`, `File updated`) proves nothing: an
 * insertion repeated may answer the same every time while the file grows.
 */

import { kindOf } from './applicability.js';
import type { CallContext } from './types.js';

/** Shorter lines (`}`, `return x`) may be found anywhere in a file. */
const MIN_LINE = 12;
/** Lines of the written text looked at: the longest of the first few is enough to recognise it. */
const MAX_LINES = 64;

export function showsItsWrite(call: CallContext, content: string): boolean {
  const kind = kindOf(call);
  if (kind !== 'mutate' && kind !== 'create') return false;
  const written = call.facts.writtenText;
  if (written === undefined) return false;
  let longest = '';
  for (const line of written.split('\n', MAX_LINES)) {
    const trimmed = line.trim();
    if (trimmed.length > longest.length) longest = trimmed;
  }
  return longest.length >= MIN_LINE && content.includes(longest);
}
