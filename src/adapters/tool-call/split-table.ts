/**
 * A table of the built-in rules' splits (see `splitRule` in `./matcher.ts`), made when the package is
 * built and read by the matcher in place of splitting them again. Splitting reads every pattern a
 * character at a time and looks for every hint of its rule in each literal run; a fresh process
 * does it before V8 has optimised any of it, and it was most of the CPU of its first failure.
 *
 * An entry is used only for the rule it was made from, same pattern and same hints: a rule whose
 * words changed since the build, or a caller's own, is split as before.
 */
import { BUILT_SPLITS } from './built-splits.js';
import type { SignatureRule } from './signatures.js';

/** One alternative of a rule's pattern, and the hints of which every match of it holds one. */
export interface AlternativeSplit {
  readonly source: string;
  readonly hints: readonly string[];
}

/**
 * One rule: its pattern's source, its hints joined by NUL (what the entry is checked against), where
 * each alternative ends (the next starts after its `|`), and each alternative's hints by their
 * index in the rule's hints.
 */
type Entry = readonly [
  source: string,
  hints: string,
  ends: readonly number[],
  hintIndexes: readonly (readonly number[])[],
];

const HINT_SEPARATOR = '\u0000';

function hintsKey(rule: SignatureRule): string {
  return (rule.hints ?? []).join(HINT_SEPARATOR);
}

/** The table of these rules' splits, as the build writes it (JSON). */
export function encodeSplits(
  rules: readonly SignatureRule[],
  splitRule: (rule: SignatureRule) => readonly AlternativeSplit[],
): string {
  const entries: Entry[] = rules.map((rule) => {
    const hints = rule.hints ?? [];
    const ends: number[] = [];
    const hintIndexes: number[][] = [];
    let at = 0;
    for (const alternative of splitRule(rule)) {
      at += alternative.source.length;
      ends.push(at);
      at += 1;
      hintIndexes.push(alternative.hints.map((hint) => hints.indexOf(hint)));
    }
    return [rule.pattern.source, hintsKey(rule), ends, hintIndexes];
  });
  return JSON.stringify(entries);
}

/** A table's entries by source, read on first use. */
const readTables = new Map<string, ReadonlyMap<string, Entry>>();

function entriesOf(table: string): ReadonlyMap<string, Entry> {
  let entries = readTables.get(table);
  if (entries === undefined) {
    entries = new Map((JSON.parse(table) as Entry[]).map((entry) => [entry[0], entry]));
    readTables.set(table, entries);
  }
  return entries;
}

/** The rule's split as the table holds it; undefined when it holds none for this very rule. */
export function readSplit(table: string | undefined, rule: SignatureRule): AlternativeSplit[] | undefined {
  if (table === undefined) return undefined;
  const source = rule.pattern.source;
  const entry = entriesOf(table).get(source);
  if (entry === undefined || entry[1] !== hintsKey(rule)) return undefined;
  const hints = rule.hints ?? [];
  const [, , ends, hintIndexes] = entry;
  const split: AlternativeSplit[] = [];
  let start = 0;
  for (let index = 0; index < ends.length; index++) {
    const end = ends[index] as number;
    split.push({
      source: source.slice(start, end),
      hints: (hintIndexes[index] as readonly number[]).map((hint) => hints[hint] as string),
    });
    start = end + 1;
  }
  return split;
}

/** The split the build worked out for a built-in rule. */
export function builtSplitOf(rule: SignatureRule): AlternativeSplit[] | undefined {
  return readSplit(BUILT_SPLITS, rule);
}
