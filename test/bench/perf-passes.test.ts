import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { failureTexts, formatPasses, loadPasses, timePasses } from '../../bench/perf-passes.js';

const SOURCES = fileURLToPath(new URL('../../src', import.meta.url));

describe('bench/perf-passes.ts', () => {
  it('times the workload’s 20 KB test logs and its short failures apart', () => {
    const [long, short] = failureTexts(3);
    expect(long?.texts).toHaveLength(3);
    expect(long?.texts.every((text) => text.length >= 10_000 && text.includes('Test Files'))).toBe(true);
    expect(short?.texts.every((text) => text.length < 10_000)).toBe(true);
  });

  it('times every pass of a build on each kind of text, and each against a base build when given one', async () => {
    const passes = await loadPasses(SOURCES);
    const figures = timePasses(passes, passes, { rounds: 2, texts: 2 });
    expect(figures).toHaveLength(passes.passes.length * 2);
    expect(figures.map((figure) => figure.pass)).toContain('digest: scan for the masks');
    expect(figures.every((figure) => figure.baseUs !== undefined && figure.medianRatio !== undefined)).toBe(
      true,
    );
    const printed = formatPasses(figures);
    expect(printed.split('\n')[0]).toBe(
      'texts\tchars\tpass\tµs a text\tns a char\tbase µs\tmedian pair new/base',
    );
    expect(printed).toContain('about 20 KB\t');
  });
});
