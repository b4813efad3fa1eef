/**
 * Compares the corpus labels with another labelling of the same runs (a calibration set of traces
 * and `labels.jsonl`): runs are matched by their sequence of calls, since the two sets name them
 * differently. Prints the runs whose wasted steps or loop counts differ, then how many agree.
 *
 *     npx tsx scripts/corpus/compare.ts CORPUS_HALF_DIR OTHER_DIR
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseTrace } from '../../src/trace/parse.js';

interface Labels {
  readonly trace: string;
  readonly justified: readonly { readonly step: number }[];
  readonly loops: readonly unknown[];
}

function readLabels(dir: string): Map<string, Labels> {
  const lines = readFileSync(join(dir, 'labels.jsonl'), 'utf8').split('\n').filter((line) => line.trim() !== '');
  return new Map(lines.map((line) => JSON.parse(line) as Labels).map((labels) => [labels.trace, labels]));
}

/**
 * What identifies a run across two conversions: its calls' tools and the start of their arguments,
 * or, when two converters wrote the arguments differently, the tools alone.
 */
function fingerprints(path: string): [string, string] {
  const calls = parseTrace(readFileSync(path, 'utf8')).flatMap((event) => (event.type === 'call' ? [event] : []));
  return [
    calls.map((call) => `${call.tool} ${JSON.stringify(call.args).slice(0, 60)}`).join('\n'),
    calls.map((call) => call.tool).join('\n'),
  ];
}

export function compareLabels(corpusHalf: string, other: string): { agree: number; total: number; lines: string[] } {
  const ours = readLabels(corpusHalf);
  const theirs = readLabels(other);
  const byPrint = new Map<string, string>();
  const byTools = new Map<string, string>();
  for (const name of readdirSync(join(corpusHalf, 'traces'))) {
    const [full, tools] = fingerprints(join(corpusHalf, 'traces', name));
    byPrint.set(full, name);
    if (!byTools.has(tools)) byTools.set(tools, name);
  }
  const lines: string[] = [];
  let agree = 0;
  for (const [trace, labels] of theirs) {
    const [full, tools] = fingerprints(join(other, 'traces', trace));
    const match = byPrint.get(full) ?? byTools.get(tools);
    const mine = match === undefined ? undefined : ours.get(match);
    const steps = (item: Labels) => item.justified.map((wasted) => wasted.step).sort((a, b) => a - b).join(',');
    if (mine && steps(mine) === steps(labels) && mine.loops.length === labels.loops.length) {
      agree++;
      continue;
    }
    lines.push(
      mine
        ? `${trace} (${match}): wasted [${steps(labels)}] vs ours [${steps(mine)}], loops ${labels.loops.length} vs ${mine.loops.length}`
        : `${trace}: no run of the corpus has the same calls`,
    );
  }
  return { agree, total: theirs.size, lines };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [corpusHalf, other] = process.argv.slice(2);
  if (!corpusHalf || !other) {
    process.stderr.write('usage: compare.ts CORPUS_HALF_DIR OTHER_DIR (each with traces/ and labels.jsonl)\n');
    process.exitCode = 2;
  } else {
    const { agree, total, lines } = compareLabels(corpusHalf, other);
    for (const line of lines) process.stdout.write(`${line}\n`);
    process.stdout.write(`labels agree on ${agree} of ${total} runs\n`);
  }
}
