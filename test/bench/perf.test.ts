import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LONG_OUTPUT, narrowingContender, seededState } from '../../bench/perf.js';
import { formatAb, runAb } from '../../bench/perf-ab.js';
import { paperGuard, recursionSentinel } from '../../bench/perf-baselines.js';
import { perfCommand } from '../../bench/perf-command.js';
import { loadPerfEngine } from '../../bench/perf-engine.js';
import { largeEditCall, realisticFailure, typicalCall, workloadRawCall } from '../../bench/perf-workload.js';
import { captureIO } from './support.js';

describe('the performance workload', () => {
  it('keeps typical arguments under 200 bytes and large edits between 1 and 5 KB', () => {
    for (let index = 1_000_000; index < 1_000_016; index++) {
      expect(JSON.stringify(typicalCall(index).proposal.args).length).toBeLessThan(200);
      const size = JSON.stringify(largeEditCall(index).proposal.args).length;
      expect(size).toBeGreaterThan(2 * 1024);
      expect(size).toBeLessThan(2 * 5 * 1024);
    }
  });

  it('fails one call in ten, and one failure in four with about 20 KB of output', () => {
    const failing = Array.from({ length: 400 }, (_, index) => workloadRawCall('typical', index)).filter(
      (call) => call.failing,
    );
    expect(failing).toHaveLength(40);
    const large = failing.filter((call) => (call.result.content[0]?.text.length ?? 0) > 19_000);
    expect(large).toHaveLength(10);
  });
});

describe('the yardsticks', () => {
  it('the recursion sentinel refuses a call already made three times within its last ten', () => {
    const sentinel = recursionSentinel();
    const call = workloadRawCall('typical', 1_000_000);
    expect([1, 2, 3, 4].map(() => sentinel.check(call))).toEqual([true, true, true, false]);
  });

  it("the paper's guard bans an action class after two agent failures with the same signature", () => {
    const guard = paperGuard();
    const missing = (index: number) => realisticFailure(index * 40);
    expect(guard.check(missing(1))).toBe(true);
    guard.record(missing(1));
    guard.record(missing(2));
    expect(guard.check(missing(3))).toBe(false);
  });
});

describe('the guard as timed', () => {
  it('answers a halt as its user would, so that calls timed after a run of failures meet a guard that checks them', async () => {
    const engine = await loadPerfEngine('source');
    const guard = narrowingContender(engine, seededState(engine, 10));
    const failures = Array.from({ length: 2_000 }, (_, index) => workloadRawCall('typical', index))
      .filter((call) => call.failing && (call.result.content[0]?.text.length ?? 0) >= LONG_OUTPUT)
      .slice(0, 40);
    const allowed = failures.map((call) => {
      const goesAhead = guard.check(call);
      guard.record(call);
      return goesAhead;
    });
    // Twenty test runs failing in a row halt the guard; a halted one would refuse all that follow.
    expect(allowed.slice(-15)).toContain(true);
  });
});

describe('narrowing bench perf', () => {
  it('runs with tiny sizes and prints every figure and target as JSON', async () => {
    const { io, stdout, stderr } = captureIO();
    const code = await perfCommand(
      {
        json: true,
        constraints: [10, 40],
        ops: 64,
        runs: 2,
        calls: 4_000,
        journalEntries: 200,
        replayCalls: 100,
        processes: 1,
      },
      io,
    );
    expect(code).toBe(0);
    const report = JSON.parse(stdout());
    expect(report.config).toMatchObject({ constraints: [10, 40], ops: 64, runs: 2, calls: 4_000 });
    expect(report.comparisons).toHaveLength(4);
    expect(report.comparisons[0]).toMatchObject({ constraints: 10, workload: 'typical' });
    for (const figure of report.comparisons) {
      for (const stats of [figure.narrowing, figure.sentinel, figure.paper]) {
        expect(stats.calls).toBe(128);
        expect(stats.p99Ns).toBeGreaterThanOrEqual(stats.p50Ns);
      }
      const failures = figure.workload === 'typical' ? ['failingShort', 'failingLong'] : ['failing4kb'];
      for (const name of failures) expect(figure.byOutcome[name].calls).toBeGreaterThan(0);
    }
    // The bundle's first process writes its code cache; the one timed after it reads that cache.
    expect(report.coldStart).toMatchObject({ processes: 1, cacheHits: 1 });
    for (const series of [report.coldStart.cached, report.coldStart.writing, report.coldStart.library])
      expect(series.steadyNs).toBeGreaterThan(0);
    expect(report.memory).toMatchObject({ callsRequested: 4_000, calls: 4_000, gcExposed: true });
    expect(report.memory.activeConstraints).toBeGreaterThan(0);
    expect(report.journal).toMatchObject({ calls: 200 });
    expect(report.replay).toMatchObject({ calls: 100 });
    // Per second of CPU time, like the other figures; the wall clock's figure beside it counts the
    // time the machine gave to other processes too.
    expect(report.replay.callsPerSecond).toBeGreaterThan(0);
    expect(report.replay.callsPerWallSecond).toBeGreaterThan(0);
    expect(report.targets.map((target: { id: string }) => target.id)).toEqual([
      'pair-typical-10',
      'pair-edit-4kb-10',
      'pair-typical-40',
      'pair-edit-4kb-40',
      'failing-short',
      'failing-20kb',
      'failing-edit-4kb',
      'cold-first-call',
      'cold-first-100',
      'journal',
      'heap',
      'replay',
      'replay-cli',
    ]);
    expect(stderr()).toContain('memory run');
  }, 120_000);
});

describe('bench/perf-ab.ts', () => {
  it('times two builds on the same calls, taking turns, and reports each class asked for', async () => {
    const sources = fileURLToPath(new URL('../../src', import.meta.url));
    const report = await runAb({
      base: sources,
      next: sources,
      blocks: 2,
      block: 8,
      constraints: 10,
      only: ['failingShort', 'failing4kb'],
    });
    expect(report.figures.map((figure) => figure.name)).toEqual(['failingShort', 'failing4kb']);
    for (const figure of report.figures) {
      expect(figure.calls).toBe(16);
      expect(figure.baseNs).toBeGreaterThan(0);
      expect(figure.nextNs).toBeGreaterThan(0);
      expect(figure.medianRatio).toBeGreaterThan(0);
    }
    expect(formatAb(report)).toContain('failing4kb');
  }, 60_000);

  it('times the replay row through both builds, taking turns, only when asked for', async () => {
    const sources = fileURLToPath(new URL('../../src', import.meta.url));
    const report = await runAb({
      base: sources,
      next: sources,
      only: ['replay'],
      replayCalls: 20,
      replayRuns: 2,
    });
    expect(report.figures.map((figure) => figure.name)).toEqual(['replay']);
    expect(report.figures[0]).toMatchObject({ calls: 40 });
    expect(report.figures[0]?.nextNs).toBeGreaterThan(0);
  }, 60_000);

  it('says which folder holds no build', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'narrowing-perf-ab-'));
    try {
      await expect(runAb({ base: empty, next: empty })).rejects.toThrow(/no build of the engine/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
