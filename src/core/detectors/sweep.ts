/**
 * Sweeps are not reformulations. Calls whose arguments differ from the previous call's in one
 * field, that field's values stepping in one direction (dates, pages, offsets, ids in order), or in
 * the fields of one window stepping together (a `from` and a `to` date), explore a range: each
 * answer is about a new part of it, empty or not. Rephrasings of one request vary in other ways
 * (words, case, fields changed that hold no order) and learn nothing new when empty.
 *
 * A call's arguments are compared through what a sweep needs of them (`SweepArgs`): each field's
 * name and value by their hashes, for equality, and where the value is ordered, its place in the
 * order. That is what a new process gets back of the last call from the session's run state.
 */
import { hashString } from '../identity/index.js';
import { isSecretKey } from '../secrets.js';
import { isRecord, readNumber, readString } from './restore.js';

export interface SweepStep {
  /** The hash of the field's name. */
  readonly field: string;
  /** 1: the values grow; -1: they shrink. */
  readonly direction: 1 | -1;
}

/** Where a value stands in an order: a number, or a text's numbers around the same words. */
export type SweepOrder =
  | { readonly number: number }
  | {
      /** An ISO 8601 date or time, ordered as text. */
      readonly date?: string;
      /** The hash of the text with each number in it replaced by `#`. */
      readonly shape: string;
      readonly numbers: readonly number[];
    };

export interface SweepValue {
  /** The hash of the value: equal values, equal hashes. */
  readonly same: string;
  readonly order?: SweepOrder;
  /**
   * Whether its order may be saved with the session: it reads as a position (a page, an offset, a
   * date, a number inside a name), not as a value someone could be identified or let in by.
   */
  readonly savable?: boolean;
}

/** What a sweep needs of a call's arguments, by the hash of each field's name. */
export type SweepArgs = ReadonlyMap<string, SweepValue>;

const MAX_FIELDS = 32;
const MAX_VALUE_CHARS = 200;
/** A date or a time as ISO 8601 writes it: ordered as text. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+Z?)?$/;
const NUMBERS = /\d+(?:\.\d+)?/g;
/**
 * Fields whose numbers identify a person or let one in, whatever they are called: their order is
 * never saved (a sweep over them after a restart counts as a rephrasing).
 */
const PERSONAL_FIELD =
  /phone|mobile|\bfax|card|cvv|cvc|\bpin\b|ssn|social|iban|account|routing|passport|licen[cs]e|birth|\bdob\b|tax|national/i;
/** The longest run of digits whose order is saved: a card number, an account or a phone number is longer. */
const MAX_SAVED_DIGITS = 9;
/** A letter: a number inside words (`page-3`, `W1001`) is a position in a name. */
const LETTER = /\p{L}/u;
const ABSENT = '\u0000absent';

let unreadable = 0;

/** A value by its hash, equal values alike; a value that cannot be written equals no other. */
export function sameOf(value: unknown): string {
  if (value === undefined) return ABSENT;
  try {
    return hashString(JSON.stringify(value) ?? ABSENT);
  } catch {
    // A value that cannot be written equals no other.
    unreadable++;
    return `\u0000unreadable ${unreadable}`;
  }
}

function orderOf(value: unknown): SweepOrder | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? { number: value } : undefined;
  if (typeof value !== 'string' || value.length > MAX_VALUE_CHARS) return undefined;
  const numbers = (value.match(NUMBERS) ?? []).map(Number);
  const shape = hashString(value.replace(NUMBERS, '#'));
  return ISO_DATE.test(value) ? { date: value, shape, numbers } : { shape, numbers };
}

/** Whether `order`, of a field called `field` holding `value`, reads as a position. */
function savable(field: string, value: unknown, order: SweepOrder): boolean {
  if (isSecretKey(field) || PERSONAL_FIELD.test(field)) return false;
  if ('number' in order) return Math.abs(order.number) < 10 ** MAX_SAVED_DIGITS;
  const text = value as string;
  for (const digits of text.match(/\d+/g) ?? []) if (digits.length > MAX_SAVED_DIGITS) return false;
  return order.date !== undefined || LETTER.test(text.replace(NUMBERS, ''));
}

/** What a sweep needs of `args`: their first fields, each by hashes and its place in an order. */
export function sweepArgs(args: Readonly<Record<string, unknown>>): SweepArgs {
  const out = new Map<string, SweepValue>();
  for (const field of Object.keys(args).slice(0, MAX_FIELDS)) {
    const value = args[field];
    const order = orderOf(value);
    out.set(hashString(field), {
      same: sameOf(value),
      ...(order !== undefined && { order, savable: savable(field, value, order) }),
    });
  }
  return out;
}

/**
 * The field `current` steps along from `previous`, when it differs in that field alone and the
 * values are ordered, or the fields of one window that all step the same way (`date_from` and
 * `date_to` moved on a day each, `start` and `end` a page); undefined otherwise (equal arguments,
 * unordered values, fields moving apart, any other field changed with them).
 */
export function sweepStep(previous: SweepArgs, current: SweepArgs): SweepStep | undefined {
  const keys = new Set([...previous.keys(), ...current.keys()]);
  const fields: string[] = [];
  let direction: 1 | -1 | undefined;
  for (const key of keys) {
    const before = previous.get(key);
    const after = current.get(key);
    if ((before?.same ?? ABSENT) === (after?.same ?? ABSENT)) continue;
    const moved = directionOf(before?.order, after?.order);
    if (moved === undefined || (direction !== undefined && moved !== direction)) return undefined;
    direction = moved;
    fields.push(key);
  }
  if (direction === undefined) return undefined;
  return { field: fields.length === 1 ? (fields[0] as string) : fields.sort().join(','), direction };
}

/** 1 when `after` comes after `before` in a range, -1 before it, undefined when they are not ordered. */
function directionOf(before: SweepOrder | undefined, after: SweepOrder | undefined): 1 | -1 | undefined {
  if (before === undefined || after === undefined) return undefined;
  if ('number' in before || 'number' in after)
    return 'number' in before && 'number' in after ? signOf(after.number - before.number) : undefined;
  if (before.date !== undefined && after.date !== undefined)
    return before.date < after.date ? 1 : before.date > after.date ? -1 : undefined;
  // `page-3` → `page-4`, `W1001` → `W1002`: the same text around one number that moved.
  if (before.shape !== after.shape) return undefined;
  let direction: 1 | -1 | undefined;
  for (let index = 0; index < before.numbers.length; index++) {
    const moved = signOf((after.numbers[index] ?? Number.NaN) - (before.numbers[index] as number));
    if (moved === undefined) continue;
    if (direction !== undefined) return undefined;
    direction = moved;
  }
  return direction;
}

function signOf(difference: number): 1 | -1 | undefined {
  if (!Number.isFinite(difference) || difference === 0) return undefined;
  return difference > 0 ? 1 : -1;
}

/**
 * `args` as the session's run state keeps them: hashes, and the order of the values that read as
 * positions; a value whose order is not savable is kept by its hash alone.
 */
export function savedSweepArgs(args: SweepArgs): unknown[] {
  const out: unknown[] = [];
  for (const [field, { same, order, savable: keep }] of args) {
    out.push(order !== undefined && keep === true ? [field, same, order] : [field, same]);
  }
  return out;
}

/** What `savedSweepArgs` wrote, or undefined when it is not that. */
export function readSweepArgs(value: unknown): SweepArgs | undefined {
  if (!Array.isArray(value)) return undefined;
  const out = new Map<string, SweepValue>();
  for (const item of value.slice(0, MAX_FIELDS)) {
    if (!Array.isArray(item) || typeof item[0] !== 'string' || typeof item[1] !== 'string') return undefined;
    const order = readOrder(item[2]);
    out.set(item[0], { same: item[1], ...(order !== undefined && { order, savable: true }) });
  }
  return out;
}

function readOrder(value: unknown): SweepOrder | undefined {
  if (!isRecord(value)) return undefined;
  const number = readNumber(value.number);
  if (number !== undefined) return { number };
  const shape = readString(value.shape);
  if (shape === undefined || !Array.isArray(value.numbers)) return undefined;
  const numbers = value.numbers.slice(0, MAX_VALUE_CHARS).map(readNumber);
  if (numbers.some((item) => item === undefined)) return undefined;
  const date = readString(value.date);
  return {
    ...(date !== undefined && ISO_DATE.test(date) && { date }),
    shape,
    numbers: numbers as number[],
  };
}
