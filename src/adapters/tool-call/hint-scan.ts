/**
 * Which of a set of literal hints occur in a text, in one pass over it: an Aho–Corasick automaton
 * with its transitions laid out as one table, so that each character costs a table read whatever
 * the number of hints. A regular expression with hundreds of alternatives, which this replaces,
 * costs tens of nanoseconds a character; the automaton a few.
 *
 * Hints are compared code unit by code unit, as a regular expression without flags compares them:
 * callers fold case themselves.
 */

/** Hints found in one text, by their number in the list the scanner was built from. */
export interface HintsFound {
  /** How many distinct hints were found. */
  readonly count: number;
  /** The numbers of the hints found, the first `count` entries. */
  readonly hints: Uint32Array;
}

export class HintScanner {
  readonly hints: readonly string[];
  /** ASCII character code to its column in `next`; 0 for characters no hint holds. */
  private readonly column: Uint8Array;
  private readonly width: number;
  /** `next[state * width + column]`: the state after an ASCII character, failures folded in. */
  private readonly next: Uint16Array | Uint32Array;
  /** Other characters, rare in hints and texts alike, go down the failure links instead. */
  private readonly otherChild: ReadonlyMap<number, number>;
  /** Number of each character beyond ASCII that some hint holds, plus one. */
  private readonly otherNumber: ReadonlyMap<number, number>;
  private readonly failure: Uint16Array | Uint32Array;
  /** The hint that ends at a state, plus one; 0 when none does. */
  private readonly endsHere: Uint32Array;
  /** The nearest shorter state, down the failure links, at which a hint ends; 0 (the root) for none. */
  private readonly shorterEnd: Uint16Array | Uint32Array;
  /**
   * The first state to report hints from on reaching a state: itself when a hint ends there, else
   * its `shorterEnd`. Most states report none (0), and the scan then reads this one entry only.
   */
  private readonly reportFrom: Uint16Array | Uint32Array;
  private readonly seen: Uint8Array;
  private readonly found: Uint32Array;

  constructor(hints: readonly string[]) {
    this.hints = hints;
    const column = new Uint8Array(128);
    const otherNumber = new Map<number, number>();
    let width = 1;
    for (const hint of hints) {
      for (let index = 0; index < hint.length; index++) {
        const code = hint.charCodeAt(index);
        if (code < 128) {
          if (column[code] === 0) column[code] = width++;
        } else if (!otherNumber.has(code)) {
          otherNumber.set(code, otherNumber.size + 1);
        }
      }
    }
    // The trie, children by character code.
    const children: Map<number, number>[] = [new Map()];
    const ending: number[] = [0];
    hints.forEach((hint, number) => {
      let state = 0;
      for (let index = 0; index < hint.length; index++) {
        const code = hint.charCodeAt(index);
        const map = children[state] as Map<number, number>;
        let child = map.get(code);
        if (child === undefined) {
          child = children.length;
          children.push(new Map());
          ending.push(0);
          map.set(code, child);
        }
        state = child;
      }
      if (hint.length > 0 && ending[state] === 0) ending[state] = number + 1;
    });
    const states = children.length;
    const small = states <= 0xffff;
    const table = (length: number) => (small ? new Uint16Array(length) : new Uint32Array(length));
    const next = table(states * width);
    const failure = table(states);
    const shorterEnd = table(states);
    const otherChild = new Map<number, number>();
    const others = otherNumber.size + 1;
    this.column = column;
    this.width = width;
    this.next = next;
    this.otherChild = otherChild;
    this.otherNumber = otherNumber;
    this.failure = failure;
    // Breadth first, so that every state's failure is complete before its children need it.
    const queue: number[] = [0];
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head] as number;
      const fallback = failure[state] as number;
      if (state !== 0) {
        shorterEnd[state] = ending[fallback] !== 0 ? fallback : (shorterEnd[fallback] as number);
        next.copyWithin(state * width, fallback * width, fallback * width + width);
      }
      for (const [code, child] of children[state] as Map<number, number>) {
        if (code < 128) {
          failure[child] = state === 0 ? 0 : (next[fallback * width + (column[code] as number)] as number);
          next[state * width + (column[code] as number)] = child;
        } else {
          const number = otherNumber.get(code) as number;
          failure[child] = state === 0 ? 0 : this.stepOther(fallback, number);
          otherChild.set(state * others + number, child);
        }
        queue.push(child);
      }
    }
    this.endsHere = Uint32Array.from(ending);
    this.shorterEnd = shorterEnd;
    const reportFrom = table(states);
    for (let state = 0; state < states; state++) {
      reportFrom[state] = ending[state] !== 0 ? state : (shorterEnd[state] as number);
    }
    this.reportFrom = reportFrom;
    this.seen = new Uint8Array(hints.length);
    this.found = new Uint32Array(hints.length);
  }

  /** The state after a character beyond ASCII that some hint holds, by its number. */
  private stepOther(from: number, number: number): number {
    const others = this.otherNumber.size + 1;
    for (let state = from; ; state = this.failure[state] as number) {
      const child = this.otherChild.get(state * others + number);
      if (child !== undefined) return child;
      if (state === 0) return 0;
    }
  }

  /**
   * The distinct hints that occur in `text`. The result is reused by the next scan: read it first.
   * Scanning is synchronous, so one scanner serves every caller.
   */
  scan(text: string): HintsFound {
    const { column, width, next, otherNumber, endsHere, shorterEnd, reportFrom, seen, found } = this;
    let count = 0;
    let state = 0;
    for (let index = 0; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (code < 128) {
        state = next[state * width + (column[code] as number)] as number;
      } else {
        const number = otherNumber.get(code);
        state = number === undefined ? 0 : this.stepOther(state, number);
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
}

let lastBuilt: { readonly key: string; readonly scanner: HintScanner } | undefined;

/**
 * A scanner for these hints, built once for every matcher that looks for the same ones (every
 * adapter without patterns of its own looks for the built-in hints).
 */
export function hintScannerFor(hints: readonly string[]): HintScanner {
  const key = hints.join('\u0000');
  if (lastBuilt?.key === key) return lastBuilt.scanner;
  const scanner = new HintScanner(hints);
  lastBuilt = { key, scanner };
  return scanner;
}
