/**
 * What the guard costs, measured the way users call it: a tool call converted with
 * `toolCallToProposal` and checked, then its result converted with `toolCallToOutcome` and recorded,
 * with one call in ten failing as in real agent runs (short error texts, and test runs that fail with
 * 20 KB of output). The guard is timed beside two yardsticks in the same run, interleaved block by
 * block: a recursion sentinel (the simplest loop guard that works) and the paper's guard held in
 * memory. Targets are ratios between figures of one run, so that they hold on a busy machine.
 *
 * Also: the first calls of fresh processes, the journal's total CPU per call, heap growth over a
 * million calls, and replay of a recorded trace from its file.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NarrowingEngine } from '../src/core/loop.js';
import type { EngineSnapshot } from '../src/core/types.js';
import type { EngineKind } from './engine.js';
import { type Contender, paperGuard, recursionSentinel } from './perf-baselines.js';
import { type ColdSeries, type ColdStartFigure, coldStart } from './perf-cold.js';
import { loadPerfEngine, type PerfEngine } from './perf-engine.js';
import { type JournalCpuFigure, journalCpu } from './perf-journal.js';
import { type MemoryFigure, memoryRunInChild } from './perf-memory.js';
import {
  type CallClass,
  type CallStats,
  type ClassStats,
  outputChars,
  timeByClass,
  timeInterleaved,
} from './perf-timing.js';
import { failingCall, type RawCall, WORKLOADS, type Workload, workloadRawCall } from './perf-workload.js';

export type { ColdSeries, ColdStartFigure } from './perf-cold.js';
export type { JournalCpuFigure } from './perf-journal.js';
export type { MemoryFigure } from './perf-memory.js';
export type { CallStats, ClassStats } from './perf-timing.js';

export interface PerfOptions {
  /** Which engine to time: the build (the default, when it is current) or the sources. */
  readonly engine?: EngineKind;
  readonly constraints?: readonly number[];
  /** Calls in each interleaved block. */
  readonly ops?: number;
  /** Blocks timed per contender and row. */
  readonly runs?: number;
  /** Calls in the memory run. */
  readonly calls?: number;
  /** Calls per run of the journal's CPU figure. */
  readonly journalEntries?: number;
  readonly replayCalls?: number;
  /** Fresh processes for the cold-start figures. */
  readonly processes?: number;
  /** Wall-clock limit of the memory run; it stops early, and says so, when the engine is too slow. */
  readonly memoryBudgetMs?: number;
  readonly onProgress?: (message: string) => void;
}

export const DEFAULT_PERF = {
  constraints: [10, 1_000, 100_000],
  ops: 500,
  runs: 20,
  calls: 1_000_000,
  journalEntries: 5_000,
  replayCalls: 10_000,
  processes: 5,
  memoryBudgetMs: 600_000,
} as const;

export interface ComparisonFigure {
  readonly constraints: number;
  readonly workload: Workload;
  readonly narrowing: CallStats;
  readonly sentinel: CallStats;
  readonly paper: CallStats;
  /**
   * The guard's calls by outcome, timed in blocks of each: succeeding, and failing apart by the
   * size of what they print (typical: `failingShort`, `failingLong` with about 20 KB; edits:
   * `failing4kb`, edits of 4 KB whose text is not found).
   */
  readonly byOutcome: Readonly<Record<string, ClassStats>>;
}

export interface ReplayFigure {
  readonly calls: number;
  /**
   * `narrowing replay FILE --json` in this process: reading the file, replaying, printing, per second
   * of the process's CPU time (every thread's), like the other figures, so that time the machine
   * gave to other processes does not count.
   */
  readonly callsPerSecond: number;
  /** The same per second of wall-clock time, which does count it. */
  readonly callsPerWallSecond: number;
  /**
   * `narrowing replay FILE --json` as a user runs it, in a process of its own: calls per second of
   * wall-clock time from its start to its exit (undefined when the build is missing).
   */
  readonly cliCallsPerSecond?: number;
}

export interface TargetResult {
  readonly id: string;
  readonly description: string;
  readonly pass: boolean;
  readonly value: string;
}

export interface PerfReport {
  readonly config: Required<Omit<PerfOptions, 'onProgress' | 'engine'>>;
  readonly environment: {
    /** The engine timed: the build users install, or the sources through the development loader. */
    readonly engine: EngineKind;
    /** Why the sources were timed when the build was asked for. */
    readonly engineNote?: string;
    readonly node: string;
    readonly platform: string;
    readonly cpu: string;
    readonly cpus: number;
    readonly loadAverage: number;
  };
  readonly comparisons: readonly ComparisonFigure[];
  readonly coldStart: ColdStartFigure;
  readonly memory: MemoryFigure;
  readonly journal: JournalCpuFigure;
  readonly replay: ReplayFigure;
  readonly targets: readonly TargetResult[];
}

export class SteppingClock {
  private at = Date.UTC(2026, 0, 5, 9);
  now(): number {
    return this.at;
  }
  tick(): void {
    this.at += 2_000;
  }
}

/** Room for the largest constraint count measured: the default capacity is smaller. */
const CAPACITY = 250_000;

export function newLoop(engine: PerfEngine, clock: SteppingClock): NarrowingEngine {
  return new engine.NarrowingEngine({
    adapter: engine.createToolCallAdapter(),
    clock,
    sessionId: 'perf',
    policy: { learning: { maxConstraints: CAPACITY } },
  });
}

/** A guard that has learned `count` constraints from distinct failures, as a snapshot to restore. */
export function seededState(engine: PerfEngine, count: number): EngineSnapshot {
  const clock = new SteppingClock();
  const loop = newLoop(engine, clock);
  let active = 0;
  for (let index = 0; active < count; index++) {
    clock.tick();
    const call = failingCall(index);
    loop.checkProposal(call.proposal);
    active = loop.recordOutcome(call.outcome).activeConstraints;
  }
  return loop.snapshot();
}

/**
 * The guard as the README's loop calls it: conversion included, a fresh outcome for every call. A
 * halt is answered as the user reading it answers, with a new message (`newRun('user')`): a halted
 * guard refuses every call before looking at it, and a run of failing calls timed on their own (500
 * test runs failing in a row) halts it within a few dozen, so that without this every call after
 * them would time a guard that no longer checks anything.
 */
export function narrowingContender(engine: PerfEngine, state: EngineSnapshot): Contender {
  const clock = new SteppingClock();
  const loop = newLoop(engine, clock);
  loop.restore(state);
  return {
    name: 'narrowing',
    check(call) {
      clock.tick();
      const result = loop.checkProposal(engine.toolCallToProposal(call.tool, call.args));
      if (result.verdict === 'halt') loop.newRun('user');
      return result.allowed;
    },
    record(call) {
      loop.recordOutcome(engine.toolCallToOutcome(call.tool, call.args, call.result));
    },
  };
}

/** A failure printing this much or more is timed with the long ones (the 20 KB test runs). */
export const LONG_OUTPUT = 10_000;
const SUCCEEDING: CallClass = { name: 'succeeding', includes: (call) => !call.failing };
export const TYPICAL_CLASSES: readonly CallClass[] = [
  SUCCEEDING,
  { name: 'failingShort', includes: (call) => call.failing && outputChars(call) < LONG_OUTPUT },
  { name: 'failingLong', includes: (call) => call.failing && outputChars(call) >= LONG_OUTPUT },
];
export const EDIT_CLASSES: readonly CallClass[] = [
  SUCCEEDING,
  {
    name: 'failing4kb',
    includes: (call) =>
      call.failing && typeof call.args.old_string === 'string' && call.args.old_string.length >= 4_000,
  },
];

/** Calls of every row start far from those the constraints were learned from. */
export const ROW_BASE = 50_000_000;

function compare(
  engine: PerfEngine,
  count: number,
  workload: Workload,
  state: EngineSnapshot,
  config: { ops: number; runs: number },
): ComparisonFigure {
  const call = (index: number): RawCall => workloadRawCall(workload, ROW_BASE + index);
  const guard = narrowingContender(engine, state);
  const timing = { block: config.ops, blocks: config.runs, warmup: Math.max(2_000, config.ops * 2), call };
  const [narrowing, sentinel, paper] = timeInterleaved(
    [guard, recursionSentinel(), paperGuard()],
    timing,
  ) as [CallStats, CallStats, CallStats];
  // Further along the same sequence, so that no call is made twice.
  const later = (index: number): RawCall => call(10_000_000 + index);
  const byOutcome = timeByClass(
    guard,
    { ...timing, blocks: Math.max(2, Math.ceil(config.runs / 4)), call: later },
    workload === 'typical' ? TYPICAL_CLASSES : EDIT_CLASSES,
  );
  return { constraints: count, workload, narrowing, sentinel, paper, byOutcome };
}

/**
 * The row's trace: `calls` typical calls (one in ten failing) as a trace file in `dir`; its path.
 * `first`: the index in the workload's sequence of its first call, for a trace with other calls.
 */
export function writeReplayTrace(dir: string, calls: number, first = 0): string {
  const lines = [
    JSON.stringify({ type: 'meta', name: 'perf' }),
    JSON.stringify({ type: 'session', id: 'perf' }),
  ];
  for (let index = first; index < first + calls; index++) {
    const call = workloadRawCall('typical', index);
    lines.push(
      JSON.stringify({ type: 'call', tool: call.tool, args: call.args, result: call.result, t: index * 2 }),
    );
  }
  const path = join(dir, first === 0 ? 'trace.jsonl' : `trace-from-${first}.jsonl`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

/**
 * `narrowing replay FILE --json` run in this process, what it prints counted and dropped: the
 * process's CPU time (every thread's) in nanoseconds, and the wall-clock time in milliseconds.
 */
export async function replayInProcess(
  engine: PerfEngine,
  path: string,
): Promise<{ readonly cpuNs: number; readonly wallMs: number }> {
  let written = 0;
  const count = (text: string): void => {
    written += text.length;
  };
  const io = { stdout: { write: count, isTTY: false }, stderr: { write: count }, env: {} };
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  const code = await engine.runReplay(path, { json: true }, io);
  const cpu = process.cpuUsage(cpuStarted);
  const wallMs = performance.now() - started;
  if (code !== 0 || written === 0) throw new Error(`replay of the trace failed with exit status ${code}`);
  return { cpuNs: (cpu.user + cpu.system) * 1000, wallMs };
}

async function replayFromFile(engine: PerfEngine, calls: number): Promise<ReplayFigure> {
  const dir = mkdtempSync(join(tmpdir(), 'narrowing-bench-replay-'));
  try {
    const path = writeReplayTrace(dir, calls);
    // Warm: the replay's code is compiled and optimised first, on a trace of other calls, so that
    // the row times replaying as a process that has replayed before does it. The command line's
    // figure below is the cold one.
    await replayInProcess(engine, writeReplayTrace(dir, calls, 10_000_000));
    const { cpuNs, wallMs } = await replayInProcess(engine, path);
    const cliCallsPerSecond = await replayThroughCli(path, calls);
    return {
      calls,
      callsPerSecond: calls / (cpuNs / 1e9),
      callsPerWallSecond: calls / (wallMs / 1000),
      ...(cliCallsPerSecond !== undefined && { cliCallsPerSecond }),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const CLI = fileURLToPath(new URL('../bin/narrowing.js', import.meta.url));

/**
 * The best of three runs of the command line's replay (one for a trace too short to publish), in
 * calls per wall-clock second.
 */
async function replayThroughCli(path: string, calls: number): Promise<number | undefined> {
  let best: number | undefined;
  for (let run = 0; run < cliRuns(calls); run++) {
    const started = performance.now();
    const ok = await new Promise<boolean>((resolve) => {
      execFile(
        process.execPath,
        [CLI, 'replay', path, '--json'],
        { maxBuffer: 256 * 1024 * 1024, timeout: 120_000, env: { ...process.env, NODE_OPTIONS: '' } },
        (error) => resolve(error === null),
      );
    });
    if (!ok) return best;
    const perSecond = calls / ((performance.now() - started) / 1000);
    best = best === undefined ? perSecond : Math.max(best, perSecond);
  }
  return best;
}

function cliRuns(calls: number): number {
  return calls >= 5_000 ? 3 : 1;
}

export const LIMITS = {
  typicalVsSentinel: 5,
  editVsSentinel: 1.5,
  failingEdit4kbUs: 100,
  failingBaseUs: 50,
  failingNsPerChar: 5,
  coldFirstCallMs: 5,
  coldFirst100Ms: 25,
  journalVsGuard: 1,
  heapMb: 64,
  replayCallsPerSecond: 20_000,
  replayCliCallsPerSecond: 10_000,
} as const;

function micro(ns: number): string {
  return `${(ns / 1000).toFixed(2)} µs`;
}

function ratio(value: number): string {
  return `${value.toFixed(2)}×`;
}

function judge(report: Omit<PerfReport, 'targets'>): TargetResult[] {
  const targets: TargetResult[] = [];
  for (const figure of report.comparisons) {
    const typical = figure.workload === 'typical';
    const limit = typical ? LIMITS.typicalVsSentinel : LIMITS.editVsSentinel;
    const measured = figure.narrowing.meanNs / figure.sentinel.meanNs;
    targets.push({
      id: `pair-${figure.workload}-${figure.constraints}`,
      description: `check + record, ${typical ? 'typical calls' : '1-4 KB edits'} with 10% failing, conversion included, ${figure.constraints.toLocaleString('en-US')} constraints: at most ${limit}× the recursion sentinel`,
      pass: measured <= limit,
      value: `${ratio(measured)} (${micro(figure.narrowing.meanNs)} vs ${micro(figure.sentinel.meanNs)})`,
    });
  }
  const worstOf = (workload: Workload, name: string, limitNs: (stats: ClassStats) => number) =>
    report.comparisons
      .filter((figure) => figure.workload === workload && (figure.byOutcome[name]?.calls ?? 0) > 0)
      .map((figure) => ({ figure, stats: figure.byOutcome[name] as ClassStats }))
      .reduce<{ figure: ComparisonFigure; stats: ClassStats } | undefined>(
        (top, next) =>
          top === undefined || next.stats.meanNs / limitNs(next.stats) > top.stats.meanNs / limitNs(top.stats)
            ? next
            : top,
        undefined,
      );
  const failingLimitNs = (stats: ClassStats) =>
    LIMITS.failingBaseUs * 1000 + LIMITS.failingNsPerChar * stats.meanOutputChars;
  for (const [name, what] of [
    ['failingShort', 'short outputs'],
    ['failingLong', 'about 20 KB of output'],
  ] as const) {
    const worst = worstOf('typical', name, failingLimitNs);
    if (worst === undefined) continue;
    const limit = failingLimitNs(worst.stats);
    targets.push({
      id: name === 'failingShort' ? 'failing-short' : 'failing-20kb',
      description: `a failing call with ${what}, conversion included: at most ${LIMITS.failingBaseUs} µs + ${LIMITS.failingNsPerChar} ns per character of output (worst constraint count)`,
      pass: worst.stats.meanNs <= limit,
      value: `${micro(worst.stats.meanNs)} for ${Math.round(worst.stats.meanOutputChars).toLocaleString('en-US')} characters (limit ${micro(limit)}; ${worst.figure.constraints.toLocaleString('en-US')} constraints)`,
    });
  }
  const edit = worstOf('edit-4kb', 'failing4kb', () => LIMITS.failingEdit4kbUs * 1000);
  if (edit !== undefined) {
    targets.push({
      id: 'failing-edit-4kb',
      description: `a failing 4 KB edit, conversion included: at most ${LIMITS.failingEdit4kbUs} µs (worst constraint count)`,
      pass: edit.stats.meanNs <= LIMITS.failingEdit4kbUs * 1000,
      value: `${micro(edit.stats.meanNs)} (${edit.figure.constraints.toLocaleString('en-US')} constraints)`,
    });
  }
  // The row measures what starts fresh: the engine bundled and run from its code cache, as the
  // command line and the hook run theirs; the library's import is shown beside it.
  const { cached, library } = report.coldStart;
  targets.push({
    id: 'cold-first-call',
    description: `fresh process, code-cached bundle: its first call at most ${LIMITS.coldFirstCallMs} ms of CPU`,
    pass: cached.firstNs <= LIMITS.coldFirstCallMs * 1e6,
    value: `${(cached.firstNs / 1e6).toFixed(2)} ms (library import: ${(library.firstNs / 1e6).toFixed(2)} ms)`,
  });
  const first100Ms = (series: ColdSeries) => (series.first100Ns * 100) / 1e6;
  targets.push({
    id: 'cold-first-100',
    description: `fresh process, code-cached bundle: its first 100 calls at most ${LIMITS.coldFirst100Ms} ms of CPU in total`,
    pass: first100Ms(cached) <= LIMITS.coldFirst100Ms,
    value: `${first100Ms(cached).toFixed(1)} ms (library import: ${first100Ms(library).toFixed(1)} ms)`,
  });
  const journal = report.journal;
  const journalRatio = journal.addedNs / journal.withoutNs;
  targets.push({
    id: 'journal',
    description: `journal with receipts, total CPU per call with its deferred work: at most ${LIMITS.journalVsGuard}× the guard's own`,
    pass: journalRatio <= LIMITS.journalVsGuard,
    value: `${ratio(journalRatio)} (${journal.addedNs < 0 ? '-' : '+'}${micro(Math.abs(journal.addedNs))} over ${micro(journal.withoutNs)})`,
  });
  const memory = report.memory;
  targets.push({
    id: 'heap',
    description: `heap growth over ${memory.callsRequested.toLocaleString('en-US')} calls with 20 KB error outputs: under ${LIMITS.heapMb} MB`,
    pass: !memory.stoppedEarly && memory.peakGrowthMb < LIMITS.heapMb,
    value: memory.stoppedEarly
      ? `${memory.peakGrowthMb.toFixed(1)} MB after only ${memory.calls.toLocaleString('en-US')} calls (time limit)`
      : `${memory.peakGrowthMb.toFixed(1)} MB`,
  });
  targets.push({
    id: 'replay',
    description: `replay of a ${report.replay.calls.toLocaleString('en-US')}-call trace in a warm process, reading and printing included: at least ${LIMITS.replayCallsPerSecond.toLocaleString('en-US')} calls per second of CPU time`,
    pass: report.replay.callsPerSecond >= LIMITS.replayCallsPerSecond,
    value: `${Math.round(report.replay.callsPerSecond).toLocaleString('en-US')} calls/s`,
  });
  const cli = report.replay.cliCallsPerSecond;
  targets.push({
    id: 'replay-cli',
    description: `\`narrowing replay FILE --json\` on a ${report.replay.calls.toLocaleString('en-US')}-call trace, a process of its own from start to exit: at least ${LIMITS.replayCliCallsPerSecond.toLocaleString('en-US')} calls per second (best of ${cliRuns(report.replay.calls)})`,
    pass: cli !== undefined && cli >= LIMITS.replayCliCallsPerSecond,
    value:
      cli === undefined ? 'not measured (no build)' : `${Math.round(cli).toLocaleString('en-US')} calls/s`,
  });
  return targets;
}

export async function runPerfBench(options: PerfOptions = {}): Promise<PerfReport> {
  const config = {
    constraints: [...(options.constraints ?? DEFAULT_PERF.constraints)].sort((a, b) => a - b),
    ops: options.ops ?? DEFAULT_PERF.ops,
    runs: options.runs ?? DEFAULT_PERF.runs,
    calls: options.calls ?? DEFAULT_PERF.calls,
    journalEntries: options.journalEntries ?? DEFAULT_PERF.journalEntries,
    replayCalls: options.replayCalls ?? DEFAULT_PERF.replayCalls,
    processes: options.processes ?? DEFAULT_PERF.processes,
    memoryBudgetMs: options.memoryBudgetMs ?? DEFAULT_PERF.memoryBudgetMs,
  };
  const progress = options.onProgress ?? (() => undefined);
  const engine = await loadPerfEngine(options.engine ?? 'dist');
  if (engine.note) progress(engine.note);
  const environment = {
    engine: engine.kind,
    ...(engine.note !== undefined && { engineNote: engine.note }),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cpus: cpus().length,
    loadAverage: Math.round((loadavg()[0] ?? 0) * 100) / 100,
  };

  // The rows are steady-state figures: without this, the first row would also pay for the code the
  // engine and the yardsticks still have to compile (a fresh process is timed on its own, below).
  progress('warming up: one round of every row, not counted');
  const warmupCount = config.constraints[0] ?? 10;
  const warmupState = seededState(engine, warmupCount);
  for (const workload of WORKLOADS) compare(engine, warmupCount, workload, warmupState, config);

  const comparisons: ComparisonFigure[] = [];
  for (const count of config.constraints) {
    progress(`learning ${count.toLocaleString('en-US')} constraints`);
    const state = seededState(engine, count);
    for (const workload of WORKLOADS) {
      progress(
        `timing ${workload} calls with ${count.toLocaleString('en-US')} constraints, beside the yardsticks`,
      );
      comparisons.push(compare(engine, count, workload, state, config));
    }
  }

  progress(`cold start: ${config.processes} fresh processes`);
  const cold = await coldStart(engine.kind, config.processes, Math.max(500, (config.ops * config.runs) / 2));

  progress(`memory run: ${config.calls.toLocaleString('en-US')} calls, one in ten failing`);
  const memory = await memoryRunInChild(engine.kind, config.calls, config.memoryBudgetMs, progress);

  progress('journal: total CPU per call');
  const journal = await journalCpu(engine, config.journalEntries, 5);

  progress('replay of a trace file');
  const replay = await replayFromFile(engine, config.replayCalls);

  const partial = { config, environment, comparisons, coldStart: cold, memory, journal, replay };
  return { ...partial, targets: judge(partial) };
}
