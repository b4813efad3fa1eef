/**
 * Rewordings are not new questions. A call whose arguments differ from the previous call's only in
 * fields that share a word with what those fields held before (`late rent penalty` after `penalty
 * for paying rent late`) asks the same thing again in other words; a call that changes a field to
 * words it did not hold (`wearable` after `SimulationEngine`) asks something else.
 *
 * The arguments are compared through what the comparison needs of them (`AskedFields`): each field's
 * name and value by their hashes, and the value's words by theirs. That is what a new process gets
 * back of the last question from the session's run state: no text in clear.
 */
import { hashString } from '../identity/index.js';
import { sameOf } from './sweep.js';
import { sharesWord, wordHashes } from './word-hashes.js';

export interface AskedField {
  /** The hash of the whole value, as a sweep compares it (`sameOf`): equal values, equal hashes. */
  readonly same: string;
  /** The hashes of its words (see `word-hashes.ts`), within the question's budget. */
  readonly words: ReadonlySet<string>;
}

/** A call's arguments as a rewording is told by, under the hash of each field's name. */
export type AskedFields = ReadonlyMap<string, AskedField>;

const MAX_FIELDS = 32;
/** Characters of a value read for its words: a question is short, and its start says what it asks. */
const MAX_VALUE_CHARS = 1_000;
/**
 * Words kept of one question, over all its fields: what the session's run state holds of it stays
 * small. A field read after the budget is spent keeps none, and a change of it is never a rewording.
 */
const MAX_WORDS = 64;

/** The value as its words are read: a string as it is, anything else as JSON; nothing when it cannot be written. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

/** What a rewording is told by of `args`: their first fields, each by hashes. */
export function askedFields(args: Readonly<Record<string, unknown>>): AskedFields {
  const out = new Map<string, AskedField>();
  let budget = MAX_WORDS;
  for (const field of Object.keys(args).slice(0, MAX_FIELDS)) {
    const value = args[field];
    const words = wordHashes(textOf(value).slice(0, MAX_VALUE_CHARS), budget);
    budget -= words.size;
    out.set(hashString(field), { same: sameOf(value), words });
  }
  return out;
}

/**
 * Whether `current` asks what `previous` asked in other words: some field differs, and each field
 * that differs shares a word with what it held before.
 */
export function rewords(previous: AskedFields, current: AskedFields): boolean {
  let differs = false;
  for (const key of new Set([...previous.keys(), ...current.keys()])) {
    const before = previous.get(key);
    const after = current.get(key);
    // A field that appeared or went is no rewording of what it held.
    if (before === undefined || after === undefined) return false;
    if (before.same === after.same) continue;
    if (!sharesWord(before.words, after.words)) return false;
    differs = true;
  }
  return differs;
}

/** `fields` as the session's run state keeps them: hashes only. */
export function savedAskedFields(fields: AskedFields): unknown[] {
  return [...fields].map(([field, { same, words }]) => [field, same, [...words]]);
}

/** What `savedAskedFields` wrote, or undefined when it is not that. */
export function readAskedFields(value: unknown): AskedFields | undefined {
  if (!Array.isArray(value)) return undefined;
  const out = new Map<string, AskedField>();
  let budget = MAX_WORDS;
  for (const item of value.slice(0, MAX_FIELDS)) {
    if (!Array.isArray(item) || typeof item[0] !== 'string' || typeof item[1] !== 'string') return undefined;
    if (!Array.isArray(item[2])) return undefined;
    const words = item[2].slice(0, budget);
    if (words.some((word) => typeof word !== 'string')) return undefined;
    budget -= words.length;
    out.set(item[0], { same: item[1], words: new Set(words as string[]) });
  }
  return out;
}
