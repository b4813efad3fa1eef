/**
 * The memory run of the performance benchmark: a million calls, one in ten failing in a new way, with
 * the heap sampled after a full collection. It runs in a process of its own, started with
 * `--expose-gc`, so that neither earlier garbage nor a missing `gc()` blurs the figures.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { EngineKind } from './engine.js';
import type { PerfEngine } from './perf-engine.js';
import { workloadRawCall } from './perf-workload.js';

export interface MemoryFigure {
  readonly callsRequested: number;
  readonly calls: number;
  readonly failureRate: number;
  /** True when the run hit its time limit before making every call. */
  readonly stoppedEarly: boolean;
  readonly seconds: number;
  readonly baselineMb: number;
  readonly peakGrowthMb: number;
  readonly finalGrowthMb: number;
  readonly activeConstraints: number;
  readonly samples: number;
  /** Whether samples were taken after a full collection. */
  readonly gcExposed: boolean;
}

const MB = 1024 * 1024;
const gc = (globalThis as { gc?: () => void }).gc;

/**
 * A million calls as users make them, one in ten failing in a new way (one failure in four with
 * 20 KB of output); heap sampled after a warm-up.
 */
export function memoryRun(
  engine: Pick<
    PerfEngine,
    'NarrowingEngine' | 'createToolCallAdapter' | 'toolCallToProposal' | 'toolCallToOutcome'
  >,
  calls: number,
  budgetMs: number,
  progress: (message: string) => void,
): MemoryFigure {
  gc?.();
  let now = Date.UTC(2026, 0, 5, 9);
  const loop = new engine.NarrowingEngine({
    adapter: engine.createToolCallAdapter(),
    clock: { now: () => now },
    sessionId: 'perf',
  });
  const sampleEvery = Math.max(1_000, Math.floor(calls / 200));
  const warmup = Math.max(sampleEvery, Math.floor(calls / 20));
  const started = performance.now();
  let baseline: number | undefined;
  let peak = 0;
  let last = 0;
  let samples = 0;
  let made = 0;
  let stoppedEarly = false;
  for (let index = 0; index < calls; index++) {
    now += 2_000;
    const call = workloadRawCall('typical', index);
    loop.checkProposal(engine.toolCallToProposal(call.tool, call.args));
    loop.recordOutcome(engine.toolCallToOutcome(call.tool, call.args, call.result));
    made = index + 1;
    if (made % sampleEvery !== 0) continue;
    gc?.();
    const used = process.memoryUsage().heapUsed;
    if (made >= warmup) {
      baseline ??= used;
      peak = Math.max(peak, used - baseline);
      last = used - baseline;
      samples++;
    }
    if (made % (sampleEvery * 20) === 0) progress(`memory run: ${made.toLocaleString('en-US')} calls`);
    if (performance.now() - started > budgetMs) {
      stoppedEarly = made < calls;
      break;
    }
  }
  return {
    callsRequested: calls,
    calls: made,
    failureRate: 0.1,
    stoppedEarly,
    seconds: (performance.now() - started) / 1000,
    baselineMb: (baseline ?? 0) / MB,
    peakGrowthMb: peak / MB,
    finalGrowthMb: last / MB,
    activeConstraints: loop.getActiveConstraints().length,
    samples,
    gcExposed: gc !== undefined,
  };
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Runs `memoryRun` in a child process with `--expose-gc`; its progress lines come through `progress`. */
export function memoryRunInChild(
  engine: EngineKind,
  calls: number,
  budgetMs: number,
  progress: (message: string) => void,
): Promise<MemoryFigure> {
  const script = fileURLToPath(new URL('./perf-memory-child.ts', import.meta.url));
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', script, String(calls), String(budgetMs), engine],
      {
        cwd: ROOT,
        maxBuffer: 1024 * 1024,
        timeout: budgetMs + 120_000,
        env: { ...process.env, NODE_OPTIONS: '' },
      },
      (error, stdout) => {
        if (error) {
          reject(new Error(`the memory run failed: ${error.message}`));
          return;
        }
        resolve(JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as MemoryFigure);
      },
    );
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      for (const line of chunk.split('\n')) if (line.startsWith('progress: ')) progress(line.slice(10));
    });
  });
}
