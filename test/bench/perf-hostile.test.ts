import { describe, expect, it } from 'vitest';
import { formatHostile, HOSTILE_SHAPES, timeHostile } from '../../bench/perf-hostile.js';

describe('bench/perf-hostile.ts', () => {
  it('shapes each text to about the length asked, new on every round', () => {
    for (const shape of HOSTILE_SHAPES) {
      const first = shape.call(8_000, 1);
      const second = shape.call(8_000, 2);
      const text = shape.kind === 'output' ? first.output : first.command;
      expect({ shape: shape.name, long: text.length >= 7_900 && text.length <= 8_100 }).toEqual({
        shape: shape.name,
        long: true,
      });
      expect(second).not.toEqual(first);
    }
  });

  it('times every shape at every size, each beside the plain text of its kind', () => {
    const figures = timeHostile([5_000, 6_000], 1);
    expect(figures).toHaveLength(HOSTILE_SHAPES.length * 2);
    for (const figure of figures) {
      const plain = figure.shape.startsWith('plain');
      expect({ shape: figure.shape, hasRatio: figure.ratio !== undefined }).toEqual({
        shape: figure.shape,
        hasRatio: !plain,
      });
    }
    const printed = formatHostile(figures);
    expect(printed.split('\n')[0]).toBe(
      'shape\tcharacters\tms a call (CPU, median)\tover the plain text of its kind',
    );
    expect(printed).toContain('command: a run of JWT openings\t6,000\t');
  });
});
