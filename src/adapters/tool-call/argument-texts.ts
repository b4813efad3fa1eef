/**
 * The texts in a call's arguments, for the checks that ask whether an error names something the
 * call passed: each argument's string (and, where asked, number), and those inside its lists and
 * objects, depth first in the order they were written, within bounds that no argument tree can
 * stretch: a depth, a number of items read of each list or object, and a number of values looked at
 * in all. Each check keeps its own filter and its own cap on what it takes, and stops the walk when
 * it has enough.
 */

export interface ArgumentWalk {
  /** How many lists or objects deep the walk goes, the arguments themselves counted. */
  readonly depth: number;
  /** How many items of each list or object are read. */
  readonly itemsPerContainer: number;
  /** Numbers are given too, as text (`String(n)`). */
  readonly numbers?: boolean;
}

/** The most values (texts, numbers, lists, objects, anything else) one walk looks at. */
const MAX_VISITED = 4096;

/** The texts of `value`'s tree, within `walk`'s bounds (a string alone is its own text). */
export function* argumentTexts(value: unknown, walk: ArgumentWalk): Generator<string, void, undefined> {
  const visits = { left: MAX_VISITED };
  yield* texts(value, walk, walk.depth, visits);
}

function* texts(
  value: unknown,
  walk: ArgumentWalk,
  depth: number,
  visits: { left: number },
): Generator<string, void, undefined> {
  if (visits.left <= 0) return;
  visits.left -= 1;
  if (typeof value === 'string') {
    yield value;
    return;
  }
  if (typeof value === 'number') {
    if (walk.numbers === true) yield String(value);
    return;
  }
  if (depth === 0 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    const items = value.length > walk.itemsPerContainer ? value.slice(0, walk.itemsPerContainer) : value;
    for (const item of items) yield* texts(item, walk, depth - 1, visits);
    return;
  }
  const record = value as Readonly<Record<string, unknown>>;
  for (const key of Object.keys(record).slice(0, walk.itemsPerContainer)) {
    yield* texts(record[key], walk, depth - 1, visits);
  }
}

/** The first texts of a call's arguments looked at by `argumentsHold`, at most this many. */
const MAX_HELD_VALUES = 64;

/**
 * Whether one of the first texts of the call's arguments (within four levels and 64 items of each
 * list or object) holds `name`: the call named what an error speaks of.
 */
export function argumentsHold(args: Readonly<Record<string, unknown>>, name: string): boolean {
  let looked = 0;
  for (const text of argumentTexts(args, { depth: 4, itemsPerContainer: MAX_HELD_VALUES })) {
    if (++looked > MAX_HELD_VALUES) return false;
    if (text.includes(name)) return true;
  }
  return false;
}
