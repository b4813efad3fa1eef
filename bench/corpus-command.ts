/**
 * Prints the corpus figures of both halves: `npm run results -- --corpus DIR [--preset P]`, or
 * directly `npx tsx bench/corpus-command.ts DIR [--preset P] [--details]` after `npm run build`;
 * `--details` also lists every false block (its call, rule and reason) and every missed loop;
 * `--predictions` checks every block against what the blocked call answered in the recording, without
 * labels, and counts per rule and per source the blocks whose call answered something new.
 */
import { fileURLToPath } from 'node:url';
import {
  CORPUS_HALVES,
  type CorpusHalf,
  formatCorpusDetails,
  formatCorpusScore,
  formatPredictions,
  hasHalf,
  notMeasured,
  scoreCorpus,
} from './corpus.js';
import { runAsScript } from './script.js';

export interface CorpusCommandIO {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown; isTTY?: boolean };
}

/** A progress line on long work: rewritten in place on a terminal, every 100 runs otherwise. */
function progressLine(io: CorpusCommandIO): (done: number, total: number, half: CorpusHalf) => void {
  return (done, total, half) => {
    if (io.stderr.isTTY) {
      io.stderr.write(`\r… replaying ${half}: ${done}/${total} runs${done === total ? '\n' : ''}`);
    } else if (done === total || done % 100 === 0) {
      io.stderr.write(`… replaying ${half}: ${done}/${total} runs\n`);
    }
  };
}

export async function runCorpusCommand(
  corpus: string | undefined,
  options: {
    readonly root: string;
    readonly preset?: string;
    readonly details?: boolean;
    readonly predictions?: boolean;
  },
  io: CorpusCommandIO,
): Promise<number> {
  if (corpus === undefined || !CORPUS_HALVES.some((half) => hasHalf(corpus, half))) {
    io.stdout.write(`${notMeasured(corpus)}\n`);
    return 0;
  }
  const score = await scoreCorpus(corpus, {
    root: options.root,
    ...(options.preset && { preset: options.preset }),
    ...(options.details && { details: true }),
    ...(options.predictions && { predictions: true }),
    onProgress: progressLine(io),
  });
  if (score.details) io.stdout.write(`${formatCorpusDetails(score.details)}\n\n`);
  if (score.predictions) io.stdout.write(`${formatPredictions(score.predictions)}\n\n`);
  io.stdout.write(`${formatCorpusScore(score)}\n`);
  return 0;
}

/** The value after `flag` in `argv`, when there is one. */
export function flagValue(argv: readonly string[], flag: string): string | undefined {
  const index = argv.indexOf(flag);
  return index >= 0 ? argv[index + 1] : undefined;
}

if (runAsScript(import.meta.url)) {
  const argv = process.argv.slice(2);
  const corpus = argv.find((arg, index) => !arg.startsWith('--') && argv[index - 1] !== '--preset');
  const preset = flagValue(argv, '--preset');
  const root = fileURLToPath(new URL('..', import.meta.url));
  const details = argv.includes('--details');
  const predictions = argv.includes('--predictions');
  process.exitCode = await runCorpusCommand(
    corpus,
    { root, ...(preset && { preset }), ...(details && { details }), ...(predictions && { predictions }) },
    { stdout: process.stdout, stderr: process.stderr },
  );
}
