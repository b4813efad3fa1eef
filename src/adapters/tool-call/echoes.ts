/**
 * Error messages often quote the agent's own arguments: "String to replace not found in file.
 * String: <old_string>". Words inside such a quote are the agent's, not the tool's verdict — an
 * old_string that mentions `401` or "unauthorized" must not read as a permission error — so the
 * argument values are blanked out of the text before it is matched.
 */
import { isRecord } from './action-classes.js';
import { argumentTexts } from './argument-texts.js';
import { isWhiteSpace, isWordCharacter } from './white-space.js';

/** Shorter values are ordinary words ("main", "README.md") that the verdict itself may use. */
const MIN_ECHO_LENGTH = 12;
const MAX_VALUES = 8;
const MAX_VALUE_LENGTH = 4000;
const MAX_WORDS = 400;

function collect(value: unknown, out: string[], depth: number): void {
  if (out.length >= MAX_VALUES) return;
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (trimmed.length >= MIN_ECHO_LENGTH && trimmed.length <= MAX_VALUE_LENGTH) out.push(trimmed);
    return;
  }
  if (depth === 0) return;
  if (Array.isArray(value)) {
    for (const item of value.slice(0, MAX_VALUES)) collect(item, out, depth - 1);
  } else if (isRecord(value)) {
    for (const key of Object.keys(value).slice(0, 32)) collect(value[key], out, depth - 1);
  }
}

/**
 * Where a quote of `value` that starts at `at` in `text` ends, or -1 when none starts there. Each run
 * of white space in the value stands for a run of one or more in the text; the rest is compared as is.
 */
function quoteEnd(text: string, at: number, value: string): number {
  let index = at;
  let position = 0;
  while (position < value.length) {
    const code = value.charCodeAt(position);
    if (isWhiteSpace(code)) {
      if (index >= text.length || !isWhiteSpace(text.charCodeAt(index))) return -1;
      while (position < value.length && isWhiteSpace(value.charCodeAt(position))) position++;
      while (index < text.length && isWhiteSpace(text.charCodeAt(index))) index++;
    } else {
      if (index >= text.length || text.charCodeAt(index) !== code) return -1;
      index++;
      position++;
    }
  }
  return index;
}

/** How many words a value holds, counting up to `limit + 1`. */
function wordsIn(value: string, limit: number): number {
  let words = 1;
  for (let position = 0; position < value.length && words <= limit; position++) {
    if (isWhiteSpace(value.charCodeAt(position)) && !isWhiteSpace(value.charCodeAt(position - 1))) words++;
  }
  return words;
}

/**
 * The text with every quote of a value of several words blanked, searched from where the value's
 * first word occurs: no expression is built for it, and a text that quotes nothing is returned as is.
 */
function withoutQuotesOf(text: string, value: string, first: string, from: number): string {
  let out = '';
  let kept = 0;
  for (let at = from; at >= 0; ) {
    const end = quoteEnd(text, at, value);
    if (end < 0) {
      at = text.indexOf(first, at + 1);
      continue;
    }
    out += `${text.slice(kept, at)} `;
    kept = end;
    at = text.indexOf(first, end);
  }
  return kept === 0 ? text : out + text.slice(kept);
}

/** The text with every quote of an argument value blanked; whitespace inside a quote may differ. */
export function withoutEchoes(text: string, args: Readonly<Record<string, unknown>>): string {
  const values: string[] = [];
  collect(args, values, 3);
  let out = text;
  for (const value of values) {
    // Values are trimmed: their first character is a word's.
    let firstEnd = 1;
    while (firstEnd < value.length && !isWhiteSpace(value.charCodeAt(firstEnd))) firstEnd++;
    if (firstEnd === value.length) {
      if (out.includes(value)) out = out.split(value).join(' ');
      continue;
    }
    const first = value.slice(0, firstEnd);
    const at = out.indexOf(first);
    if (at < 0 || wordsIn(value, MAX_WORDS) > MAX_WORDS) continue;
    out = withoutQuotesOf(out, value, first, at);
  }
  return out;
}

/** An identifier, a date, a number: a value an error can only quote because this call passed it. */
const QUOTABLE = /^[\w.:/@-]{6,200}$/;
const MAX_QUOTED_VALUES = 32;

/** The call's argument strings an error could only quote because the call passed them. */
function quotableValues(args: Readonly<Record<string, unknown>>): string[] {
  const out: string[] = [];
  for (const text of argumentTexts(args, { depth: 3, itemsPerContainer: MAX_QUOTED_VALUES })) {
    if (out.length >= MAX_QUOTED_VALUES) break;
    if (QUOTABLE.test(text) && /[a-z0-9]/i.test(text)) out.push(text);
  }
  return out;
}

/**
 * Whether an error names one of the call's own argument values as a whole word ("flight HAT030 not
 * available on date 2024-05-13", "Parameter `old_str` is required for command: str_replace"). Such an
 * error is about what the call asked for, so the same call fails the same way; a glitch of the
 * environment ("Sibling tool call errored") names none of them.
 */
export function quotesArguments(text: string, args: Readonly<Record<string, unknown>>): boolean {
  for (const value of quotableValues(args)) if (quotesValue(text, value)) return true;
  return false;
}

/** Whether `text` holds `value` whole: not as part of a longer word at either end. */
export function quotesValue(text: string, value: string): boolean {
  let at = text.indexOf(value);
  while (at >= 0) {
    const before = text.charCodeAt(at - 1);
    const after = text.charCodeAt(at + value.length);
    if (!isWordCharacter(before) && !isWordCharacter(after)) return true;
    at = text.indexOf(value, at + 1);
  }
  return false;
}
