/**
 * Sweeps are not reformulations. Calls whose arguments differ from the previous call's in exactly
 * one field, that field's values stepping in one direction (dates, pages, offsets, ids in order),
 * explore a range: each answer is about a new part of it, empty or not. Rephrasings of one request
 * vary in other ways (words, case, several fields at once) and learn nothing new when empty.
 */

export interface SweepStep {
  readonly field: string;
  /** 1: the values grow; -1: they shrink. */
  readonly direction: 1 | -1;
}

const MAX_FIELDS = 32;
const MAX_VALUE_CHARS = 200;
/** A date or a time as ISO 8601 writes it: ordered as text. */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+Z?)?$/;
const NUMBERS = /\d+(?:\.\d+)?/g;

/**
 * The field `current` steps along from `previous`, when it differs in that field alone and the
 * values are ordered; undefined otherwise (equal arguments, several fields, unordered values).
 */
export function sweepStep(
  previous: Readonly<Record<string, unknown>>,
  current: Readonly<Record<string, unknown>>,
): SweepStep | undefined {
  const keys = new Set([
    ...Object.keys(previous).slice(0, MAX_FIELDS),
    ...Object.keys(current).slice(0, MAX_FIELDS),
  ]);
  let step: SweepStep | undefined;
  for (const key of keys) {
    const before = previous[key];
    const after = current[key];
    if (sameValue(before, after)) continue;
    if (step !== undefined) return undefined;
    const direction = orderOf(before, after);
    if (direction === undefined) return undefined;
    step = { field: key, direction };
  }
  return step;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false;
  }
}

/** 1 when `after` comes after `before` in a range, -1 before it, undefined when they are not ordered. */
function orderOf(before: unknown, after: unknown): 1 | -1 | undefined {
  if (typeof before === 'number' && typeof after === 'number') return signOf(after - before);
  if (typeof before !== 'string' || typeof after !== 'string') return undefined;
  if (before.length > MAX_VALUE_CHARS || after.length > MAX_VALUE_CHARS) return undefined;
  if (ISO_DATE.test(before) && ISO_DATE.test(after))
    return before < after ? 1 : before > after ? -1 : undefined;
  // `page-3` → `page-4`, `W1001` → `W1002`: the same text around one number that moved.
  if (before.replace(NUMBERS, '#') !== after.replace(NUMBERS, '#')) return undefined;
  const a = before.match(NUMBERS) ?? [];
  const b = after.match(NUMBERS) ?? [];
  let direction: 1 | -1 | undefined;
  for (let index = 0; index < a.length; index++) {
    const moved = signOf(Number(b[index]) - Number(a[index]));
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
