/**
 * Cold start: what the first calls of a fresh process cost, where hooks and short sessions live.
 * Several processes are started one after another; each times the engine's import, the guard's
 * construction, its first calls and, after a warm-up in the same process, the steady state, all
 * in CPU time so that a busy machine's pauses do not count.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EngineKind } from './engine.js';
import { type RawCall, workloadRawCall } from './perf-workload.js';

export interface ColdStartFigure {
  readonly processes: number;
  /** Medians over the processes. */
  readonly importMs: number;
  readonly openMs: number;
  readonly firstNs: number;
  /** CPU time of the first call, and the mean of calls 2–10, 11–100 and 101–1,000. */
  readonly calls2To10Ns: number;
  readonly calls11To100Ns: number;
  readonly calls101To1000Ns: number;
  /** Mean of the first 100 calls. */
  readonly first100Ns: number;
  /** Mean call after a warm-up in the same process. */
  readonly steadyNs: number;
}

/** CPU nanoseconds per call of each segment, as the child reports them. */
export interface ChildFigure {
  readonly importMs: number;
  readonly openMs: number;
  readonly first: number;
  readonly calls2To10: number;
  readonly calls11To100: number;
  readonly calls101To1000: number;
  readonly steady: number;
  /** Each of the first 100 calls, when the child is asked to time them one by one. */
  readonly each?: readonly number[];
}

const COLD_CALLS = 1_000;

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

function runChild(kind: EngineKind, file: string, steady: number): Promise<ChildFigure> {
  return runColdChild(
    new URL(kind === 'dist' ? '../dist/' : '../src/', import.meta.url).href,
    kind === 'dist' ? '.js' : '.ts',
    file,
    steady,
  );
}

/**
 * One fresh process timing the import, construction and first calls of the build (or sources, with
 * `.ts`) whose folder's URL is `base`, on the calls of `file`.
 */
export function runColdChild(
  base: string,
  extension: '.js' | '.ts',
  file: string,
  steady: number,
  oneByOne = false,
  /** Node's own flags for the child (`--no-lazy`, say). */
  nodeFlags: readonly string[] = [],
): Promise<ChildFigure> {
  const child = fileURLToPath(new URL('./perf-cold-child.mjs', import.meta.url));
  // The build runs on plain Node, as users run it; the sources need the development loader.
  const loader = extension === '.js' ? [] : ['--import', 'tsx'];
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [
        ...nodeFlags,
        ...loader,
        child,
        base,
        extension,
        file,
        String(COLD_CALLS),
        String(steady),
        oneByOne ? 'each' : '',
      ],
      { maxBuffer: 16 * 1024 * 1024, timeout: 120_000, env: { ...process.env, NODE_OPTIONS: '' } },
      (error, stdout) => {
        if (error) reject(new Error(`a cold-start process failed: ${error.message}`));
        else resolve(JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as ChildFigure);
      },
    );
  });
}

/** Writes the calls of a cold-start process into `dir`, for `steady` calls timed after a warm-up; returns the file. */
export function writeColdCalls(dir: string, steady: number): string {
  const calls: RawCall[] = [];
  for (let index = 0; index < COLD_CALLS + 3 * steady; index++) calls.push(workloadRawCall('typical', index));
  const file = join(dir, 'calls.json');
  writeFileSync(file, JSON.stringify(calls.map(({ tool, args, result }) => ({ tool, args, result }))));
  return file;
}

/** `steady` calls are timed for the steady state, after a warm-up of twice as many. */
export async function coldStart(
  kind: EngineKind,
  processes: number,
  steady: number,
): Promise<ColdStartFigure> {
  const dir = mkdtempSync(join(tmpdir(), 'narrowing-bench-cold-'));
  try {
    const file = writeColdCalls(dir, steady);
    const figures: ChildFigure[] = [];
    for (let run = 0; run < processes; run++) figures.push(await runChild(kind, file, steady));
    const over = (pick: (figure: ChildFigure) => number) => median(figures.map(pick));
    return {
      processes,
      importMs: over((figure) => figure.importMs),
      openMs: over((figure) => figure.openMs),
      firstNs: over((figure) => figure.first),
      calls2To10Ns: over((figure) => figure.calls2To10),
      calls11To100Ns: over((figure) => figure.calls11To100),
      calls101To1000Ns: over((figure) => figure.calls101To1000),
      first100Ns: over((figure) => (figure.first + 9 * figure.calls2To10 + 90 * figure.calls11To100) / 100),
      steadyNs: over((figure) => figure.steady),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
