/**
 * A hint scanner's automaton written down as a table, so that the build can ship the built-in
 * scanner ready-made (see `./built-scanner.ts`): a fresh process then lays it out in one pass over
 * its states instead of building the trie a character at a time and finding every failure link,
 * which was most of the CPU of its first failure, much of it spent by V8 optimising the build's
 * loops while they ran.
 *
 * The table renumbers the states breadth first, so that each state's children follow one another
 * and every state comes after its failure, and gives for each state its failure, what it is reached
 * by (a column, or minus the number of a character beyond ASCII), how many children it has and the
 * hint that ends at it (plus one). The rest follows: a state's row of transitions is its failure's
 * row with its own children over it, as `buildAutomaton` makes it.
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
}

type Table = readonly [
  width: number,
  column: readonly number[],
  /** The characters beyond ASCII that some hint holds, in the order of their numbers. */
  others: readonly number[],
  failure: readonly number[],
  reachedBy: readonly number[],
  children: readonly number[],
  endsHere: readonly number[],
];

/** A table of state numbers, as small as the number of states allows. */
export function stateTable(states: number, length: number): Uint16Array | Uint32Array {
  return states <= 0xffff ? new Uint16Array(length) : new Uint32Array(length);
}

/** The table of the automaton that `hints` make (JSON). */
export function encodeAutomaton(hints: readonly string[], automaton: Automaton): string {
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
  const table: Table = [
    width,
    Array.from(column),
    [...otherNumber.keys()],
    order.map((state) => renumbered[failure[state] as number] as number),
    order.map((state) => reachedBy[state] as number),
    order.map((state) => (children[state] as number[]).length),
    order.map((state) => endsHere[state] as number),
  ];
  return JSON.stringify(table);
}

/** The automaton a table holds, laid out. */
export function automatonFromTable(text: string): Automaton {
  const [width, columns, otherCodes, failures, reachedBy, children, ends] = JSON.parse(text) as Table;
  const states = failures.length;
  const others = otherCodes.length + 1;
  const otherChild = new Map<number, number>();
  const next = stateTable(states, states * width);
  const failure = stateTable(states, states);
  failure.set(failures);
  const endsHere = Uint32Array.from(ends);
  const shorterEnd = stateTable(states, states);
  const reportFrom = stateTable(states, states);
  let child = 1;
  for (let state = 0; state < states; state++) {
    const fallback = failure[state] as number;
    if (state !== 0) {
      shorterEnd[state] = endsHere[fallback] !== 0 ? fallback : (shorterEnd[fallback] as number);
      next.copyWithin(state * width, fallback * width, fallback * width + width);
    }
    reportFrom[state] = endsHere[state] !== 0 ? state : (shorterEnd[state] as number);
    for (let count = children[state] as number; count > 0; count--, child++) {
      const by = reachedBy[child] as number;
      if (by >= 0) next[state * width + by] = child;
      else otherChild.set(state * others - by, child);
    }
  }
  return {
    column: Uint8Array.from(columns),
    width,
    next,
    otherChild,
    otherNumber: new Map(otherCodes.map((code, index) => [code, index + 1])),
    failure,
    endsHere,
    shorterEnd,
    reportFrom,
  };
}

/** The build's automaton for these hints (joined by NUL); undefined when it holds none for them. */
export function builtAutomaton(hintsKey: string): Automaton | undefined {
  return BUILT_SCANNER !== undefined && BUILT_SCANNER.hints === hintsKey
    ? automatonFromTable(BUILT_SCANNER.table)
    : undefined;
}
