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
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NarrowingEngine } from '../src/core/loop.js';
import type { EngineSnapshot } from '../src/core/types.js';
import type { EngineKind } from './engine.js';
import { type Contender, paperGuard, recursionSentinel } from './perf-baselines.js';
import { type ColdStartFigure, coldStart } from './perf-cold.js';
import { loadPerfEngine, type PerfEngine } from './perf-engine.js';
import { type JournalCpuFigure, journalCpu } from './perf-journal.js';
import { type MemoryFigure, memoryRunInChild } from './perf-memory.js';
import { type CallStats, timeByOutcome, timeInterleaved } from './perf-timing.js';
import { failingCall, type RawCall, WORKLOADS, type Workload, workloadRawCall } from './perf-workload.js';

export type { ColdStartFigure } from './perf-cold.js';
export type { JournalCpuFigure } from './perf-journal.js';
export type { MemoryFigure } from './perf-memory.js';
export type { CallStats } from './perf-timing.js';

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
  /** The guard's succeeding and failing calls, timed in blocks of each. */
  readonly byOutcome: { readonly succeeding: CallStats; readonly failing: CallStats };
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

class SteppingClock {
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

function newLoop(engine: PerfEngine, clock: SteppingClock): NarrowingEngine {
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

/** The guard as the README's loop calls it: conversion included, a fresh outcome for every call. */
function narrowingContender(engine: PerfEngine, state: EngineSnapshot): Contender {
  const clock = new SteppingClock();
  const loop = newLoop(engine, clock);
  loop.restore(state);
  return {
    name: 'narrowing',
    check(call) {
      clock.tick();
      return loop.checkProposal(engine.toolCallToProposal(call.tool, call.args)).allowed;
    },
    record(call) {
      loop.recordOutcome(engine.toolCallToOutcome(call.tool, call.args, call.result));
    },
  };
}

/** Calls of every row start far from those the constraints were learned from. */
const ROW_BASE = 50_000_000;

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
  const byOutcome = timeByOutcome(guard, {
    ...timing,
    blocks: Math.max(2, Math.ceil(config.runs / 4)),
    call: later,
  });
  return { constraints: count, workload, narrowing, sentinel, paper, byOutcome };
}

async function replayFromFile(engine: PerfEngine, calls: number): Promise<ReplayFigure> {
  const lines = [
    JSON.stringify({ type: 'meta', name: 'perf' }),
    JSON.stringify({ type: 'session', id: 'perf' }),
  ];
  for (let index = 0; index < calls; index++) {
    const call = workloadRawCall('typical', index);
    lines.push(
      JSON.stringify({ type: 'call', tool: call.tool, args: call.args, result: call.result, t: index * 2 }),
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'narrowing-bench-replay-'));
  try {
    const path = join(dir, 'trace.jsonl');
    writeFileSync(path, `${lines.join('\n')}\n`);
    let written = 0;
    const count = (text: string): void => {
      written += text.length;
    };
    const io = { stdout: { write: count, isTTY: false }, stderr: { write: count }, env: {} };
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    const code = await engine.runReplay(path, { json: true }, io);
    const cpu = process.cpuUsage(cpuStarted);
    const seconds = (performance.now() - started) / 1000;
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    if (code !== 0 || written === 0) throw new Error(`replay of the trace failed with exit status ${code}`);
    return { calls, callsPerSecond: calls / cpuSeconds, callsPerWallSecond: calls / seconds };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const LIMITS = {
  typicalVsSentinel: 2,
  editVsSentinel: 1,
  failingVsSucceeding: 2,
  coldVsSteady: 5,
  journalVsGuard: 1,
  heapMb: 64,
  replayCallsPerSecond: 20_000,
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
  const typicalRows = report.comparisons.filter((figure) => figure.workload === 'typical');
  const worst = typicalRows.reduce<ComparisonFigure | undefined>(
    (top, figure) =>
      top === undefined ||
      figure.byOutcome.failing.meanNs / figure.byOutcome.succeeding.meanNs >
        top.byOutcome.failing.meanNs / top.byOutcome.succeeding.meanNs
        ? figure
        : top,
    undefined,
  );
  if (worst !== undefined) {
    const { failing, succeeding } = worst.byOutcome;
    const measured = failing.meanNs / succeeding.meanNs;
    targets.push({
      id: 'failing-vs-succeeding',
      description: `a failing call at most ${LIMITS.failingVsSucceeding}× a succeeding one (typical calls, worst constraint count)`,
      pass: measured <= LIMITS.failingVsSucceeding,
      value: `${ratio(measured)} (${micro(failing.meanNs)} vs ${micro(succeeding.meanNs)})`,
    });
  }
  const cold = report.coldStart;
  const coldRatio = cold.first100Ns / cold.steadyNs;
  targets.push({
    id: 'cold-start',
    description: `cold start: mean of a fresh process's first 100 calls at most ${LIMITS.coldVsSteady}× its steady state`,
    pass: coldRatio <= LIMITS.coldVsSteady,
    value: `${ratio(coldRatio)} (${micro(cold.first100Ns)} vs ${micro(cold.steadyNs)})`,
  });
  const journal = report.journal;
  const journalRatio = journal.addedNs / journal.withoutNs;
  targets.push({
    id: 'journal',
    description: `journal with receipts, total CPU per call with its deferred work: at most ${LIMITS.journalVsGuard}× the guard's own`,
    pass: journalRatio <= LIMITS.journalVsGuard,
    value: `${ratio(journalRatio)} (+${micro(journal.addedNs)} over ${micro(journal.withoutNs)})`,
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
    description: `replay of a ${report.replay.calls.toLocaleString('en-US')}-call trace, end to end: at least ${LIMITS.replayCallsPerSecond.toLocaleString('en-US')} calls per second of CPU time`,
    pass: report.replay.callsPerSecond >= LIMITS.replayCallsPerSecond,
    value: `${Math.round(report.replay.callsPerSecond).toLocaleString('en-US')} calls/s`,
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
