/**
 * Whether two answers of one call are one answer told twice. Masks find the values a tool draws
 * afresh when they hold a digit or a known form; an id drawn from letters alone (`run evvkvxoskel`)
 * is a word to any mask. Two answers of the same call that say the same words, but for a word or two
 * in the same place with the same marks around them, each long enough to be drawn rather than
 * written differently, differ only in such values.
 */
import { alignedDifferences } from './aligned-words.js';
import { textWithoutNumbers } from './call-identity.js';

/** The shortest value taken as drawn: shorter words differ as words do (`foo`, `bar`). */
const MIN_DRAWN = 6;
/**
 * One word with the marks around it (`(run`, `evvkvxoskel)`): a value of word characters, `#` where a
 * number was masked and placeholders a mask put for a value (`<id>`, `req_<id>`).
 */
const WORD = /^(\W*?)((?:[\w#]|<[a-z]+>)+)(\W*)$/;
/** A value a mask found, whole or in part. */
const MASKED = /[#<]/;
/** The shortest pair of unmasked values taken as one generator's ids. */
const MIN_UNMASKED = 10;
/** Written as ids are and words are not: a capital after the first letter, or an underscore. */
const ID_LIKE = /^.+[A-Z_]/;
/** The longest word read as a value: ids are short, and a longer word is never parsed. */
const MAX_VALUE = 128;

/** Whether `a` and `b` (answers of one call) are alike but for values drawn afresh. */
export function answersAlike(a: string, b: string): boolean {
  // Blank lines and spaces around the words say nothing: one answer printed with a blank line above it is one answer.
  const words = (text: string) => textWithoutNumbers(text).trim().split(/\s+/);
  return alignedDifferences(words(a), words(b), drawnValues) !== undefined;
}

/**
 * Two words that are values drawn in one place: the same marks around them, each masked (in whole or
 * in part) or long enough to be drawn, and one of them masked, or both of one length (one
 * generator's) and written as ids are, not words (`req_vbgkfXbHNSFJRC`). Two words of letters alone
 * are never taken as one value: a state that moved (`pending`, `running`) reads so too.
 */
function drawnValues(a: string, b: string): boolean {
  if (a.length > MAX_VALUE || b.length > MAX_VALUE) return false;
  const matchA = WORD.exec(a);
  const matchB = WORD.exec(b);
  if (matchA === null || matchB === null) return false;
  if (matchA[1] !== matchB[1] || matchA[3] !== matchB[3]) return false;
  const valueA = matchA[2] as string;
  const valueB = matchB[2] as string;
  const maskedA = MASKED.test(valueA);
  const maskedB = MASKED.test(valueB);
  if (!(maskedA || valueA.length >= MIN_DRAWN) || !(maskedB || valueB.length >= MIN_DRAWN)) return false;
  if (maskedA || maskedB) return true;
  return (
    valueA.length === valueB.length &&
    valueA.length >= MIN_UNMASKED &&
    ID_LIKE.test(valueA) &&
    ID_LIKE.test(valueB)
  );
}
