import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { issueTargetRows, issueTargetsText, readTestTiming } from '../../bench/issue-targets.js';
import type { PerfReport, TargetResult } from '../../bench/perf.js';
import type { ProxyBenchResult } from '../../bench/proxy.js';
import { main } from '../../bench/results.js';
import { temporaryDir } from '../stores/sample-state.js';

const target = (id: string, pass: boolean, value = 'x'): TargetResult => ({
  id,
  pass,
  value,
  description: id,
});
const perfWith = (targets: TargetResult[]) => ({ targets }) as unknown as PerfReport;

describe('the table of performance targets', () => {
  it('has every row of the issue, in its order, each with a target', () => {
    const rows = issueTargetRows({});
    expect(rows.map((row) => row.what)).toEqual([
      'hook per event, helper (default)',
      'proxy added latency (echo server, stdio)',
      'guard, typical call (10% failures, conversion included)',
      'guard, 1–4 KB edits (failing ones included)',
      'guard, failing call',
      'fresh process',
      'replay',
      'journal, heap',
      '`npm test`',
    ]);
    expect(rows.every((row) => row.target.length > 0 && row.verdict === 'not measured')).toBe(true);
  });

  it('meets a row only when every figure in it meets its target, at every constraint count', () => {
    const rows = issueTargetRows({
      perf: perfWith([
        target('pair-typical-10', true, '3.1×'),
        target('pair-typical-1000', false, '5.4×'),
        target('replay', true),
        target('replay-cli', true),
        target('cold-first-call', true),
        target('cold-first-100', false),
      ]),
    });
    const row = (what: string) => rows.find((entry) => entry.what.startsWith(what));
    expect(row('guard, typical')).toMatchObject({ verdict: 'not met', measured: '1,000 constraints: 5.4×' });
    expect(row('replay')).toMatchObject({ verdict: 'met', measured: 'warm x; CLI x' });
    expect(row('fresh process')?.verdict).toBe('not met');
  });

  it("shows the hook's CPU per event with the helper, against a bare start, from `bench hooks`", () => {
    const cpu = (label: string, extra: number) => ({
      name: `helper, ${label}: CPU per event`,
      measured: `+${extra} ms (${60 + extra} / 60 ms)`,
      target: '≤ +15 ms',
      met: extra <= 15,
      figures: { bareCpuMs: 60, hookCpuMs: 60 + extra },
    });
    const latency = {
      name: 'helper, empty state: p50',
      measured: '1.1×',
      target: '≤ 1.25×',
      met: true,
      figures: {},
    };
    const [met] = issueTargetRows({ hooks: [latency, cpu('empty state', 9), cpu('40,000 constraints', 12)] });
    expect(met).toMatchObject({
      verdict: 'met',
      measured: 'empty state: +9 ms (69 / 60 ms); 40,000 constraints: +12 ms (72 / 60 ms)',
    });
    const [missed] = issueTargetRows({ hooks: [cpu('empty state', 9), cpu('40,000 constraints', 31)] });
    expect(missed?.verdict).toBe('not met');
  });

  it("judges the proxy's CPU against a byte relay, and shows the measure proposed (a JSON relay plus the guard's own work) beside it unjudged", () => {
    const stats = { count: 1000, medianMs: 0.5, p99Ms: 1.5, meanMs: 0.6 };
    const proxy = (proxyUs: number) =>
      ({
        tool: 'echo',
        latency: {
          direct: { ...stats, medianMs: 0.3, p99Ms: 1 },
          proxied: stats,
          relay: stats,
          jsonRelay: stats,
          addedMedianMs: 0.2,
          addedP99Ms: 0.5,
        },
        throughput: {
          concurrency: 8,
          calls: 2000,
          direct: 4000,
          proxied: 3000,
          relay: 3900,
          jsonRelay: 3800,
        },
        cpu: { calls: 3500, proxyUs, relayUs: 32, jsonRelayUs: 54, guardUs: 81 },
        totalCalls: 0,
        durationMs: 0,
        node: 'v22.12.0',
        platform: 'linux-x64',
        engine: 'dist',
      }) as ProxyBenchResult;
    const [, missed] = issueTargetRows({ proxy: proxy(196) });
    expect(missed).toMatchObject({
      verdict: 'not met',
      measured:
        'p50 added 0.200 ms (0.500 vs 0.300 ms); p99 1.50× (1.500 vs 1.000 ms); CPU vs a JSON relay + the guard 1.45× (196 µs vs 54 + 81 µs) (met on the measure proposed, not judged); CPU vs a byte relay 6.13× (196 µs vs 32 µs)',
    });
    const [, met] = issueTargetRows({ proxy: proxy(60) });
    expect(met?.verdict).toBe('met');
  });

  it('judges `npm test` from the timing file the CI writes, and says when there is none', () => {
    const { dir, remove } = temporaryDir();
    try {
      const path = join(dir, 'timing.json');
      expect(readTestTiming(path)).toBeUndefined();
      writeFileSync(
        path,
        JSON.stringify({ cpuMinutes: 12.5, wallMinutes: 5.2, idle: true, node: '22.12.0' }),
      );
      const [testRow] = issueTargetRows({ testTiming: readTestTiming(path) }).slice(-1);
      expect(testRow).toMatchObject({
        verdict: 'met',
        measured: '12.5 CPU-minutes, 5.2 minutes wall, Node 22.12.0',
      });
      expect(issueTargetsText([testRow!])).toContain('MET');
    } finally {
      remove();
    }
  });

  it('does not judge `npm test` met from the timing of a run that failed', () => {
    const [testRow] = issueTargetRows({
      testTiming: { cpuMinutes: 2.1, wallMinutes: 1.2, idle: true, node: '24.1.0', status: 1 },
    }).slice(-1);
    expect(testRow).toMatchObject({
      verdict: 'not met',
      measured:
        '2.1 CPU-minutes, 1.2 minutes wall, Node 24.1.0 (the run failed with exit status 1: not judged)',
    });
  });

  it('refuses a --test-timing file that is missing before running any benchmark', async () => {
    const { dir, remove } = temporaryDir();
    const written: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string) => written.push(chunk) > 0) as typeof process.stderr.write;
    try {
      expect(await main(['--test-timing', join(dir, 'missing.json')])).toBe(2);
    } finally {
      process.stderr.write = write;
      remove();
    }
    expect(written.join('')).toContain(
      'missing.json: no timing there; write one with `.ci/timed FILE npm test`',
    );
  });
});
