/**
 * Repeated failing calls of a corpus half whose answers still differ once volatile values are
 * masked, and what differs between them, by kind. A failure repeated with an answer that differs
 * only in a fresh id, port or temporary name is never corroborated by the rule on identical
 * failures: this counts how often the recordings show it.
 *
 * Each failing call is compared with the last failure of the same call (same tool and arguments,
 * free text aside) in the same run. The two answers, masked as the engine masks results, are split
 * into words; the words that differ are split at punctuation and each differing part is sorted by
 * its shape: a number, a hex token, a token of letters and digits, a word.
 *
 *     npx tsx scripts/corpus/volatile-repeats.ts CORPUS [--half design] [--examples N]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createToolCallAdapter } from '../../src/adapters/tool-call/index.js';
import { digestResult, identifyCall, maskVolatile, withoutFreeText } from '../../src/core/identity/index.js';
import { recordedCalls } from '../../src/replay/recorded-calls.js';
import { parseTrace } from '../../src/trace/parse.js';

export type PartKind =
  | 'number (1-4 digits)'
  | 'number (5+ digits)'
  | 'memory address'
  | 'hex'
  | 'letters and digits'
  | 'word'
  | 'other';

/** What a differing part looks like. */
export function partKind(part: string): PartKind {
  if (/^\d{1,4}$/.test(part)) return 'number (1-4 digits)';
  if (/^\d+$/.test(part)) return 'number (5+ digits)';
  if (/^0x[0-9a-f]+$/i.test(part)) return 'memory address';
  if (/^[0-9a-f]+$/i.test(part) && /\d/.test(part) && /[a-f]/i.test(part)) return 'hex';
  if (/^[a-z0-9]+$/i.test(part) && /\d/.test(part) && /[a-z]/i.test(part)) return 'letters and digits';
  if (/^[a-z]+$/i.test(part)) return 'word';
  return 'other';
}

const WORDS = /[^\s"'`,;()[\]{}<>=]+/g;
const WHOLE_LINE = /\s/;
const PARTS = /[^/:.\-_@#]+/g;
/** Texts are compared over their first lines only: a long log costs more than it tells. */
const LINE_LIMIT = 5_000;

/** The parts of two words that differ: the word split at punctuation, or the whole words. */
function wordParts(x: string, y: string, pairs: [string, string][]): void {
  const xs = x.match(PARTS) ?? [];
  const ys = y.match(PARTS) ?? [];
  if (xs.length !== ys.length) {
    pairs.push([x, y]);
    return;
  }
  for (let part = 0; part < xs.length; part++)
    if (xs[part] !== ys[part]) pairs.push([xs[part] as string, ys[part] as string]);
}

/** The parts of two lines that differ, or the whole lines when their words do not line up. */
function lineParts(x: string, y: string, pairs: [string, string][]): void {
  const left = x.match(WORDS) ?? [];
  const right = y.match(WORDS) ?? [];
  if (left.length !== right.length) {
    pairs.push([x, y]);
    return;
  }
  for (let index = 0; index < left.length; index++) {
    if (left[index] !== right[index]) wordParts(left[index] as string, right[index] as string, pairs);
  }
}

/**
 * The parts of two masked answers that differ, each as [this one's, the other's]: the lines of each
 * that the other lacks are paired in order and compared word by word; a line without a partner
 * differs as a whole (`[line, '']`).
 */
export function differingParts(a: string, b: string): [string, string][] {
  const counts = new Map<string, number>();
  const left = a.split('\n').slice(0, LINE_LIMIT);
  const right = b.split('\n').slice(0, LINE_LIMIT);
  for (const line of left) counts.set(line, (counts.get(line) ?? 0) + 1);
  for (const line of right) counts.set(line, (counts.get(line) ?? 0) - 1);
  const onlyLeft = left.filter((line) => take(counts, line, 1));
  const onlyRight = right.filter((line) => take(counts, line, -1));
  const pairs: [string, string][] = [];
  const paired = Math.min(onlyLeft.length, onlyRight.length);
  for (let index = 0; index < paired; index++)
    lineParts(onlyLeft[index] as string, onlyRight[index] as string, pairs);
  for (const line of onlyLeft.slice(paired)) pairs.push([line, '']);
  for (const line of onlyRight.slice(paired)) pairs.push(['', line]);
  return pairs;
}

/** Whether `line` is one of those its side has more of, counting it off. */
function take(counts: Map<string, number>, line: string, sign: 1 | -1): boolean {
  const count = counts.get(line) ?? 0;
  if (count * sign <= 0) return false;
  counts.set(line, count - sign);
  return true;
}

/** The kind of one differing pair: the shape both sides share, or `added or removed`, or `mixed`. */
export function pairKind([x, y]: [string, string]): string {
  if (x === '' || y === '') return 'lines added or removed';
  if (WHOLE_LINE.test(x) || WHOLE_LINE.test(y)) return 'lines that differ in their words';
  const a = partKind(x);
  const b = partKind(y);
  return a === b ? a : 'mixed';
}

export interface RepeatTally {
  readonly repeats: number;
  readonly differing: number;
  /** Differing repeats by the kinds of what differs (a repeat counts once under each kind it shows). */
  readonly byKind: Map<string, number>;
  /** Differing repeats by the set of kinds of what differs, joined with ` + `. */
  readonly bySet: Map<string, number>;
  readonly examples: Map<string, string[]>;
}

export function tallyRepeats(corpus: string, half: string, examplesPerKind = 3): RepeatTally {
  const adapter = createToolCallAdapter();
  const byKind = new Map<string, number>();
  const bySet = new Map<string, number>();
  const examples = new Map<string, string[]>();
  let repeats = 0;
  let differing = 0;
  const labels = readFileSync(join(corpus, half, 'labels.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { trace: string });
  for (const { trace } of labels) {
    const events = parseTrace(readFileSync(join(corpus, half, 'traces', trace), 'utf8'), trace);
    const lastFailure = new Map<string, string>();
    for (const { proposal, outcome, failure, text, step } of recordedCalls(events, adapter)) {
      const failed = failure !== undefined || !outcome.success;
      if (!failed) continue;
      const { callKey } = identifyCall(proposal.tool, withoutFreeText(proposal));
      const earlier = lastFailure.get(callKey);
      lastFailure.set(callKey, text);
      if (earlier === undefined) continue;
      repeats++;
      if (digestResult(earlier) === digestResult(text)) continue;
      differing++;
      const pairs = differingParts(maskVolatile(earlier, 'result'), maskVolatile(text, 'result'));
      const kinds = new Set(pairs.map(pairKind));
      if (kinds.size === 0) kinds.add('whitespace or punctuation');
      for (const kind of kinds) byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
      const together = [...kinds].sort().join(' + ');
      bySet.set(together, (bySet.get(together) ?? 0) + 1);
      const list = examples.get(together) ?? [];
      if (list.length < examplesPerKind) {
        const shown = pairs.slice(0, 3).map(([x, y]) => `${JSON.stringify(x.slice(0, 60))} → ${JSON.stringify(y.slice(0, 60))}`);
        list.push(`${trace} step ${step} ${proposal.tool}: ${shown.join(', ')}`);
      }
      examples.set(together, list);
    }
  }
  return { repeats, differing, byKind, bySet, examples };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const argv = process.argv.slice(2);
  const corpus = argv.find((arg, index) => !arg.startsWith('--') && !argv[index - 1]?.startsWith('--'));
  const option = (name: string) => {
    const index = argv.indexOf(name);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  if (corpus === undefined) {
    process.stderr.write(
      'usage: npx tsx scripts/corpus/volatile-repeats.ts CORPUS [--half design] [--examples N]\n',
    );
    process.exitCode = 2;
  } else {
    const tally = tallyRepeats(corpus, option('--half') ?? 'design', Number(option('--examples') ?? 3));
    const lines = [
      `repeated failing calls: ${tally.repeats}; answers that differ after masking: ${tally.differing}`,
      'what differs, by kind (a repeat counts under each kind it shows)',
    ];
    for (const [kind, count] of [...tally.byKind].sort((a, b) => b[1] - a[1]))
      lines.push(`  ${kind.padEnd(34)} ${String(count).padStart(5)}`);
    lines.push('the kinds that differ together, with examples');
    for (const [kinds, count] of [...tally.bySet].sort((a, b) => b[1] - a[1])) {
      lines.push(`  ${String(count).padStart(5)}  ${kinds}`);
      for (const example of tally.examples.get(kinds) ?? []) lines.push(`         ${example.slice(0, 220)}`);
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  }
}
