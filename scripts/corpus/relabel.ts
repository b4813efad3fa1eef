/**
 * Labels one half of a built corpus again from its traces, with this version's labeller, without
 * fetching or converting anything: for measuring what a change of the labelling rules does.
 *
 *     npx tsx scripts/corpus/relabel.ts DIR HALF
 *
 * Rewrites `DIR/HALF/labels.jsonl`, each run keeping its half, source and agent; the traces are
 * read, never written. Run it on a copy of a corpus when the labels others measure against must stay.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseTrace } from '../../src/trace/index.js';
import { labelRun } from './label.js';

interface LabelLine {
  readonly half: string;
  readonly source: string;
  readonly agent: string;
  readonly trace: string;
}

/** The labels file's text for the runs `labels` lists, each labelled again from `traceText(run)`. */
export function relabelText(labels: string, traceText: (trace: string) => string): string {
  const lines = labels
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as LabelLine);
  const out = lines.map(({ half, source, agent, trace }) =>
    JSON.stringify({ half, source, agent, ...labelRun(trace, parseTrace(traceText(trace), trace)) }),
  );
  return out.length > 0 ? `${out.join('\n')}\n` : '';
}

function main(argv: readonly string[]): void {
  const [dir, half] = argv;
  if (!dir || !half) throw new Error('usage: relabel.ts DIR HALF (a built corpus and one of its halves)');
  const file = join(dir, half, 'labels.jsonl');
  const text = relabelText(readFileSync(file, 'utf8'), (trace) =>
    readFileSync(join(dir, half, 'traces', trace), 'utf8'),
  );
  writeFileSync(file, text);
  const loops = text
    .split('\n')
    .filter((line) => line !== '')
    .reduce((sum, line) => sum + (JSON.parse(line) as { loops: unknown[] }).loops.length, 0);
  process.stdout.write(`${file}: ${text.split('\n').length - 1} runs, ${loops} loops\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) main(process.argv.slice(2));
