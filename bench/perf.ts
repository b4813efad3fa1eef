/**
 * What the guard itself costs: nanoseconds per `checkProposal` and `recordOutcome` with 10 to 100,000
 * active learned constraints, heap growth over a million calls, the journal's throughput and what it
 * adds to a call, and replay throughput. Medians of several runs after a warm-up; no figure here is
 * asserted by a test, because machines are noisy.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { NarrowingEngine } from '../src/core/loop.js';
import type { AuditSink, EngineSnapshot, JournalEvent } from '../src/core/types.js';
import type { TraceEvent } from '../src/trace/index.js';
import type { EngineKind } from './engine.js';
import { loadPerfEngine, type PerfEngine } from './perf-engine.js';
import { type MemoryFigure, memoryRunInChild } from './perf-memory.js';
import {
  CALL_KINDS,
  type CallKind,
  failingCall,
  type PreparedCall,
  typicalCall,
  typicalKind,
  WORKLOADS,
  type Workload,
  workloadCall,
} from './perf-workload.js';

export type { MemoryFigure } from './perf-memory.js';

export interface PerfOptions {
  /** Which engine to time: the build (the default, when it is current) or the sources. */
  readonly engine?: EngineKind;
  readonly constraints?: readonly number[];
  /** Calls timed per run of each hot-path figure. */
  readonly ops?: number;
  readonly runs?: number;
  /** Calls in the memory run. */
  readonly calls?: number;
  readonly journalEntries?: number;
  readonly replayCalls?: number;
  /** Wall-clock limit of the memory run; it stops early, and says so, when the engine is too slow. */
  readonly memoryBudgetMs?: number;
  readonly onProgress?: (message: string) => void;
}

export const DEFAULT_PERF = {
  constraints: [10, 1_000, 100_000],
  ops: 10_000,
  runs: 5,
  calls: 1_000_000,
  journalEntries: 100_000,
  replayCalls: 20_000,
  memoryBudgetMs: 60_000,
} as const;

export interface HotPathFigure {
  readonly constraints: number;
  readonly workload: Workload;
  readonly checkNs: number;
  readonly recordNs: number;
  readonly pairNs: number;
  /**
   * Typical workload only: the median check + record of each kind of call, timed call by call in
   * one more run (so each includes the clock's own cost, some tens of nanoseconds).
   */
  readonly byKind?: Readonly<Record<CallKind, number>>;
}

export interface JournalFigure {
  readonly entries: number;
  /** Events recorded, hashed into receipts and written to disk, per second (flush included). */
  readonly entriesPerSecond: number;
  /** Median time of a call (check + record) without and with a journal attached. */
  readonly withoutNs: number;
  readonly withNs: number;
  readonly addedNs: number;
}

export interface ReplayFigure {
  readonly calls: number;
  readonly callsPerSecond: number;
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
    readonly gcExposed: boolean;
  };
  readonly hotPath: readonly HotPathFigure[];
  /** Pair time at the largest constraint count over the smallest, per workload. */
  readonly scaling: Readonly<Record<Workload, number>>;
  readonly memory: MemoryFigure;
  readonly journal: JournalFigure;
  readonly replay: ReplayFigure;
  readonly targets: readonly TargetResult[];
}

/**
 * Calls each row makes before it is timed. A row starts from a full collection with its constraints
 * just loaded, and the young generation takes a few thousand calls to grow back to its working size:
 * what a long session runs at.
 */
const WARMUP_OPS = 5_000;
/**
 * The same for the journal's cost, which is timed in short bursts with the event loop running in
 * between, as in a real session: a long warm-up without it would leave thousands of entries queued.
 */
const JOURNAL_WARMUP_OPS = 300;
/** Calls of each workload before anything is timed. */
const WARMUP_CALLS = 20_000;
const CHUNK = 32;

const gc = (globalThis as { gc?: () => void }).gc;

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

function newLoop(engine: PerfEngine, clock: SteppingClock, audit?: AuditSink): NarrowingEngine {
  return new engine.NarrowingEngine({
    adapter: engine.createToolCallAdapter(),
    clock,
    sessionId: 'perf',
    audit,
    policy: { learning: { maxConstraints: CAPACITY } },
  });
}

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
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

interface Timing {
  checkNs: number;
  recordNs: number;
}

/**
 * Times `ops` calls in chunks: every call of a chunk is checked, then every outcome recorded, as a
 * parallel dispatch does. Timing chunks instead of calls keeps the clock's own cost out of the figures.
 */
function timeCalls(
  loop: NarrowingEngine,
  clock: SteppingClock,
  make: (index: number) => PreparedCall,
  from: number,
  ops: number,
): Timing {
  let check = 0n;
  let record = 0n;
  for (let start = 0; start < ops; start += CHUNK) {
    const chunk: PreparedCall[] = [];
    for (let index = start; index < Math.min(ops, start + CHUNK); index++) chunk.push(make(from + index));
    clock.tick();
    const t0 = process.hrtime.bigint();
    for (const call of chunk) loop.checkProposal(call.proposal);
    const t1 = process.hrtime.bigint();
    for (const call of chunk) loop.recordOutcome(call.outcome);
    const t2 = process.hrtime.bigint();
    check += t1 - t0;
    record += t2 - t1;
  }
  return { checkNs: Number(check) / ops, recordNs: Number(record) / ops };
}

function hotPath(
  engine: PerfEngine,
  count: number,
  workload: Workload,
  state: EngineSnapshot,
  ops: number,
  runs: number,
): HotPathFigure {
  const checks: number[] = [];
  const records: number[] = [];
  const pairs: number[] = [];
  // One guard for every run: loading a hundred thousand constraints again for each run would leave
  // the previous copy for the collector to sweep while the next run is timed.
  const clock = new SteppingClock();
  const loop = newLoop(engine, clock);
  loop.restore(state);
  gc?.();
  timeCalls(loop, clock, (index) => workloadCall(workload, index), 5_000_000, WARMUP_OPS);
  for (let run = 0; run < runs; run++) {
    const base = 10_000_000 * (run + 1);
    const timing = timeCalls(loop, clock, (index) => workloadCall(workload, index), base, ops);
    checks.push(timing.checkNs);
    records.push(timing.recordNs);
    pairs.push(timing.checkNs + timing.recordNs);
  }
  const figure = {
    constraints: count,
    workload,
    checkNs: median(checks),
    recordNs: median(records),
    pairNs: median(pairs),
  };
  return workload === 'typical' ? { ...figure, byKind: timeByKind(engine, state, ops) } : figure;
}

function timeByKind(engine: PerfEngine, state: EngineSnapshot, ops: number): Record<CallKind, number> {
  const clock = new SteppingClock();
  const loop = newLoop(engine, clock);
  loop.restore(state);
  const samples = new Map<CallKind, number[]>(CALL_KINDS.map((kind) => [kind, []]));
  const base = 90_000_000;
  for (let index = base; index < base + ops; index++) {
    const call = typicalCall(index);
    clock.tick();
    const started = process.hrtime.bigint();
    loop.checkProposal(call.proposal);
    loop.recordOutcome(call.outcome);
    samples.get(typicalKind(index))?.push(Number(process.hrtime.bigint() - started));
  }
  return Object.fromEntries(CALL_KINDS.map((kind) => [kind, median(samples.get(kind) ?? [0])])) as Record<
    CallKind,
    number
  >;
}

function journalEvents(index: number): JournalEvent[] {
  const call = typicalCall(index);
  const callKey = `${call.proposal.tool}#${index.toString(16).padStart(16, '0')}`;
  const at = Date.UTC(2026, 0, 5, 9) + index * 2_000;
  return [
    { type: 'proposal', at, tool: call.proposal.tool, callKey, args: call.proposal.args, verdict: 'allow' },
    {
      type: 'outcome',
      at,
      tool: call.proposal.tool,
      callKey,
      success: true,
      blame: 'none',
      resultDigest: index.toString(16).padStart(16, '0'),
    },
  ];
}

async function journalThroughput(engine: PerfEngine, entries: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'narrowing-bench-journal-'));
  try {
    const journal = engine.createJournal({ path: join(dir, 'journal.jsonl'), receipts: true });
    const events = Array.from({ length: 64 }, (_, index) => journalEvents(index)).flat();
    const started = performance.now();
    for (let index = 0; index < entries; index++) {
      journal.record(events[index % events.length] as JournalEvent);
      // An agent waits on its tools: the journal's batches get written in between.
      if (index % 512 === 511) await yieldToEventLoop();
    }
    await journal.flush();
    const seconds = (performance.now() - started) / 1000;
    await journal.close();
    return entries / seconds;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A call with and without a journal attached, interleaved run by run so that both see the same machine. */
async function auditOverhead(
  engine: PerfEngine,
  ops: number,
  runs: number,
): Promise<{ withoutNs: number; withNs: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'narrowing-bench-audit-'));
  const without: number[] = [];
  const withJournal: number[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      for (const attach of [false, true]) {
        const journal = attach
          ? engine.createJournal({ path: join(dir, `journal-${run}.jsonl`), receipts: true })
          : undefined;
        const clock = new SteppingClock();
        const loop = newLoop(engine, clock, journal);
        const base = 20_000_000 * (run + 1);
        timeCalls(loop, clock, typicalCall, base, JOURNAL_WARMUP_OPS);
        let total = 0;
        for (let start = 0; start < ops; start += CHUNK * 16) {
          const size = Math.min(CHUNK * 16, ops - start);
          const timing = timeCalls(loop, clock, typicalCall, base + JOURNAL_WARMUP_OPS + start, size);
          total += (timing.checkNs + timing.recordNs) * size;
          // Between tool calls the event loop runs, and with it the journal's batched writes.
          await yieldToEventLoop();
        }
        (attach ? withJournal : without).push(total / ops);
        await journal?.close();
      }
    }
    return { withoutNs: median(without), withNs: median(withJournal) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function replayThroughput(engine: PerfEngine, calls: number): ReplayFigure {
  const events: TraceEvent[] = [
    { type: 'meta', name: 'perf' },
    { type: 'session', id: 'perf' },
  ];
  for (let index = 0; index < calls; index++) {
    const call = index % 10 === 9 ? failingCall(index) : typicalCall(index);
    const text = call.outcome.content ?? '';
    events.push({
      type: 'call',
      tool: call.proposal.tool,
      args: call.proposal.args,
      result: call.outcome.success ? { content: text } : { isError: true, content: text },
      t: index * 2,
    });
  }
  const started = performance.now();
  engine.replayTrace(events);
  return { calls, callsPerSecond: calls / ((performance.now() - started) / 1000) };
}

const TYPICAL_LIMIT_NS = 5_000;
const LARGE_LIMIT_NS = 25_000;
const SCALING_LIMIT = 2;
const HEAP_LIMIT_MB = 64;
const AUDIT_LIMIT_NS = 2_000;

function micro(ns: number): string {
  return `${(ns / 1000).toFixed(2)} µs`;
}

function judge(report: Omit<PerfReport, 'targets'>): TargetResult[] {
  const targets: TargetResult[] = [];
  for (const figure of report.hotPath) {
    const limit = figure.workload === 'typical' ? TYPICAL_LIMIT_NS : LARGE_LIMIT_NS;
    targets.push({
      id: `pair-${figure.workload}-${figure.constraints}`,
      description: `check + record, ${figure.workload === 'typical' ? 'typical calls' : '1-4 KB edits'}, ${figure.constraints.toLocaleString('en-US')} constraints, under ${micro(limit)}`,
      pass: figure.pairNs < limit,
      value: micro(figure.pairNs),
    });
  }
  const counts = report.config.constraints;
  for (const workload of WORKLOADS) {
    const ratio = report.scaling[workload];
    targets.push({
      id: `scaling-${workload}`,
      description: `${workload}: ${Math.max(...counts).toLocaleString('en-US')} vs ${Math.min(...counts).toLocaleString('en-US')} constraints, at most ${SCALING_LIMIT}×`,
      pass: ratio <= SCALING_LIMIT,
      value: `${ratio.toFixed(2)}×`,
    });
  }
  const memory = report.memory;
  targets.push({
    id: 'heap',
    description: `heap growth over ${memory.callsRequested.toLocaleString('en-US')} calls, under ${HEAP_LIMIT_MB} MB`,
    pass: !memory.stoppedEarly && memory.peakGrowthMb < HEAP_LIMIT_MB,
    value: memory.stoppedEarly
      ? `${memory.peakGrowthMb.toFixed(1)} MB after only ${memory.calls.toLocaleString('en-US')} calls (time limit)`
      : `${memory.peakGrowthMb.toFixed(1)} MB`,
  });
  targets.push({
    id: 'audit',
    description: `journal with receipts adds under ${micro(AUDIT_LIMIT_NS)} per call on the hot path`,
    pass: report.journal.addedNs < AUDIT_LIMIT_NS,
    value: micro(report.journal.addedNs),
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
    gcExposed: gc !== undefined,
  };

  progress('warming up');
  const warm = seededState(engine, Math.min(10, config.constraints[0] ?? 10));
  // Long enough for the compiler to settle and the young generation to grow to its working size,
  // which otherwise makes whichever figure comes first look slower.
  for (const workload of WORKLOADS)
    hotPath(engine, 0, workload, warm, Math.min(WARMUP_CALLS, config.ops * 4), 1);

  const hotPathFigures: HotPathFigure[] = [];
  for (const count of config.constraints) {
    progress(`learning ${count.toLocaleString('en-US')} constraints`);
    const state = seededState(engine, count);
    for (const workload of WORKLOADS) {
      progress(`timing ${workload} calls with ${count.toLocaleString('en-US')} constraints`);
      hotPathFigures.push(hotPath(engine, count, workload, state, config.ops, config.runs));
    }
  }
  const pairAt = (count: number | undefined, workload: Workload) =>
    hotPathFigures.find((figure) => figure.constraints === count && figure.workload === workload)?.pairNs ??
    0;
  const smallest = config.constraints[0];
  const largest = config.constraints[config.constraints.length - 1];
  const scaling = Object.fromEntries(
    WORKLOADS.map((workload) => [
      workload,
      pairAt(largest, workload) / Math.max(1, pairAt(smallest, workload)),
    ]),
  ) as Record<Workload, number>;

  progress(`memory run: ${config.calls.toLocaleString('en-US')} calls, one in ten failing`);
  const memory = await memoryRunInChild(engine.kind, config.calls, config.memoryBudgetMs, progress);

  progress('journal throughput');
  const entriesPerSecond = await journalThroughput(engine, config.journalEntries);
  progress('journal on the hot path');
  const overhead = await auditOverhead(engine, config.ops, config.runs);
  const journal: JournalFigure = {
    entries: config.journalEntries,
    entriesPerSecond,
    withoutNs: overhead.withoutNs,
    withNs: overhead.withNs,
    addedNs: overhead.withNs - overhead.withoutNs,
  };

  progress('replay throughput');
  const replay = replayThroughput(engine, config.replayCalls);

  const partial = { config, environment, hotPath: hotPathFigures, scaling, memory, journal, replay };
  return { ...partial, targets: judge(partial) };
}
