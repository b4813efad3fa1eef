/**
 * Words as the rules that compare wordings read them: runs of four letters or more, lower-cased, by
 * their hashes. Four letters leave out the short words every question shares (`for`, `the`, `how`),
 * a path's bare abbreviations (`src`, `lib`, `bin`) and a version's digits; hashes keep what a rule
 * saves with the session's run state free of text in clear.
 */
import { hashString } from '../identity/index.js';

const WORD = /\p{L}{4,}/gu;

/** The hashes of the distinct words of `text`, the first `limit` of them. */
export function wordHashes(text: string, limit: number): Set<string> {
  const words = new Set<string>();
  if (limit <= 0) return words;
  for (const word of text.toLowerCase().match(WORD) ?? []) {
    words.add(hashString(word));
    if (words.size >= limit) break;
  }
  return words;
}

/** Whether two sets of word hashes hold a word in common. */
export function sharesWord(left: ReadonlySet<string>, right: ReadonlySet<string>): boolean {
  for (const word of left) if (right.has(word)) return true;
  return false;
}
