/**
 * Two builds of the engine timed against each other one fresh process at a time: each process loads
 * one build, learns the constraints, runs the workload's calls as a warm-up, then times calls of one
 * class (`perf-ab.ts`'s classes: typical, edits, failingShort, failingLong, failing4kb; and
 * succeeding, the typical workload's calls that succeed) and prints
 * the median CPU time per call of its timed blocks. Rounds alternate which build runs first. Where
 * two builds share a process, what one of them compiled and collected lands on the other's figures
 * (`perf-ab.ts` shows 15–25% between two copies of one build on typical calls); here each build has a
 * process of its own. Give the same folder twice for an A/A run, to see what noise remains.
 *
 *     npx tsx bench/perf-process-ab.ts --base FOLDER [--new dist] [--only failingShort,failing4kb]
 *                                      [--rounds 6] [--calls 300] [--constraints 1000]
 *
 * A folder given must be one where the engine's dependencies resolve (inside a checkout).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { narrowingContender, ROW_BASE, seededState } from './perf.js';
import { AB_CLASSES, type AbClass, BUILD_OPTIONS, median, runBlock } from './perf-ab.js';
import type { Contender } from './perf-baselines.js';
import { loadPerfEngineFrom } from './perf-engine.js';
import { type RawCall, workloadRawCall } from './perf-workload.js';
import { scriptOptions } from './script.js';

/** Calls of the workload made before any is timed, as `bench perf` makes them before its classes. */
const WARMUP = 3_000;
const BLOCKS = 5;

/** `perf-ab.ts`'s classes, and the typical workload's succeeding calls: what every call pays. */
const PROCESS_CLASSES: readonly AbClass[] = [
  ...AB_CLASSES,
  { name: 'succeeding', workload: 'typical', includes: (call) => !call.failing },
];

/**
 * A guard of the build in `folder` that has learned `constraints` constraints and made the
 * workload's warm-up calls, as `bench perf` makes them before its classes, and the next `count`
 * calls of the class `className`, not yet made.
 */
export async function warmedGuard(
  folder: string,
  className: string,
  constraints: number,
  count: number,
): Promise<{ readonly guard: Contender; readonly calls: readonly RawCall[] }> {
  const wanted = PROCESS_CLASSES.find((entry) => entry.name === className);
  if (wanted === undefined) throw new Error(`no class of calls named ${className}`);
  const engine = await loadPerfEngineFrom(folder);
  const guard = narrowingContender(engine, seededState(engine, constraints));
  const warmup: RawCall[] = [];
  for (let index = 0; index < WARMUP; index++)
    warmup.push(workloadRawCall(wanted.workload, ROW_BASE + index));
  runBlock(guard, warmup);
  const calls: RawCall[] = [];
  for (let index = WARMUP; calls.length < count; index++) {
    const call = workloadRawCall(wanted.workload, ROW_BASE + index);
    if (wanted.includes(call)) calls.push(call);
  }
  return { guard, calls };
}

/** In a process of its own: CPU nanoseconds per call of `className`, the median of its blocks. */
export async function timeInThisProcess(
  folder: string,
  className: string,
  constraints: number,
  calls: number,
): Promise<number> {
  const { guard, calls: chosen } = await warmedGuard(folder, className, constraints, calls * (BLOCKS + 1));
  const run = (list: readonly RawCall[]): number => runBlock(guard, list) / Math.max(1, list.length);
  run(chosen.slice(0, calls));
  const figures: number[] = [];
  for (let block = 1; block <= BLOCKS; block++)
    figures.push(run(chosen.slice(block * calls, (block + 1) * calls)));
  return median(figures);
}

function inFreshProcess(folder: string, className: string, constraints: number, calls: number): number {
  const printed = execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      fileURLToPath(import.meta.url),
      '--child',
      '--new',
      folder,
      '--only',
      className,
      '--constraints',
      String(constraints),
      '--calls',
      String(calls),
    ],
    { encoding: 'utf8' },
  );
  return Number(printed.trim());
}

export interface ProcessAbRow {
  readonly name: string;
  /** CPU nanoseconds per call of each round, base then new. */
  readonly rounds: readonly (readonly [number, number])[];
  readonly baseNs: number;
  readonly newNs: number;
  /** The median of the rounds' new/base ratios. */
  readonly ratio: number;
}

export function processAb(options: {
  readonly base: string;
  readonly next: string;
  readonly classes: readonly string[];
  readonly rounds: number;
  readonly calls: number;
  readonly constraints: number;
  readonly onProgress?: (message: string) => void;
}): ProcessAbRow[] {
  return options.classes.map((name) => {
    const rounds: [number, number][] = [];
    for (let round = 0; round < options.rounds; round++) {
      const time = (folder: string) => inFreshProcess(folder, name, options.constraints, options.calls);
      // Rounds alternate which build runs first.
      if (round % 2 === 0) {
        const base = time(options.base);
        rounds.push([base, time(options.next)]);
      } else {
        const next = time(options.next);
        rounds.push([time(options.base), next]);
      }
      options.onProgress?.(`${name}: round ${round + 1} of ${options.rounds}`);
    }
    return {
      name,
      rounds,
      baseNs: median(rounds.map(([base]) => base)),
      newNs: median(rounds.map(([, next]) => next)),
      ratio: median(rounds.map(([base, next]) => next / base)),
    };
  });
}

export function formatProcessAb(rows: readonly ProcessAbRow[]): string {
  const lines = ['class          base µs    new µs   new/base (median of rounds; each round: ratio)'];
  for (const row of rows) {
    const each = row.rounds.map(([base, next]) => (next / base).toFixed(2)).join(' ');
    lines.push(
      `${row.name.padEnd(13)} ${(row.baseNs / 1000).toFixed(1).padStart(8)} ${(row.newNs / 1000).toFixed(1).padStart(9)}   ${row.ratio.toFixed(3)}  (${each})`,
    );
  }
  return lines.join('\n');
}

const values = scriptOptions(import.meta.url, {
  ...BUILD_OPTIONS,
  only: { type: 'string', default: 'failingShort,failingLong,failing4kb' },
  rounds: { type: 'string', default: '6' },
  calls: { type: 'string', default: '300' },
  constraints: { type: 'string', default: '1000' },
  child: { type: 'boolean', default: false },
});
if (values) {
  const constraints = Number(values.constraints);
  const calls = Number(values.calls);
  if (values.child) {
    const ns = await timeInThisProcess(values.new, values.only, constraints, calls);
    process.stdout.write(`${ns}\n`);
  } else {
    if (values.base === undefined) {
      process.stderr.write('usage: npx tsx bench/perf-process-ab.ts --base FOLDER [--new dist] [--only …]\n');
      process.exit(2);
    }
    const rows = processAb({
      base: values.base,
      next: values.new,
      classes: values.only.split(',').filter((name) => name !== ''),
      rounds: Number(values.rounds),
      calls,
      constraints,
      onProgress: (message) => process.stderr.write(`… ${message}\n`),
    });
    process.stdout.write(`${formatProcessAb(rows)}\n`);
  }
}
