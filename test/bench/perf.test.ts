import { describe, expect, it } from 'vitest';
import { perfCommand } from '../../bench/perf-command.js';
import { largeEditCall, typicalCall } from '../../bench/perf-workload.js';
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
});

describe('narrowing bench perf', () => {
  it('runs with tiny sizes and prints every figure as JSON', async () => {
    const { io, stdout, stderr } = captureIO();
    const code = await perfCommand(
      {
        json: true,
        constraints: [10, 40],
        ops: 64,
        runs: 1,
        calls: 4_000,
        journalEntries: 300,
        replayCalls: 100,
      },
      io,
    );
    expect(code).toBe(0);
    const report = JSON.parse(stdout());
    expect(report.config).toMatchObject({ constraints: [10, 40], ops: 64, runs: 1, calls: 4_000 });
    expect(report.hotPath).toHaveLength(4);
    expect(report.hotPath[0]).toMatchObject({ constraints: 10, workload: 'typical' });
    expect(Object.keys(report.hotPath[0].byKind).sort()).toEqual(
      ['command with unknown effects', 'edit', 'read', 'read-only command'].sort(),
    );
    for (const figure of report.hotPath) expect(figure.pairNs).toBeCloseTo(figure.checkNs + figure.recordNs);
    expect(Object.keys(report.scaling).sort()).toEqual(['edit-4kb', 'typical']);
    expect(report.memory).toMatchObject({ callsRequested: 4_000, calls: 4_000, gcExposed: true });
    expect(report.memory.activeConstraints).toBeGreaterThan(0);
    expect(report.journal.entries).toBe(300);
    expect(report.journal.entriesPerSecond).toBeGreaterThan(0);
    expect(report.replay).toMatchObject({ calls: 100 });
    expect(report.targets.map((target: { id: string }) => target.id)).toEqual([
      'pair-typical-10',
      'pair-edit-4kb-10',
      'pair-typical-40',
      'pair-edit-4kb-40',
      'scaling-typical',
      'scaling-edit-4kb',
      'heap',
      'audit',
    ]);
    expect(stderr()).toContain('memory run');
  });
});
