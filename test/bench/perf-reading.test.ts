import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatReadings, loadReader, READING_KINDS, timeReadings } from '../../bench/perf-reading.js';

const SOURCES = fileURLToPath(new URL('../../src', import.meta.url));

describe('bench/perf-reading.ts', () => {
  it('gives each call it times a path or a line of its own, so that no reading is kept from another', () => {
    for (const kind of READING_KINDS) {
      expect(JSON.stringify(kind.call(1))).not.toBe(JSON.stringify(kind.call(2)));
    }
  });

  it('times each kind of call, and each against a base build when given one', async () => {
    const reader = await loadReader(SOURCES);
    const figures = timeReadings(reader, reader, { rounds: 2, block: 3 });
    expect(figures.map((figure) => figure.kind)).toEqual(READING_KINDS.map((kind) => kind.name));
    expect(figures.every((figure) => figure.baseUs !== undefined && figure.medianRatio !== undefined)).toBe(
      true,
    );
    expect(formatReadings(figures).split('\n')[0]).toBe('call\tµs a call\tbase µs\tmedian pair new/base');
  });
});
