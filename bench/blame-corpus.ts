/**
 * The blame corpus's figures, both halves side by side: `npm run results -- --blame-corpus DIR`, or
 * directly `npx tsx bench/blame-corpus.ts DIR` after `npm run build`. DIR holds `design.jsonl` and
 * `validation.jsonl`, written by `scripts/blame-corpus/build.py` (the texts are other people's and
 * stay out of the repository). Each entry is read by the built tool-call adapter twice: as a harness
 * sees the call (its arguments and exit status) and from the error text alone (as the calibration
 * scorer asks). `ambiguous` entries are not scored. Poison is an environment's failure blamed on the
 * agent (a ban learned from it blocks legitimate work); missed is an agent's failure blamed on nobody
 * or on the environment (nothing is learned).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Blame } from '../src/core/types.js';
import { runAsScript } from './script.js';

export const BLAME_HALVES = ['design', 'validation'] as const;
export type BlameHalf = (typeof BLAME_HALVES)[number];

/** The target of the judgement issue, for the validation half. */
export const BLAME_TARGET = { accuracy: 0.97, poison: 0 } as const;

export interface BlameEntry {
  readonly text: string;
  readonly tool?: string;
  readonly args?: Record<string, unknown>;
  readonly exitCode?: number;
  readonly blame: Blame | 'ambiguous';
  readonly deterministic: boolean;
  readonly category: string;
  readonly source: string;
}

/** How a build reads one entry: `asScored` gives it the text alone, otherwise the whole call. */
export type BlameReader = (entry: BlameEntry, asScored: boolean) => Blame;

export interface BlameFigures {
  readonly scored: number;
  readonly correct: number;
  readonly poison: readonly BlameEntry[];
  readonly missed: readonly BlameEntry[];
  readonly wrong: readonly { readonly entry: BlameEntry; readonly product: Blame }[];
}

export function blameCorpusPresent(dir: string | undefined): dir is string {
  return (
    dir !== undefined && dir !== '' && BLAME_HALVES.every((half) => existsSync(join(dir, `${half}.jsonl`)))
  );
}

/** One half's entries; a line that is not an entry is an error naming the file and line. */
export function readBlameHalf(dir: string, half: BlameHalf): BlameEntry[] {
  const file = join(dir, `${half}.jsonl`);
  const entries: BlameEntry[] = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      if (line.trim() === '') return;
      const entry = JSON.parse(line) as Partial<BlameEntry>;
      if (typeof entry.text !== 'string' || typeof entry.blame !== 'string') {
        throw new Error(`${file}:${index + 1}: an entry needs "text" and "blame"`);
      }
      entries.push(entry as BlameEntry);
    });
  return entries;
}

export function measureBlame(
  entries: readonly BlameEntry[],
  read: BlameReader,
  asScored: boolean,
): BlameFigures {
  const scored = entries.filter((entry) => entry.blame !== 'ambiguous');
  const wrong: { entry: BlameEntry; product: Blame }[] = [];
  for (const entry of scored) {
    const product = read(entry, asScored);
    if (product !== entry.blame) wrong.push({ entry, product });
  }
  return {
    scored: scored.length,
    correct: scored.length - wrong.length,
    poison: wrong
      .filter((item) => item.entry.blame === 'harness_fault' && item.product === 'agent_failure')
      .map((item) => item.entry),
    missed: wrong
      .filter((item) => item.entry.blame === 'agent_failure' && item.product !== 'agent_failure')
      .map((item) => item.entry),
    wrong,
  };
}

type ToolCallModule = Pick<
  typeof import('../src/adapters/tool-call/index.js'),
  'createToolCallAdapter' | 'toolCallToOutcome'
>;

/**
 * A build's reading of an entry. From the text alone, the failure is given as the calibration scorer
 * gives it (no arguments, no exit status); otherwise with the call's arguments and exit status.
 */
export function blameReaderOf(toolCall: ToolCallModule): BlameReader {
  const adapter = toolCall.createToolCallAdapter();
  return (entry, asScored) => {
    const tool = entry.tool ?? 'some_tool';
    const outcome = asScored
      ? toolCall.toolCallToOutcome(tool, {}, { success: false, error: entry.text })
      : toolCall.toolCallToOutcome(
          tool,
          entry.args ?? {},
          { success: false, error: entry.text },
          entry.exitCode === undefined ? {} : { exitCode: entry.exitCode },
        );
    return adapter.describeFailure(outcome, adapter.describeCall(outcome.proposal))?.blame ?? 'unknown';
  };
}

/** The built adapter's reading, loaded from `dist/` as a user of the package would. */
export async function loadBuiltBlameReader(root: string): Promise<BlameReader> {
  const entry = join(root, 'dist', 'adapters', 'tool-call', 'index.js');
  if (!existsSync(entry)) throw new Error(`no built guard in ${join(root, 'dist')}: run npm run build first`);
  return blameReaderOf((await import(pathToFileURL(entry).href)) as ToolCallModule);
}

export interface BlameCorpusScore {
  readonly halves: Readonly<Record<BlameHalf, { readonly call: BlameFigures; readonly text: BlameFigures }>>;
}

export async function scoreBlameCorpus(dir: string, root: string): Promise<BlameCorpusScore> {
  const read = await loadBuiltBlameReader(root);
  const halves = {} as Record<BlameHalf, { call: BlameFigures; text: BlameFigures }>;
  for (const half of BLAME_HALVES) {
    const entries = readBlameHalf(dir, half);
    halves[half] = { call: measureBlame(entries, read, false), text: measureBlame(entries, read, true) };
  }
  return { halves };
}

function cell(figures: BlameFigures): string {
  const percent = figures.scored === 0 ? '—' : `${((100 * figures.correct) / figures.scored).toFixed(1)}%`;
  return `${figures.correct}/${figures.scored} (${percent}), ${figures.poison.length} poison, ${figures.missed.length} missed`;
}

export function meetsBlameTarget(figures: BlameFigures): boolean {
  return (
    figures.scored > 0 &&
    figures.correct / figures.scored >= BLAME_TARGET.accuracy &&
    figures.poison.length <= BLAME_TARGET.poison
  );
}

export function formatBlameCorpusScore(score: BlameCorpusScore): string {
  const rows: [string, string, string][] = [
    ['read as a harness sees the call', cell(score.halves.design.call), cell(score.halves.validation.call)],
    ['read from the text alone', cell(score.halves.design.text), cell(score.halves.validation.text)],
  ];
  const width = [
    Math.max(...rows.map((row) => row[0].length)),
    Math.max('design'.length, ...rows.map((row) => row[1].length)),
  ];
  const line = (row: readonly string[]) =>
    `${row[0]?.padEnd(width[0] ?? 0)}  ${row[1]?.padEnd(width[1] ?? 0)}  ${row[2]}`.trimEnd();
  const validation = score.halves.validation;
  const met = meetsBlameTarget(validation.call) && meetsBlameTarget(validation.text);
  return [
    'Real error texts, blame (the blame corpus)',
    line(['', 'design', 'validation']),
    ...rows.map(line),
    `target, validation half: ≥ ${BLAME_TARGET.accuracy * 100}% right with ${BLAME_TARGET.poison} poison, both readings: ${met ? 'met' : 'NOT MET'}`,
  ].join('\n');
}

/** Every entry a build reads wrong, one line each, for `--details`. */
export function formatBlameDetails(score: BlameCorpusScore): string {
  const lines: string[] = [];
  for (const half of BLAME_HALVES) {
    for (const reading of ['call', 'text'] as const) {
      for (const { entry, product } of score.halves[half][reading].wrong) {
        const text = entry.text.replace(/\s+/g, ' ').slice(0, 100);
        lines.push(
          `${half} (${reading}) [${entry.category}] label=${entry.blame} product=${product}  ${text}`,
        );
      }
    }
  }
  return lines.join('\n');
}

export function blameNotMeasured(dir: string | undefined): string {
  return dir === undefined
    ? 'Real error texts, blame: not measured (give --blame-corpus DIR, built by scripts/blame-corpus/build.py)'
    : `Real error texts, blame: not measured (no design.jsonl and validation.jsonl in ${dir})`;
}

export async function runBlameCorpusCommand(
  dir: string | undefined,
  options: { readonly root: string; readonly details?: boolean },
  io: { readonly stdout: { write(text: string): unknown } },
): Promise<number> {
  if (!blameCorpusPresent(dir)) {
    io.stdout.write(`${blameNotMeasured(dir)}\n`);
    return 0;
  }
  const score = await scoreBlameCorpus(dir, options.root);
  if (options.details) io.stdout.write(`${formatBlameDetails(score)}\n\n`);
  io.stdout.write(`${formatBlameCorpusScore(score)}\n`);
  return 0;
}

if (runAsScript(import.meta.url)) {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write('Usage: npx tsx bench/blame-corpus.ts DIR [--details]   (after npm run build)\n');
  } else {
    process.exitCode = await runBlameCorpusCommand(
      argv.find((arg) => !arg.startsWith('--')),
      { root: fileURLToPath(new URL('..', import.meta.url)), details: argv.includes('--details') },
      { stdout: process.stdout },
    );
  }
}
