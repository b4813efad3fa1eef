import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  formatProxyBench,
  type ProxyBenchResult,
  proxyTargets,
  runProxyBench,
  stillWarming,
  timesText,
} from '../../bench/proxy.js';

/**
 * A run of the benchmark starts a dozen processes: the tests that read the same kind of run share
 * one, made by the first that asks, each checking what it says of it. The runs with more paths (a
 * breakdown, another build) stay one per test, each within a test's time on a loaded machine.
 */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= make();
    return made;
  };
}

/** The four paths, timed and measured for CPU. */
const plainRun = once(() => runProxyBench({ calls: 20, concurrentCalls: 18, concurrency: 4, warmup: 10 }));

describe('the proxy benchmark', () => {
  it('measures all four paths with the number of calls it was given, and reports them', async () => {
    const result = await plainRun();
    expect(result.latency.direct.count).toBe(20);
    expect(result.latency.proxied.count).toBe(20);
    expect(result.latency.relay.count).toBe(20);
    expect(result.latency.jsonRelay.count).toBe(20);
    expect(result.latency.proxied.p99Ms).toBeGreaterThanOrEqual(result.latency.proxied.medianMs);
    expect(result.throughput).toMatchObject({ concurrency: 4, calls: 18 });
    expect(result.throughput.proxied).toBeGreaterThan(0);
    expect(result.throughput.relay).toBeGreaterThan(0);
    expect(result.throughput.jsonRelay).toBeGreaterThan(0);
    // Per path: warm-up (10 calls, then 5 concurrently), sequential calls, one untimed burst of 5 and four timed ones.
    expect(result.totalCalls).toBe(4 * (10 + 5 + 20 + 5 + 18));
    const text = formatProxyBench(result);
    expect(text).toContain('20 calls each way, interleaved');
    expect(text).toContain('Throughput with 4 concurrent callers');
    expect(text).toMatch(/relay +\d+ calls\/s \(\d+% of direct\)/);
    expect(text).toMatch(/JSON +\d+ calls\/s \(\d+% of direct\)/);
  });

  it.skipIf(!existsSync('/proc/self/stat'))(
    "measures the guard's own work for as many calls in the same run, and sets the proxy against a JSON relay plus that work",
    async () => {
      const result = await plainRun();
      expect(result.cpu?.jsonRelayUs).toBeGreaterThanOrEqual(0);
      expect(result.cpu?.guardUs).toBeGreaterThan(0);
      expect(formatProxyBench(result)).toMatch(
        /the guard's own work for as many calls, alone in this process: \d+ µs per call; the proxy is \d+\.\d\d× a JSON relay plus that work/,
      );
      expect(proxyTargets(result).map((target) => target.id)).toEqual([
        'proxy-median',
        'proxy-p99',
        'proxy-cpu-work',
        'proxy-cpu',
      ]);
    },
  );

  it.skipIf(!existsSync('/proc/self/stat'))(
    'says what the proxy cost per call over the last fifth of its sequential warm-up, beside the sequential calls measured',
    async () => {
      const result = await plainRun();
      expect(result.cpu?.warmupTailCalls).toBe(2);
      expect(result.cpu?.warmupTailUs).toBeGreaterThanOrEqual(0);
      expect(result.cpu?.sequentialUs).toBeGreaterThanOrEqual(0);
      expect(formatProxyBench(result)).toMatch(
        /the proxy over the last 2 sequential warm-up calls: \d+ µs per call; over the 20 measured: \d+ µs/,
      );
    },
  );

  it('with a breakdown, also measures the proxy without a journal, learning or not, and says where the CPU goes', async () => {
    const result = await runProxyBench({
      calls: 10,
      concurrentCalls: 10,
      concurrency: 2,
      warmup: 2,
      breakdown: true,
    });
    // Six paths, each with its warm-up, sequential calls, an untimed burst of 2 and its share of the timed ones.
    expect(result.totalCalls).toBe(6 * (2 + 1 + 10 + 2 + 10));
    expect(result.cpu?.jsonRelayUs).toBeGreaterThanOrEqual(0);
    expect(result.cpu?.proxyInMemoryUs).toBeGreaterThanOrEqual(0);
    expect(result.cpu?.proxyOffUs).toBeGreaterThanOrEqual(0);
    expect(result.latency.inMemory?.count).toBe(10);
    expect(result.latency.off?.count).toBe(10);
    const text = formatProxyBench(result);
    expect(text).toContain('Where it goes');
    expect(text).toMatch(/µs {2}learning from each result/);
    expect(text).toMatch(/µs {2}the journal and the state file/);
  });

  it('with a breakdown, says how much of the added latency each step of the proxy brings', () => {
    const latency = (medianMs: number) => ({ count: 500, medianMs, p99Ms: 2 * medianMs, meanMs: medianMs });
    const result: ProxyBenchResult = {
      tool: 'echo',
      latency: {
        direct: latency(0.4),
        proxied: latency(0.7),
        relay: latency(0.48),
        jsonRelay: latency(0.5),
        off: latency(0.6),
        inMemory: latency(0.65),
        addedMedianMs: 0.3,
        addedP99Ms: 0.6,
      },
      throughput: { concurrency: 8, calls: 2000, direct: 9000, proxied: 4000, relay: 6000, jsonRelay: 5500 },
      totalCalls: 12_000,
      durationMs: 30_000,
      node: 'v22.0.0',
      platform: 'linux-x64',
      engine: 'dist',
    };
    const text = formatProxyBench(result);
    expect(text).toContain(
      'Where the added latency goes (median over direct, each path in the same rounds):',
    );
    expect(text).toContain('  0.100 ms  a JSON relay: one more process that reads and writes each message');
    expect(text).toContain(
      '  0.200 ms  the proxy checking each call, learning nothing, state in memory (preset off)',
    );
    expect(text).toContain('  0.250 ms  the same, learning from each result (preset precise)');
    expect(text).toContain('  0.300 ms  the same, with its journal and state file (the proxy as it runs)');
  });

  it('with another build to compare, times its proxy in the same rounds and says how the two compare', async () => {
    const build = fileURLToPath(new URL('../../dist', import.meta.url));
    const result = await runProxyBench({
      calls: 10,
      concurrentCalls: 8,
      concurrency: 2,
      warmup: 2,
      compare: build,
    });
    expect(result.latency.base?.count).toBe(10);
    expect(result.throughput.base).toBeGreaterThan(0);
    // Five paths, each with its warm-up, sequential calls, an untimed burst of 2 and five timed ones.
    expect(result.totalCalls).toBe(5 * (2 + 1 + 10 + 2 + 8));
    expect(result.cpu?.baseUs).toBeGreaterThanOrEqual(0);
    const text = formatProxyBench(result);
    expect(text).toMatch(/base +median +\d+\.\d{3} ms/);
    // Each path's CPU is counted in clock ticks: over a few calls one may use none, and then says so.
    expect(text).toMatch(
      /this build's to the other's (?:\d+\.\d{3}×|not measurable: under one clock tick)$/m,
    );
  });

  it('refuses a folder that is not a build before starting anything', async () => {
    const notABuild = fileURLToPath(new URL('../../docs', import.meta.url));
    await expect(runProxyBench({ calls: 1, compare: notABuild })).rejects.toThrow(
      /not the build of a narrowing checkout/,
    );
  });

  it('says to warm up longer only when the calls measured cost well below the end of the warm-up', () => {
    // A proxy still being compiled gets cheaper call by call; one that cost the same before and
    // after the warm-up ended (within noise) is not told to warm up longer.
    expect(stillWarming(680, 700)).toBe(false);
    expect(stillWarming(600, 590)).toBe(false);
    expect(stillWarming(1020, 700)).toBe(true);
  });

  it('says a ratio over a path that used less than one clock tick cannot be measured, instead of printing Infinity', () => {
    expect(timesText(420, 80, 2)).toBe('5.25×');
    expect(timesText(420, 0, 3)).toBe('not measurable: under one clock tick');
    expect(timesText(0, 0, 2)).toBe('not measurable: under one clock tick');
  });
});
