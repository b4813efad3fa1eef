import { describe, expect, it } from 'vitest';
import { middleRange, type SourceCounts, sourceIntervals } from '../../bench/corpus-intervals.js';

const source = (loops: number, caught: number, calls: number, falseBlocks: number): SourceCounts => ({
  loops,
  caught,
  calls,
  falseBlocks,
});

describe('ranges of a half, its sources resampled', () => {
  it('gives a single value for every figure when all sources agree', () => {
    const intervals = sourceIntervals([source(4, 2, 1000, 1), source(4, 2, 1000, 1), source(4, 2, 1000, 1)]);
    expect(intervals.caught).toEqual({ low: 0.5, high: 0.5 });
    expect(intervals.caughtPerSource).toEqual({ low: 0.5, high: 0.5 });
    expect(intervals.falsePerThousand).toEqual({ low: 1, high: 1 });
    expect(intervals.falsePerThousandPerSource).toEqual({ low: 1, high: 1 });
  });

  it('spans from the worse to the better sources when they disagree, and holds the whole figure', () => {
    const sources = [
      source(10, 10, 1000, 0),
      source(10, 9, 1000, 0),
      source(10, 2, 1000, 5),
      source(10, 1, 1000, 6),
      source(10, 8, 1000, 1),
      source(10, 7, 1000, 2),
    ];
    const { caught, falsePerThousand } = sourceIntervals(sources);
    // 37 of 60 loops caught, 14 false blocks in 6,000 calls over all six sources.
    expect(caught?.low).toBeLessThan(37 / 60);
    expect(caught?.high).toBeGreaterThan(37 / 60);
    expect(caught?.low).toBeGreaterThanOrEqual(0.1);
    expect(caught?.high).toBeLessThanOrEqual(1);
    expect(falsePerThousand?.low).toBeLessThan(14 / 6);
    expect(falsePerThousand?.high).toBeGreaterThan(14 / 6);
  });

  it('leaves out the loop figures when no source has loops', () => {
    const intervals = sourceIntervals([source(0, 0, 500, 1), source(0, 0, 800, 0)]);
    expect(intervals.caught).toBeUndefined();
    expect(intervals.caughtPerSource).toBeUndefined();
    expect(intervals.falsePerThousand).toBeDefined();
  });

  it('draws the same ranges on every run of one corpus', () => {
    const sources = [source(5, 1, 300, 2), source(3, 3, 900, 0), source(8, 4, 100, 1), source(0, 0, 50, 0)];
    expect(sourceIntervals(sources)).toEqual(sourceIntervals(sources));
  });

  it('gives no range of nothing', () => {
    expect(middleRange([])).toBeUndefined();
    expect(sourceIntervals([])).toEqual({
      caught: undefined,
      caughtPerSource: undefined,
      falsePerThousand: undefined,
      falsePerThousandPerSource: undefined,
    });
  });

  it('keeps the middle 95% of the values, whatever their order', () => {
    const values = Array.from({ length: 200 }, (_, index) => (index * 37) % 200);
    expect(middleRange(values)).toEqual({ low: 4, high: 194 });
  });
});
