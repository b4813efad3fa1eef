import { describe, expect, it } from 'vitest';
import { formatProcessAb, timeInThisProcess } from '../../bench/perf-process-ab.js';

describe('bench/perf-process-ab.ts', () => {
  it('prints each class with both builds’ medians in microseconds, the median ratio and every round’s ratio', () => {
    const text = formatProcessAb([
      {
        name: 'failing4kb',
        rounds: [
          [200_000, 150_000],
          [220_000, 231_000],
        ],
        baseNs: 210_000,
        newNs: 190_500,
        ratio: 0.9,
      },
    ]);
    expect(text.split('\n')[1]).toBe('failing4kb       210.0     190.5   0.900  (0.75 1.05)');
  });

  it('refuses a class of calls the builds are not timed on', async () => {
    await expect(timeInThisProcess('dist', 'failingHuge', 10, 10)).rejects.toThrow(
      'no class of calls named failingHuge',
    );
  });
});
