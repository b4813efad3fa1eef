import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { bundleEngine, type ChildFigure, coldSeries } from '../../bench/perf-cold.js';
import { compileCachedScript } from '../../src/node/code-cache.js';

const SOURCES = fileURLToPath(new URL('../../src', import.meta.url));

function figure(first: number, calls2To10: number, calls11To100: number, importMs = 30): ChildFigure {
  return {
    importMs,
    importCpuMs: importMs / 2,
    openMs: 1,
    first,
    calls2To10,
    calls11To100,
    calls101To1000: 100_000,
    steady: 90_000,
  };
}

describe('the cold-start summary', () => {
  it('takes the median of each figure over the processes', () => {
    const series = coldSeries([
      figure(4e6, 1e6, 5e5, 20),
      figure(9e6, 2e6, 6e5, 40),
      figure(5e6, 3e6, 7e5, 30),
    ]);
    expect(series).toMatchObject({
      processes: 3,
      importMs: 30,
      importCpuMs: 15,
      firstNs: 5e6,
      calls2To10Ns: 2e6,
    });
  });

  it('gives the first 100 calls as the mean of the first call, calls 2-10 and calls 11-100 together', () => {
    const series = coldSeries([figure(4e6, 1e6, 5e5)]);
    // 4 ms + 9 × 1 ms + 90 × 0.5 ms = 58 ms over 100 calls.
    expect(series.first100Ns * 100).toBeCloseTo(58e6);
  });
});

describe('the engine bundled for a cold start', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it('is one script the code-cache loader runs into a guard that checks and records a call', async () => {
    dir = mkdtempSync(join(tmpdir(), 'narrowing-cold-bundle-'));
    const bundle = await bundleEngine(SOURCES, '.ts', dir);
    const script = compileCachedScript({
      file: bundle.file,
      name: 'cold-start',
      parameters: ['exports', 'require', 'module'],
      cacheDir: bundle.cacheDir,
    });
    const module = { exports: {} as Record<string, unknown> };
    script.run(module.exports, createRequire(bundle.file), module);
    const api = module.exports as Record<string, (...args: unknown[]) => unknown>;
    expect(Object.keys(api).sort()).toEqual([
      'NarrowingEngine',
      'createToolCallAdapter',
      'installNativeHash',
      'toolCallToOutcome',
      'toolCallToProposal',
    ]);
    expect(script.cache).toBe('written');
    const Engine = api.NarrowingEngine as unknown as new (
      options: unknown,
    ) => {
      checkProposal(proposal: unknown): { verdict: string };
      recordOutcome(outcome: unknown): unknown;
    };
    const engine = new Engine({ adapter: api.createToolCallAdapter?.(), sessionId: 'cold' });
    const args = { path: 'src/orders/parse.ts' };
    expect(engine.checkProposal(api.toolCallToProposal?.('read_file', args)).verdict).toBe('allow');
    engine.recordOutcome(
      api.toolCallToOutcome?.('read_file', args, {
        content: [{ type: 'text', text: "ENOENT: no such file or directory, open 'src/orders/parse.ts'" }],
        isError: true,
      }),
    );
  }, 60_000);

  it('keeps its code cache in a folder of its own, empty until a process writes it', async () => {
    dir = mkdtempSync(join(tmpdir(), 'narrowing-cold-bundle-'));
    const bundle = await bundleEngine(SOURCES, '.ts', dir);
    expect(bundle.cacheDir.startsWith(dir)).toBe(true);
    expect(readdirSync(bundle.cacheDir)).toEqual([]);
  }, 60_000);
});
