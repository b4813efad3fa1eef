import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PUBLISHED_VANILLA, runLongHorizon } from '../../bench/long-horizon.js';
import { formatLongHorizon, longHorizonCommand } from '../../bench/long-horizon-command.js';
import { checkFidelity, fidelityLine, runLongHorizonBench } from '../../bench/long-horizon-report.js';
import { longHorizonSvg } from '../../bench/long-horizon-svg.js';
import { captureIO, svgProblems } from './support.js';

const dir = mkdtempSync(join(tmpdir(), 'narrowing-bench-long-horizon-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const full = runLongHorizonBench();

describe('a halted run', () => {
  it('ends at the halt: the agent answers and no later call is proposed, blocked or counted', () => {
    const halted = full.rows.filter((row) => row.mode !== 'vanilla' && row.haltedAt !== undefined);
    expect(halted.length).toBeGreaterThan(0);
    for (const row of halted) expect(row.blocked + row.successfulCalls + row.failedCalls).toBe(row.haltedAt);
  });
});

describe('the fidelity check', () => {
  it('finds every one of the eleven published vanilla figures in the simulation', () => {
    const fidelity = checkFidelity();
    const repeats = fidelity.figures.filter((figure) => figure.metric === 'repeatedFailures');
    expect(repeats).toHaveLength(11);
    for (const published of PUBLISHED_VANILLA) {
      const figure = repeats.find(
        (entry) =>
          entry.seed === published.seed &&
          entry.window === published.window &&
          entry.calls === published.calls,
      );
      expect(figure?.simulated).toBe(published.repeatedFailures);
    }
    expect(fidelity.ok).toBe(true);
  });

  it('also reproduces the 101 successful and 99 failed calls of seed 42 at window 20', () => {
    const calls = checkFidelity().figures.filter((figure) => figure.metric !== 'repeatedFailures');
    expect(calls.map((figure) => [figure.metric, figure.simulated])).toEqual([
      ['successfulCalls', 101],
      ['failedCalls', 99],
    ]);
  });

  it('names each figure that a different simulation gets wrong', () => {
    const offByOne = (seed: number, window: number, calls: number) => {
      const row = runLongHorizon(seed, window, calls, 'vanilla');
      return seed === 3 ? { ...row, repeatedFailures: row.repeatedFailures + 1 } : row;
    };
    const fidelity = checkFidelity(offByOne);
    expect(fidelity.ok).toBe(false);
    const line = fidelityLine(fidelity);
    expect(line).toContain('FIDELITY CHECK FAILED: 1 of 13');
    expect(line).toContain('seed 3, window 20, 200 calls: published 84 repeated failures, simulated 85');
  });
});

describe('narrowing bench long-horizon', () => {
  it('prints the config and one row per seed, window and mode as JSON', async () => {
    const { io, stdout } = captureIO();
    expect(await longHorizonCommand({ json: true, seeds: [42], windows: [20], calls: 60 }, io)).toBe(0);
    const report = JSON.parse(stdout());
    expect(report.config).toMatchObject({ seeds: [42], windows: [20], calls: 60 });
    const main = report.rows.filter((row: { calls: number }) => row.calls === 60);
    expect(main.map((row: { mode: string }) => row.mode)).toEqual(['vanilla', 'precise', 'strict']);
    expect(Object.keys(main[0]).sort()).toEqual(
      [
        'blocked',
        'calls',
        'constraintsSeeded',
        'failedCalls',
        'falseBlocks',
        'mode',
        'repeatedFailures',
        'seed',
        'successfulCalls',
        'wastedCostUsd',
        'window',
      ].sort(),
    );
  });

  it('runs six seeds and three windows by default, plus the horizon curve of seed 42 at window 20', () => {
    const { config, rows } = full;
    expect(config.seeds).toEqual([42, 1, 2, 3, 4, 5]);
    expect(rows.filter((row) => row.calls === 200)).toHaveLength(6 * 3 * 3);
    const curve = rows.filter((row) => row.seed === 42 && row.window === 20 && row.mode === 'vanilla');
    expect(curve.map((row) => row.calls).sort((a, b) => a - b)).toEqual([50, 100, 150, 200]);
  });

  it('has vanilla rows equal to all eleven published figures in the default run', () => {
    for (const published of PUBLISHED_VANILLA) {
      const row = full.rows.find(
        (entry) =>
          entry.mode === 'vanilla' &&
          entry.seed === published.seed &&
          entry.window === published.window &&
          entry.calls === published.calls,
      );
      expect(row?.repeatedFailures, JSON.stringify(published)).toBe(published.repeatedFailures);
    }
  });

  it("shows the paper's published guard beside seed 42 and an aggregate for each window", () => {
    const text = formatLongHorizon(runLongHorizonBench({ seeds: [42], windows: [10], calls: 200 }));
    expect(text).toMatch(/42 {2}paper's guard +3 +143 +43 +49/);
    expect(text).toMatch(/precise over 1 seeds: repeats \d+% of vanilla, successful calls \d+% of vanilla/);
    expect(text).toContain('Degradation with horizon (seed 42, window 20)');
    expect(text).toContain('Fidelity check: all 13 published vanilla figures reproduced exactly');
  });

  it('writes a well-formed chart with both panels and a legend when asked to plot', async () => {
    const path = join(dir, 'chart.svg');
    const { io } = captureIO();
    expect(await longHorizonCommand({ seeds: [42], windows: [20], calls: 50, plot: path }, io)).toBe(0);
    const svg = readFileSync(path, 'utf8');
    expect(svgProblems(svg)).toEqual([]);
    for (const label of [
      'vanilla (no guard)',
      'narrowing, precise preset',
      'narrowing, strict preset',
      'Repeated failures vs horizon',
      'False blocks per run',
    ]) {
      expect(svg).toContain(label);
    }
  });

  it("draws one bar per run with false blocks, and the paper's three", () => {
    const svg = longHorizonSvg(full);
    const bars = (colour: string) =>
      svg.match(
        new RegExp(`<rect x="[\\d.]+" y="[\\d.]+" width="[\\d.]+" height="[\\d.]+" fill="${colour}"/>`, 'g'),
      ) ?? [];
    const strict = full.rows.filter(
      (row) => row.mode === 'strict' && row.calls === 200 && row.falseBlocks > 0,
    );
    expect(bars('#2a9d55')).toHaveLength(strict.length);
    expect(bars('#7f7f7f')).toHaveLength(3);
  });

  it('reports a chart it cannot write, with status 2', async () => {
    const { io, stderr } = captureIO();
    const code = await longHorizonCommand(
      { seeds: [42], windows: [20], calls: 10, plot: join(dir, 'no/such/dir/x.svg') },
      io,
    );
    expect(code).toBe(2);
    expect(stderr()).toContain('cannot write the chart (ENOENT)');
  });
});
