/**
 * What the journal costs in total: the process's CPU time per call (user and system, the writer's
 * threads included) with and without a journal with receipts attached, its deferred hashing,
 * redaction and writes included by closing it before the clock stops. Runs alternate between the two.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { PerfEngine } from './perf-engine.js';
import { type RawCall, workloadRawCall } from './perf-workload.js';

export interface JournalCpuFigure {
  readonly calls: number;
  readonly runs: number;
  /** CPU nanoseconds per call: the guard alone, and with the journal. Medians over the runs. */
  readonly withoutNs: number;
  readonly withNs: number;
  readonly addedNs: number;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Between tool calls an agent waits on its tools, and the event loop runs the journal's writes. */
const CALLS_BETWEEN_YIELDS = 8;

async function cpuPerCall(engine: PerfEngine, calls: readonly RawCall[], path?: string): Promise<number> {
  const before = process.cpuUsage();
  const journal = path === undefined ? undefined : engine.createJournal({ path, receipts: true });
  let now = Date.UTC(2026, 0, 5, 9);
  const loop = new engine.NarrowingEngine({
    adapter: engine.createToolCallAdapter(),
    clock: { now: () => now },
    sessionId: 'perf',
    ...(journal !== undefined && { audit: journal }),
  });
  for (let index = 0; index < calls.length; index++) {
    const call = calls[index] as RawCall;
    now += 2_000;
    loop.checkProposal(engine.toolCallToProposal(call.tool, call.args));
    loop.recordOutcome(engine.toolCallToOutcome(call.tool, call.args, call.result));
    if (index % CALLS_BETWEEN_YIELDS === CALLS_BETWEEN_YIELDS - 1) await yieldToEventLoop();
  }
  await journal?.close();
  const used = process.cpuUsage(before);
  return ((used.user + used.system) * 1000) / calls.length;
}

export async function journalCpu(engine: PerfEngine, calls: number, runs: number): Promise<JournalCpuFigure> {
  const dir = mkdtempSync(join(tmpdir(), 'narrowing-bench-journal-cpu-'));
  const without: number[] = [];
  const withJournal: number[] = [];
  try {
    for (let run = -1; run < runs; run++) {
      const base = 30_000_000 + (run + 1) * calls;
      const batch = Array.from({ length: calls }, (_, index) => workloadRawCall('typical', base + index));
      // The first pair of runs warms both paths up and is not counted.
      const first = await cpuPerCall(engine, batch);
      const second = await cpuPerCall(engine, batch, join(dir, `journal-${run + 1}.jsonl`));
      if (run >= 0) {
        without.push(first);
        withJournal.push(second);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const withoutNs = median(without);
  const withNs = median(withJournal);
  return { calls, runs, withoutNs, withNs, addedNs: withNs - withoutNs };
}
