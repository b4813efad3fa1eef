/**
 * Which of a set of literal hints occur in a text, in one pass over it: an Aho–Corasick automaton
 * with its transitions laid out as one table, so that each character costs a table read whatever
 * the number of hints. A regular expression with hundreds of alternatives, which this replaces,
 * costs tens of nanoseconds a character; the automaton a few.
 *
 * Hints are compared code unit by code unit, as a regular expression without flags compares them:
 * callers fold case themselves.
 */
import { type Automaton, builtAutomaton, layAllRows, layRow, stateTable } from './hint-table.js';

/** Hints found in one text, by their number in the list the scanner was built from. */
export interface HintsFound {
  /** How many distinct hints were found. */
  readonly count: number;
  /** The numbers of the hints found, the first `count` entries. */
  readonly hints: Uint32Array;
}

/**
 * How much text a scanner reads while laying out its automaton's rows on demand: about the failures
 * of a short session. Laying out the rest costs what scanning this much costs asking for rows.
 */
const CHARS_SCANNED_LAYING_ROWS = 256 * 1024;

/** The state after a character beyond ASCII that some hint holds, by its number. */
function stepOther(
  automaton: Pick<Automaton, 'otherChild' | 'otherNumber' | 'failure'>,
  from: number,
  number: number,
): number {
  const others = automaton.otherNumber.size + 1;
  for (let state = from; ; state = automaton.failure[state] as number) {
    const child = automaton.otherChild.get(state * others + number);
    if (child !== undefined) return child;
    if (state === 0) return 0;
  }
}

/** The automaton that finds these hints. */
export function buildAutomaton(hints: readonly string[]): Automaton {
  const column = new Uint8Array(128);
  const otherNumber = new Map<number, number>();
  let width = 1;
  let characters = 0;
  for (const hint of hints) {
    characters += hint.length;
    for (let index = 0; index < hint.length; index++) {
      const code = hint.charCodeAt(index);
      if (code < 128) {
        if (column[code] === 0) column[code] = width++;
      } else if (!otherNumber.has(code)) {
        otherNumber.set(code, otherNumber.size + 1);
      }
    }
  }
  const others = otherNumber.size + 1;
  // The trie is laid straight into the table, its ASCII children in their state's row, rather
  // than in a map per state: a fresh process builds this once, mostly before V8 has optimised any
  // of it, and thousands of maps cost it tens of milliseconds. No hint holds more states than
  // characters, so the arrays are sized for that many and cut to the states made.
  const bound = characters + 1;
  let next = stateTable(bound, bound * width);
  const ending = new Uint32Array(bound);
  const otherChild = new Map<number, number>();
  // Each state's children as a list (first child, next sibling), with the column each is reached
  // by, or minus the number of its character beyond ASCII.
  const firstChild = new Int32Array(bound).fill(-1);
  const sibling = new Int32Array(bound);
  const reachedBy = new Int32Array(bound);
  let states = 1;
  for (let number = 0; number < hints.length; number++) {
    const hint = hints[number] as string;
    let state = 0;
    for (let index = 0; index < hint.length; index++) {
      const code = hint.charCodeAt(index);
      let child: number | undefined;
      let by: number;
      if (code < 128) {
        by = column[code] as number;
        child = next[state * width + by] as number;
        if (child === 0) {
          child = states++;
          next[state * width + by] = child;
        } else {
          state = child;
          continue;
        }
      } else {
        const other = otherNumber.get(code) as number;
        by = -other;
        child = otherChild.get(state * others + other);
        if (child === undefined) {
          child = states++;
          otherChild.set(state * others + other, child);
        } else {
          state = child;
          continue;
        }
      }
      reachedBy[child] = by;
      sibling[child] = firstChild[state] as number;
      firstChild[state] = child;
      state = child;
    }
    if (hint.length > 0 && ending[state] === 0) ending[state] = number + 1;
  }
  if (states < bound) next = next.slice(0, states * width);
  const failure = stateTable(bound, states);
  const shorterEnd = stateTable(bound, states);
  const links = { otherChild, otherNumber, failure };
  // Breadth first, so that every state's failure is complete before its children need it. A
  // state's row takes its failure's row, complete by then, and its own children over it.
  const queue = new Uint32Array(states);
  let tail = 1;
  for (let head = 0; head < tail; head++) {
    const state = queue[head] as number;
    const fallback = failure[state] as number;
    if (state !== 0) {
      shorterEnd[state] = ending[fallback] !== 0 ? fallback : (shorterEnd[fallback] as number);
      next.copyWithin(state * width, fallback * width, fallback * width + width);
    }
    for (let child = firstChild[state] as number; child >= 0; child = sibling[child] as number) {
      const by = reachedBy[child] as number;
      if (by >= 0) {
        failure[child] = state === 0 ? 0 : (next[fallback * width + by] as number);
        next[state * width + by] = child;
      } else {
        failure[child] = state === 0 ? 0 : stepOther(links, fallback, -by);
      }
      queue[tail++] = child;
    }
  }
  const endsHere = ending.slice(0, states);
  const reportFrom = stateTable(bound, states);
  for (let state = 0; state < states; state++) {
    reportFrom[state] = endsHere[state] !== 0 ? state : (shorterEnd[state] as number);
  }
  const laid = new Uint8Array(states).fill(1);
  return { column, width, next, otherChild, otherNumber, failure, endsHere, shorterEnd, reportFrom, laid };
}

export class HintScanner {
  readonly hints: readonly string[];
  /** The automaton the scanner runs, to be written down as a table (see `./hint-table.ts`). */
  readonly automaton: Automaton;
  private readonly seen: Uint8Array;
  private readonly found: Uint32Array;
  /**
   * Characters still to be scanned before every row of the automaton is laid out, while some are
   * not (see `automatonFromTable`): a short process lays out only the rows its texts reach, and a
   * long one, once it has scanned this much, lays out the rest and scans without asking whether a
   * row is there (about a quarter less time per character).
   */
  private charsBeforeLayingAll: number;

  /** `automaton` must be the one these hints make: by default, it is made here. */
  constructor(hints: readonly string[], automaton: Automaton = buildAutomaton(hints)) {
    this.hints = hints;
    this.automaton = automaton;
    this.seen = new Uint8Array(hints.length);
    this.found = new Uint32Array(hints.length);
    this.charsBeforeLayingAll = automaton.laid.includes(0) ? CHARS_SCANNED_LAYING_ROWS : 0;
  }

  /**
   * The distinct hints that occur in `text`. The result is reused by the next scan: read it first.
   * Scanning is synchronous, so one scanner serves every caller.
   */
  scan(text: string): HintsFound {
    if (this.charsBeforeLayingAll > 0) {
      this.charsBeforeLayingAll -= text.length;
      if (this.charsBeforeLayingAll > 0) return this.scanLaying(text);
      layAllRows(this.automaton);
    }
    const { seen, found, automaton } = this;
    const { column, width, next, otherNumber, endsHere, shorterEnd, reportFrom } = automaton;
    let count = 0;
    let state = 0;
    for (let index = 0; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (code < 128) {
        state = next[state * width + (column[code] as number)] as number;
      } else {
        const number = otherNumber.get(code);
        state = number === undefined ? 0 : stepOther(automaton, state, number);
      }
      for (let at = reportFrom[state] as number; at !== 0; ) {
        const hint = (endsHere[at] as number) - 1;
        if (seen[hint] === 0) {
          seen[hint] = 1;
          found[count++] = hint;
        }
        at = shorterEnd[at] as number;
      }
    }
    for (let index = 0; index < count; index++) seen[found[index] as number] = 0;
    return { count, hints: found };
  }

  /** `scan` over an automaton whose rows are laid out as its states are first reached. */
  private scanLaying(text: string): HintsFound {
    const { seen, found, automaton } = this;
    const { column, width, next, otherNumber, endsHere, shorterEnd, reportFrom, laid } = automaton;
    let count = 0;
    let state = 0;
    for (let index = 0; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (code < 128) {
        state = next[state * width + (column[code] as number)] as number;
      } else {
        const number = otherNumber.get(code);
        state = number === undefined ? 0 : stepOther(automaton, state, number);
      }
      // Laid out as it is reached: the hints it reports are worked out with its row.
      if (laid[state] === 0) layRow(automaton, state);
      for (let at = reportFrom[state] as number; at !== 0; ) {
        const hint = (endsHere[at] as number) - 1;
        if (seen[hint] === 0) {
          seen[hint] = 1;
          found[count++] = hint;
        }
        at = shorterEnd[at] as number;
      }
    }
    for (let index = 0; index < count; index++) seen[found[index] as number] = 0;
    return { count, hints: found };
  }
}

let lastBuilt: { readonly key: string; readonly scanner: HintScanner } | undefined;

/**
 * A scanner for these hints, made once for every matcher that looks for the same ones (every
 * adapter without patterns of its own looks for the built-in hints): from the build's table when it
 * holds one for them, else built here. `key` is the hints joined by NUL, when the caller has it.
 */
export function hintScannerFor(hints: readonly string[], key = hints.join('\u0000')): HintScanner {
  if (lastBuilt?.key === key) return lastBuilt.scanner;
  const scanner = new HintScanner(hints, builtAutomaton(key));
  lastBuilt = { key, scanner };
  return scanner;
}
