/**
 * A hint scanner's automaton written down as a table, so that the build can ship the built-in
 * scanner ready-made (see `./built-scanner.ts`): a fresh process then reads it instead of building
 * the trie a character at a time and finding every failure link, which was most of the CPU of its
 * first failure, much of it spent by V8 optimising the build's loops while they ran. It lays out the
 * rows of transitions of the states its texts reach only, as they are reached (`layRow`).
 *
 * The table renumbers the states breadth first, so that each state's children follow one another
 * and every state comes after its failure, and gives for each state its failure, what it is reached
 * by (a column, or minus the number of a character beyond ASCII), where its children start and the
 * hint that ends at it (plus one), and the children reached by characters beyond ASCII. The rest
 * follows, state by state as each row is laid out: a state's row of transitions is its failure's
 * row with its own children over it, as `buildAutomaton` makes it, and the hints it reports are
 * its own and its failure's. Reading a table runs no loop over its states: one that did, run once
 * by a fresh process, cost it more in V8 optimising the loop while it ran than in running it.
 */
import { BUILT_SCANNER } from './built-scanner.js';

/**
 * The automaton a scanner runs: its transition table and what tells it which hints end where. Made
 * from the hints (`buildAutomaton` in `./hint-scan.ts`) or read from a table the build made (below).
 */
export interface Automaton {
  /** ASCII character code to its column in `next`; 0 for characters no hint holds. */
  readonly column: Uint8Array;
  readonly width: number;
  /** `next[state * width + column]`: the state after an ASCII character, failures folded in. */
  readonly next: Uint16Array | Uint32Array;
  /** Other characters, rare in hints and texts alike, go down the failure links instead. */
  readonly otherChild: ReadonlyMap<number, number>;
  /** Number of each character beyond ASCII that some hint holds, plus one. */
  readonly otherNumber: ReadonlyMap<number, number>;
  readonly failure: Uint16Array | Uint32Array;
  /** The hint that ends at a state, plus one; 0 when none does. */
  readonly endsHere: Uint32Array;
  /** The nearest shorter state, down the failure links, at which a hint ends; 0 (the root) for none. */
  readonly shorterEnd: Uint16Array | Uint32Array;
  /**
   * The first state to report hints from on reaching a state: itself when a hint ends there, else
   * its `shorterEnd`. Most states report none (0), and the scan then reads this one entry only.
   */
  readonly reportFrom: Uint16Array | Uint32Array;
  /**
   * Whether a state's row of `next`, its `shorterEnd` and its `reportFrom` are laid out (1) or still
   * to be (0): every row of an automaton made from the hints is; a table's rows are laid out as
   * scans first reach their states (see `layRow`), so that a process pays for the few hundred states
   * its texts visit, not for all.
   */
  readonly laid: Uint8Array;
  /** What laying out a table's rows reads; absent when every row is laid out. */
  readonly unlaid?: UnlaidRows;
}

/**
 * A table's trie edges and failures, kept to lay out the rows of `next` on demand: one character
 * (UTF-16 unit) per number, read where a row is laid out, so that reading a table parses none of them.
 * From `UNIT_OFFSET` on: each state's failure, then each state's `reachedBy` (a column, or minus the
 * number of a character beyond ASCII, plus `others`), then each state's first child and after the
 * last state one past the last child (a state's children follow one another, in the table's
 * numbering, up to the next state's first).
 */
interface UnlaidRows {
  readonly units: string;
  readonly states: number;
  /** How many characters beyond ASCII some hint holds: what `reachedBy` is written plus. */
  readonly others: number;
}

/** What a number is written plus, as one character: small numbers are printable characters. */
const UNIT_OFFSET = 0x30;
/** The last character a number is written as: the surrogates that follow cannot stand alone in a file. */
const LAST_UNIT = 0xd7ff;

/** The table's lists, before its line of characters (see `UnlaidRows`). */
type Table = readonly [
  width: number,
  column: readonly number[],
  /** The characters beyond ASCII that some hint holds, in the order of their numbers. */
  others: readonly number[],
  endsHere: readonly number[],
  /** The children reached by characters beyond ASCII, as `otherChild` holds them: key, child, key… */
  otherChildren: readonly number[],
];

/** Numbers written as one character each (see `UnlaidRows`). */
function asUnits(numbers: readonly number[]): string {
  let text = '';
  for (let from = 0; from < numbers.length; from += 4096) {
    const chunk = numbers.slice(from, from + 4096).map((number) => {
      if (number < 0 || number + UNIT_OFFSET > LAST_UNIT)
        throw new RangeError(`the hint scanner's table cannot hold ${number} as one character`);
      return number + UNIT_OFFSET;
    });
    text += String.fromCharCode(...chunk);
  }
  return text;
}

/** A table of state numbers, as small as the number of states allows. */
export function stateTable(states: number, length: number): Uint16Array | Uint32Array {
  return states <= 0xffff ? new Uint16Array(length) : new Uint32Array(length);
}

/** The table of the automaton that `hints` make (JSON). */
export function encodeAutomaton(hints: readonly string[], automaton: Automaton): string {
  layAllRows(automaton);
  const { column, width, next, otherChild, otherNumber, failure, endsHere } = automaton;
  const states = endsHere.length;
  const others = otherNumber.size + 1;
  const parent = new Int32Array(states);
  const reachedBy = new Int32Array(states);
  // Every state is on the path of some hint, and along that path each step is the trie's own edge.
  for (const hint of hints) {
    let state = 0;
    for (let index = 0; index < hint.length; index++) {
      const code = hint.charCodeAt(index);
      let child: number;
      let by: number;
      if (code < 128) {
        by = column[code] as number;
        child = next[state * width + by] as number;
      } else {
        const number = otherNumber.get(code) as number;
        by = -number;
        child = otherChild.get(state * others + number) as number;
      }
      parent[child] = state;
      reachedBy[child] = by;
      state = child;
    }
  }
  const children: number[][] = Array.from({ length: states }, () => []);
  for (let state = 1; state < states; state++) children[parent[state] as number]?.push(state);
  const order = [0];
  const renumbered = new Int32Array(states);
  for (let head = 0; head < order.length; head++) {
    for (const child of children[order[head] as number] ?? []) {
      renumbered[child] = order.length;
      order.push(child);
    }
  }
  const firstChild: number[] = [];
  const otherChildren: number[] = [];
  let first = 1;
  for (const [at, state] of order.entries()) {
    firstChild.push(first);
    for (const child of children[state] as number[]) {
      if ((reachedBy[child] as number) < 0)
        otherChildren.push(at * others - (reachedBy[child] as number), first);
      first++;
    }
  }
  firstChild.push(first);
  const table: Table = [
    width,
    Array.from(column),
    [...otherNumber.keys()],
    order.map((state) => endsHere[state] as number),
    otherChildren,
  ];
  const units = asUnits([
    ...order.map((state) => renumbered[failure[state] as number] as number),
    ...order.map((state) => (reachedBy[state] as number) + otherNumber.size),
    ...firstChild,
  ]);
  // JSON writes no line break of its own: the first one ends the lists.
  return `${JSON.stringify(table)}\n${units}`;
}

/**
 * The automaton a table holds. Only the root's row of transitions is laid out here; each other row
 * is laid out when a scan first reaches its state (`layRow`). Laying out all of them (seven thousand
 * rows for the built-in hints) was most of the CPU of a fresh process's first failure, while its
 * texts visit a few hundred states. The hints that end at each state are copied whole into a typed
 * array, and each state's failure is read with its row: no loop here runs over the states, and the
 * numbers read only with a row are not parsed.
 */
export function automatonFromTable(text: string): Automaton {
  const listsEnd = text.indexOf('\n');
  const [width, columns, otherCodes, ends, otherChildren] = JSON.parse(text.slice(0, listsEnd)) as Table;
  const states = ends.length;
  const otherChild = new Map<number, number>();
  for (let at = 0; at < otherChildren.length; at += 2)
    otherChild.set(otherChildren[at] as number, otherChildren[at + 1] as number);
  const endsHere = new Uint32Array(states);
  endsHere.set(ends);
  const automaton: Automaton = {
    column: Uint8Array.from(columns),
    width,
    next: stateTable(states, states * width),
    otherChild,
    otherNumber: new Map(otherCodes.map((code, index) => [code, index + 1])),
    failure: stateTable(states, states),
    endsHere,
    shorterEnd: stateTable(states, states),
    reportFrom: stateTable(states, states),
    laid: new Uint8Array(states),
    unlaid: { units: text.slice(listsEnd + 1), states, others: otherCodes.length },
  };
  layRow(automaton, 0);
  return automaton;
}

/**
 * Lays out a state's row of transitions, and where it reports hints from: its failure's row (laid
 * out first, down the failure links, which lead to ever shorter states) with its own children over
 * it, as `buildAutomaton` makes it.
 */
export function layRow(automaton: Automaton, state: number): void {
  const { unlaid, laid, next, width, endsHere, shorterEnd } = automaton;
  if (unlaid === undefined || laid[state] === 1) return;
  const { units, states, others } = unlaid;
  if (state !== 0) {
    const fallback = units.charCodeAt(state) - UNIT_OFFSET;
    automaton.failure[state] = fallback;
    if (laid[fallback] === 0) layRow(automaton, fallback);
    next.copyWithin(state * width, fallback * width, fallback * width + width);
    shorterEnd[state] = endsHere[fallback] !== 0 ? fallback : (shorterEnd[fallback] as number);
  }
  automaton.reportFrom[state] = endsHere[state] !== 0 ? state : (shorterEnd[state] as number);
  const end = units.charCodeAt(2 * states + state + 1) - UNIT_OFFSET;
  for (let child = units.charCodeAt(2 * states + state) - UNIT_OFFSET; child < end; child++) {
    const by = units.charCodeAt(states + child) - UNIT_OFFSET - others;
    if (by >= 0) next[state * width + by] = child;
  }
  laid[state] = 1;
}

/** Lays out every row not laid out yet. */
export function layAllRows(automaton: Automaton): void {
  for (let state = 0; state < automaton.laid.length; state++) layRow(automaton, state);
}

/** The build's automaton for these hints (joined by NUL); undefined when it holds none for them. */
export function builtAutomaton(hintsKey: string): Automaton | undefined {
  return BUILT_SCANNER !== undefined && BUILT_SCANNER.hints === hintsKey
    ? automatonFromTable(BUILT_SCANNER.table)
    : undefined;
}
