/**
 * A successful read, search or query that found nothing. Only whole answers count: a file that
 * merely mentions "no results" somewhere is not empty.
 */

import { carriesOnlyFreshValues } from './volatile-lines.js';

const LONGEST_EMPTY_ANSWER = 300;
/** How long an empty answer with lines of fresh values beside it can be, and how many lines it has. */
const LONGEST_WITH_FRESH_LINES = 2 * LONGEST_EMPTY_ANSWER;
const MOST_FRESH_LINES = 4;

const EMPTY_LITERALS = new Set(['null', '[]', '{}', '""', "''", 'none', 'undefined']);
const LONGEST_EMPTY_LITERAL = 9;

export const NOTHING_FOUND_ANSWERS = [
  // One word may say what was searched (`No search results`, `0 open issues`; see `NO_SUCH`).
  /^(?:[^\n:]{0,60}:\s*)?(?:no|0|zero)\s+(?:[a-z][\w-]*\s+)?(?:results?|matches?|files?|items?|entries|records|rows|hits|documents|issues|repositories)(?:\s+(?:were\s+)?found)?\b[^\n]{0,160}$/i,
  // Whatever the tool looks for ("No tools found matching …", "0 pull requests matched"): the
  // words "found" or "matched" after one to three words say the search came back empty.
  /^(?:[^\n:]{0,60}:\s*)?(?:no|0|zero)\s+(?:[a-z][\w-]*\s+){1,3}(?:(?:were|was)\s+)?(?:found|matched|matching|match(?:es)?)\b[^\n]{0,160}$/i,
  /^found 0\b[^\n]{0,160}$/i,
  /^(?:the )?(?:directory|folder)\b[^\n]{0,200}\bis empty\.?$/i,
  /^(?:empty|\(empty\)|\(no output\)|\(no content\)|no content|nothing found)\.?$/i,
];
/** One expression for all of them: most answers are not empty, and one scan rejects them. */
const NOTHING_FOUND = new RegExp(
  NOTHING_FOUND_ANSWERS.map((pattern) => `(?:${pattern.source})`).join('|'),
  'i',
);

/**
 * A check that found no defects ("No errors found", "0 vulnerabilities found", "No differences
 * found") answered: finding none is its result, not a search that came back empty.
 */
const FOUND_NO_DEFECTS =
  /^(?:[^\n:]{0,60}:\s*)?(?:no|0|zero)\s+(?:[a-z][\w-]*\s+){0,2}(?:errors?|warnings?|problems?|vulnerabilit(?:y|ies)|violations?|failures?|conflicts?|changes?|differences?|diffs?|leaks?|secrets?)\b/i;

/** `No such file or directory`: a failure's words, not an answer that found nothing. */
const NO_SUCH = /^(?:[^\n:]{0,60}:\s*)?no\s+such\b/i;

/** How long the prefix before the colon of a "nothing found" answer can be (`src: 0 matches`). */
const LONGEST_PREFIX = 60;

/**
 * Whether the text could be one of `NOTHING_FOUND_ANSWERS`, by the two things each of them starts
 * with: its first character (`no`, `0`, `zero`, `found`, `the`, `directory`, `folder`, `empty`, `(`,
 * `nothing`) or, for the first one, a prefix of at most 60 characters ending in the text's first
 * colon, on its first line. Most texts are neither, and are not tried against `NOTHING_FOUND`: a
 * fresh process then does not compile that expression for the short files and outputs its first
 * calls read, which cost its first call half a millisecond. Without the `u` flag, a letter of the
 * expression matches only ASCII letters, whatever their case.
 */
export function mayBeNothingFound(text: string): boolean {
  // ASCII letters lower-cased; anything else that lands on one of these is only tried needlessly.
  const first = text.charCodeAt(0) | 0x20;
  if (
    first === 0x6e || // n
    first === 0x30 || // 0
    first === 0x7a || // z
    first === 0x66 || // f
    first === 0x74 || // t
    first === 0x64 || // d
    first === 0x65 || // e
    first === 0x28 // (
  )
    return true;
  const colon = text.indexOf(':');
  return colon >= 0 && colon <= LONGEST_PREFIX && text.lastIndexOf('\n', colon) < 0;
}

/** True when the text is nothing, an empty JSON value, or a one-line "nothing found" answer. */
export function isEmptyAnswer(content: string | undefined): boolean {
  if (content === undefined) return true;
  // A long answer with no space at either end is long once trimmed too; most answers are such.
  if (content.length > LONGEST_WITH_FRESH_LINES && isVisibleAscii(content.charCodeAt(0))) {
    if (isVisibleAscii(content.charCodeAt(content.length - 1))) return false;
  }
  const text = content.trim();
  if (text === '') return true;
  if (text.length > LONGEST_EMPTY_ANSWER) return isEmptyBesideFreshLines(text);
  return isEmptyLine(text) || isEmptyBesideFreshLines(text);
}

/** One line (or a JSON value) that is an empty answer by itself. */
function isEmptyLine(text: string): boolean {
  if (text.length <= LONGEST_EMPTY_LITERAL && EMPTY_LITERALS.has(text.toLowerCase())) return true;
  if (
    mayBeNothingFound(text) &&
    NOTHING_FOUND.test(text) &&
    !FOUND_NO_DEFECTS.test(text) &&
    !NO_SUCH.test(text)
  )
    return true;
  const first = text[0];
  return (first === '{' || first === '[') && isEmptyJson(text);
}

/**
 * An empty answer on one line, the other lines carrying only what each run draws afresh (an id, a
 * time, a temporary path: see `carriesOnlyFreshValues`), wherever they stand: the answer is as empty
 * as without them.
 */
function isEmptyBesideFreshLines(text: string): boolean {
  if (text.length > LONGEST_WITH_FRESH_LINES || !hasFewLines(text)) return false;
  const lines = text.split('\n').map((line) => line.trim());
  // The answer's line first, whose test is cheap: most short outputs have none, and are not masked.
  const answer = lines.findIndex((line) => line !== '' && isEmptyLine(line));
  if (answer < 0) return false;
  let fresh = 0;
  for (const [index, line] of lines.entries()) {
    if (index === answer || line === '') continue;
    if (++fresh > MOST_FRESH_LINES || !carriesOnlyFreshValues(line)) return false;
  }
  return fresh > 0;
}

/** Whether the text has two lines or more, and no more than an answer and its lines of fresh values. */
function hasFewLines(text: string): boolean {
  let breaks = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) {
    if (++breaks > MOST_FRESH_LINES + 1) return false;
  }
  return breaks > 0;
}

function isVisibleAscii(code: number): boolean {
  return code > 32 && code < 127;
}

/**
 * `{"items": [], "total_count": 0}` is empty; `{"exists": false}` is an answer. An object is empty only
 * when it holds at least one empty collection and nothing but empty values beside it.
 */
function isEmptyJson(text: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value !== 'object' || value === null) return false;
  let emptyCollection = false;
  for (const field of Object.values(value)) {
    if (isEmptyCollection(field)) emptyCollection = true;
    else if (!(field === null || field === '' || field === 0 || field === false)) return false;
  }
  return emptyCollection || Object.keys(value).length === 0;
}

function isEmptyCollection(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && value !== null && Object.keys(value).length === 0;
}
