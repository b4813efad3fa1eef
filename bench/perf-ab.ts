/**
 * Two builds of the engine timed against each other in one process, class of call by class of call:
 * the calls of `bench perf`'s rows (typical calls, 1–4 KB edits, failing calls with short and with
 * 20 KB outputs, failing 4 KB edits). Both builds get the same calls, block by block, taking turns in
 * an order that alternates, so that whatever else the machine does lands on both alike: on a busy
 * machine two separate runs differ by more than most changes gain. Figures are CPU time per call
 * (check and record, conversion included) and the median ratio of pairs of blocks, one with each build first.
 *
 *     npx tsx bench/perf-ab.ts --base ../before/dist [--new dist] [--blocks 20] [--block 100]
 *                              [--constraints 1000] [--only failingLong,failing4kb] [--json]
 *
 * `--base` is any folder holding a build of the engine (the `dist/` of another checkout, or a copy of
 * this one's kept from before a change); `--new` defaults to this checkout's `dist/`.
 *
 * `--only replay` (not in the default set: it takes longer) times `bench perf`'s replay row instead:
 * `narrowing replay FILE --json` in this process on the row's trace of `--replay-calls` typical calls
 * (10,000), each build replaying it in turn `--replay-runs` times (6) after one untimed run each.
 * With `--replay-traces DIR`, each run replays every `.jsonl` trace of that folder instead.
 *
 * `--only succeeding` (not in the default set either) times the typical workload's succeeding calls
 * alone: the reads, small edits and commands that make up nine calls in ten, whose figure the
 * failures swamp in the `typical` class.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  EDIT_CLASSES,
  narrowingContender,
  ROW_BASE,
  replayInProcess,
  seededState,
  TYPICAL_CLASSES,
  writeReplayTrace,
} from './perf.js';
import type { Contender } from './perf-baselines.js';
import { loadPerfEngineFrom, type PerfEngine } from './perf-engine.js';
import type { CallClass } from './perf-timing.js';
import { type RawCall, type Workload, workloadRawCall } from './perf-workload.js';
import { scriptOptions } from './script.js';

/** A class of calls of one workload, timed apart. */
export interface AbClass extends CallClass {
  readonly workload: Workload;
}

const EVERY_CALL = () => true;

/** The rows' calls: each workload whole, then its failing calls by kind. */
export const AB_CLASSES: readonly AbClass[] = [
  { name: 'typical', workload: 'typical', includes: EVERY_CALL },
  { name: 'edits', workload: 'edit-4kb', includes: EVERY_CALL },
  ...TYPICAL_CLASSES.filter((entry) => entry.name !== 'succeeding').map(
    (entry): AbClass => ({ ...entry, workload: 'typical' }),
  ),
  ...EDIT_CLASSES.filter((entry) => entry.name !== 'succeeding').map(
    (entry): AbClass => ({ ...entry, workload: 'edit-4kb' }),
  ),
];

/** The typical workload's succeeding calls, timed only when named (see `--only succeeding`). */
export const SUCCEEDING_CLASS: AbClass = {
  ...(TYPICAL_CLASSES.find((entry) => entry.name === 'succeeding') as CallClass),
  workload: 'typical',
};

export interface AbOptions {
  /** Folder of the build to compare against (the "before"). */
  readonly base: string;
  /** Folder of the build compared (the "after"). */
  readonly next: string;
  /** Blocks timed per build and class. */
  readonly blocks?: number;
  /** Calls in a block. */
  readonly block?: number;
  /** Constraints both guards have learned before they are timed. */
  readonly constraints?: number;
  /** Names of the classes to time (all but `replay` when absent). */
  readonly only?: readonly string[];
  /** Calls in the trace `replay` times. */
  readonly replayCalls?: number;
  /** Timed replays of the trace per build. */
  readonly replayRuns?: number;
  /** A folder of traces replayed (every `.jsonl` in it) instead of the row's trace. */
  readonly replayTraces?: string;
  readonly onProgress?: (message: string) => void;
}

export interface AbFigure {
  readonly name: string;
  /** Calls each build made in timed blocks. */
  readonly calls: number;
  /** CPU nanoseconds per call. */
  readonly baseNs: number;
  readonly nextNs: number;
  /** `nextNs / baseNs` over all blocks. */
  readonly ratio: number;
  /**
   * The median of the ratios of pairs of blocks (one with each build first), which a core taken
   * away mid-block moves less than the ratio over all blocks.
   */
  readonly medianRatio: number;
}

export interface AbReport {
  readonly base: string;
  readonly next: string;
  readonly constraints: number;
  readonly blocks: number;
  readonly block: number;
  readonly figures: readonly AbFigure[];
}

export const DEFAULT_AB = {
  blocks: 20,
  block: 100,
  constraints: 1_000,
  replayCalls: 10_000,
  replayRuns: 6,
} as const;

/** The class timing `bench perf`'s replay row, run only when named. */
export const REPLAY_CLASS = 'replay';

function cpuNs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) * 1000;
}

/** CPU nanoseconds a block of calls took, each checked and recorded. */
export function runBlock(contender: Contender, calls: readonly RawCall[]): number {
  const started = process.cpuUsage();
  for (const call of calls) {
    contender.check(call);
    contender.record(call);
  }
  return cpuNs(started);
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The next `count` calls of a class, from `cursor.at` on in the workload's sequence. */
function drawCalls(entry: AbClass, cursor: { at: number }, count: number): RawCall[] {
  const calls: RawCall[] = [];
  for (let tries = 0; calls.length < count && tries < count * 100; tries++) {
    const call = workloadRawCall(entry.workload, ROW_BASE + cursor.at);
    cursor.at++;
    if (entry.includes(call)) calls.push(call);
  }
  return calls;
}

/** Times `base` and `next` on one class's calls, taking turns block by block. */
export function timeAgainst(
  base: Contender,
  next: Contender,
  entry: AbClass,
  options: { blocks: number; block: number },
): AbFigure {
  const cursor = { at: 0 };
  // Both compile and warm their caches on calls that are not timed.
  for (const call of drawCalls(entry, cursor, options.block * 2)) {
    for (const contender of [base, next]) {
      contender.check(call);
      contender.record(call);
    }
  }
  let baseNs = 0;
  let nextNs = 0;
  let calls = 0;
  // One ratio per pair of blocks, one with each build first: whichever runs second in a block
  // runs the calls the first has just made, and the pair cancels that. (The median of the blocks'
  // own ratios did not: with two clusters, r and 1/r, it fell between them, above 1.)
  const ratios: number[] = [];
  let pair = { base: 0, next: 0 };
  for (let block = 0; block < options.blocks; block++) {
    const drawn = drawCalls(entry, cursor, options.block);
    if (drawn.length === 0) break;
    let baseBlock: number;
    let nextBlock: number;
    if (block % 2 === 0) {
      baseBlock = runBlock(base, drawn);
      nextBlock = runBlock(next, drawn);
    } else {
      nextBlock = runBlock(next, drawn);
      baseBlock = runBlock(base, drawn);
    }
    baseNs += baseBlock;
    nextNs += nextBlock;
    calls += drawn.length;
    pair = { base: pair.base + baseBlock, next: pair.next + nextBlock };
    if (block % 2 === 1) {
      if (pair.base > 0) ratios.push(pair.next / pair.base);
      pair = { base: 0, next: 0 };
    }
  }
  return {
    name: entry.name,
    calls,
    baseNs: calls === 0 ? 0 : baseNs / calls,
    nextNs: calls === 0 ? 0 : nextNs / calls,
    ratio: baseNs === 0 ? 1 : nextNs / baseNs,
    medianRatio: ratios.length === 0 ? 1 : median(ratios),
  };
}

/**
 * `bench perf`'s replay row for both builds, taking turns replay by replay (the first of each pair
 * alternating): CPU time per replayed call.
 */
export async function replayAgainst(
  base: PerfEngine,
  next: PerfEngine,
  options: { calls: number; runs: number; traces?: string },
): Promise<AbFigure> {
  const dir = mkdtempSync(join(tmpdir(), 'narrowing-bench-ab-replay-'));
  try {
    const paths =
      options.traces === undefined
        ? [writeReplayTrace(dir, options.calls)]
        : readdirSync(options.traces)
            .filter((name) => name.endsWith('.jsonl'))
            .sort()
            .map((name) => join(options.traces as string, name));
    const callsPerRun =
      options.traces === undefined ? options.calls : paths.reduce((sum, path) => sum + callsIn(path), 0);
    const replayAll = async (engine: PerfEngine) => {
      let cpuNs = 0;
      for (const path of paths) cpuNs += (await replayInProcess(engine, path)).cpuNs;
      return cpuNs;
    };
    // Both compile and warm up on a replay that is not timed.
    for (const engine of [base, next]) await replayAll(engine);
    let baseNs = 0;
    let nextNs = 0;
    const ratios: number[] = [];
    for (let run = 0; run < options.runs; run++) {
      const order = run % 2 === 0 ? [base, next] : [next, base];
      const spent = new Map<PerfEngine, number>();
      for (const engine of order) spent.set(engine, await replayAll(engine));
      const baseRun = spent.get(base) as number;
      const nextRun = spent.get(next) as number;
      baseNs += baseRun;
      nextNs += nextRun;
      if (baseRun > 0) ratios.push(nextRun / baseRun);
    }
    const calls = callsPerRun * options.runs;
    return {
      name: REPLAY_CLASS,
      calls,
      baseNs: calls === 0 ? 0 : baseNs / calls,
      nextNs: calls === 0 ? 0 : nextNs / calls,
      ratio: baseNs === 0 ? 1 : nextNs / baseNs,
      medianRatio: ratios.length === 0 ? 1 : median(ratios),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The `call` events of a trace file. */
function callsIn(path: string): number {
  let calls = 0;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.includes('"call"')) continue;
    try {
      if ((JSON.parse(line) as { type?: unknown }).type === 'call') calls++;
    } catch {
      // Not an event: the replay says so.
    }
  }
  return calls;
}

export async function runAb(options: AbOptions): Promise<AbReport> {
  const blocks = options.blocks ?? DEFAULT_AB.blocks;
  const block = options.block ?? DEFAULT_AB.block;
  const constraints = options.constraints ?? DEFAULT_AB.constraints;
  const progress = options.onProgress ?? (() => undefined);
  const [baseEngine, nextEngine] = await Promise.all([
    loadPerfEngineFrom(options.base),
    loadPerfEngineFrom(options.next),
  ]);
  const figures: AbFigure[] = [];
  if (options.only?.includes(REPLAY_CLASS)) {
    const calls = options.replayCalls ?? DEFAULT_AB.replayCalls;
    progress(
      options.replayTraces === undefined
        ? `timing replay of a ${calls.toLocaleString('en-US')}-call trace`
        : `timing replay of the traces in ${options.replayTraces}`,
    );
    figures.push(
      await replayAgainst(baseEngine, nextEngine, {
        calls,
        runs: options.replayRuns ?? DEFAULT_AB.replayRuns,
        ...(options.replayTraces !== undefined && { traces: options.replayTraces }),
      }),
    );
  }
  const classes = AB_CLASSES.filter(
    (entry) => options.only === undefined || options.only.includes(entry.name),
  );
  if (options.only?.includes(SUCCEEDING_CLASS.name)) classes.push(SUCCEEDING_CLASS);
  if (classes.length > 0) {
    progress(`learning ${constraints.toLocaleString('en-US')} constraints in each build`);
    const baseState = seededState(baseEngine, constraints);
    const nextState = seededState(nextEngine, constraints);
    for (const entry of classes) {
      progress(`timing ${entry.name}`);
      figures.push(
        timeAgainst(
          narrowingContender(baseEngine, baseState),
          narrowingContender(nextEngine, nextState),
          entry,
          { blocks, block },
        ),
      );
    }
  }
  return { base: options.base, next: options.next, constraints, blocks, block, figures };
}

export function formatAb(report: AbReport): string {
  const micro = (ns: number) => `${(ns / 1000).toFixed(2)} µs`;
  const lines = [
    `base ${report.base} vs new ${report.next}: ${report.constraints.toLocaleString('en-US')} constraints, ${report.blocks} blocks of ${report.block} calls each, taking turns`,
    ['class', 'calls', 'base', 'new', 'new/base', 'median pair new/base'].join('\t'),
  ];
  for (const figure of report.figures) {
    lines.push(
      [
        figure.name,
        String(figure.calls),
        micro(figure.baseNs),
        micro(figure.nextNs),
        figure.ratio.toFixed(3),
        figure.medianRatio.toFixed(3),
      ].join('\t'),
    );
  }
  return lines.join('\n');
}

/** The command line's options naming the two builds: `--base FOLDER`, `--new FOLDER` (this checkout's `dist/`). */
export const BUILD_OPTIONS = {
  base: { type: 'string' },
  new: { type: 'string', default: fileURLToPath(new URL('../dist', import.meta.url)) },
} as const;

const values = scriptOptions(import.meta.url, {
  ...BUILD_OPTIONS,
  blocks: { type: 'string' },
  block: { type: 'string' },
  constraints: { type: 'string' },
  only: { type: 'string' },
  'replay-calls': { type: 'string' },
  'replay-runs': { type: 'string' },
  'replay-traces': { type: 'string' },
  json: { type: 'boolean', default: false },
});
if (values) {
  if (values.base === undefined) {
    process.stderr.write(
      'usage: npx tsx bench/perf-ab.ts --base DIR [--new DIR] [--blocks N] [--block N] [--only CLASSES] [--replay-calls N] [--replay-runs N] [--replay-traces DIR]\n',
    );
    process.exit(2);
  }
  const count = (text: string | undefined) => (text === undefined ? undefined : Number(text));
  const blocks = count(values.blocks);
  const block = count(values.block);
  const constraints = count(values.constraints);
  const replayCalls = count(values['replay-calls']);
  const replayRuns = count(values['replay-runs']);
  const report = await runAb({
    base: values.base,
    next: values.new,
    ...(blocks !== undefined && { blocks }),
    ...(block !== undefined && { block }),
    ...(constraints !== undefined && { constraints }),
    ...(values.only !== undefined && { only: values.only.split(',') }),
    ...(replayCalls !== undefined && { replayCalls }),
    ...(replayRuns !== undefined && { replayRuns }),
    ...(values['replay-traces'] !== undefined && { replayTraces: values['replay-traces'] }),
    onProgress: (message) => process.stderr.write(`… ${message}\n`),
  });
  process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatAb(report)}\n`);
}
