import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Command } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  parseIntegerList,
  parseLongHorizonOptions,
  parseMlSearchOptions,
  parsePerfOptions,
  parsePositiveInteger,
  parseProxyOptions,
  parseSessionsOptions,
  register,
  runBenchCommand,
} from '../../../src/cli/commands/bench.js';
import { captureIO } from '../../bench/support.js';

describe('bench options', () => {
  it('reads comma-separated integers, spaces allowed', () => {
    expect(parseIntegerList('--seeds', '42, 1,2')).toEqual([42, 1, 2]);
  });

  it('says what --seeds takes when a seed is not an integer', () => {
    expect(() => parseIntegerList('--seeds', '1,x')).toThrow(
      '--seeds takes comma-separated integers (got "1,x")',
    );
  });

  it('refuses a count that is not a positive integer', () => {
    expect(() => parsePositiveInteger('--calls', '0')).toThrow('--calls takes a positive integer (got "0")');
    expect(() => parsePositiveInteger('--calls', '2e5')).toThrow(
      '--calls takes a positive integer (got "2e5")',
    );
  });

  it('leaves unset options to the benchmark defaults', () => {
    expect(parseLongHorizonOptions({})).toEqual({
      seeds: undefined,
      windows: undefined,
      calls: undefined,
      plot: undefined,
      json: false,
    });
    expect(parseMlSearchOptions({ batchSize: '16', trials: '15' })).toMatchObject({
      batchSize: 16,
      trials: 15,
    });
    expect(parsePerfOptions({ constraints: '10,100', calls: '5000' })).toMatchObject({
      constraints: [10, 100],
      calls: 5000,
    });
    expect(parseProxyOptions({ concurrentCalls: '16' })).toMatchObject({ concurrentCalls: 16 });
  });

  it('asks the proxy benchmark for its breakdown only with --breakdown', () => {
    expect(parseProxyOptions({ breakdown: true })).toMatchObject({ breakdown: true });
    expect(parseProxyOptions({})).toMatchObject({ breakdown: false });
  });

  it("pads the proxy benchmark's messages to the size given to --message-bytes, and not without it", () => {
    expect(parseProxyOptions({ messageBytes: '65536' })).toMatchObject({ messageBytes: 65536 });
    expect(parseProxyOptions({}).messageBytes).toBeUndefined();
  });

  it('passes the build given to --compare on to the proxy benchmark, and none without it', () => {
    expect(parseProxyOptions({ compare: '../before/dist' })).toMatchObject({ compare: '../before/dist' });
    expect(parseProxyOptions({})).not.toHaveProperty('compare');
  });

  it('runs the child session on the engine sources when the command runs from them', () => {
    expect(parseSessionsOptions({ json: true })).toEqual({ json: true, engine: 'source' });
  });

  it('times the engine it is asked for, and says what --engine takes otherwise', () => {
    expect(parsePerfOptions({ engine: 'source' })).toMatchObject({ engine: 'source' });
    expect(parsePerfOptions({})).not.toHaveProperty('engine');
    expect(() => parsePerfOptions({ engine: 'fast' })).toThrow('--engine takes source or dist (got "fast")');
  });

  it('refuses a window of zero', () => {
    expect(() => parseLongHorizonOptions({ windows: '10,0' })).toThrow(
      '--windows takes comma-separated positive integers (got "10,0")',
    );
  });
});

describe('narrowing bench', () => {
  it('registers long-horizon, sessions, ml-search, perf, proxy, fleet and hooks', () => {
    const program = new Command('narrowing');
    register(program);
    const bench = program.commands.find((command) => command.name() === 'bench');
    expect(bench?.commands.map((command) => command.name())).toEqual([
      'long-horizon',
      'sessions',
      'ml-search',
      'perf',
      'proxy',
      'fleet',
      'hooks',
    ]);
    const longHorizon = bench?.commands.find((command) => command.name() === 'long-horizon');
    expect(longHorizon?.options.map((option) => option.long)).toEqual([
      '--seeds',
      '--windows',
      '--calls',
      '--plot',
      '--json',
    ]);
  });

  it('reports a bad option in one line with status 2, before running anything', async () => {
    const { io, stdout, stderr } = captureIO();
    const code = await runBenchCommand('longHorizon', () => parseLongHorizonOptions({ seeds: '1,x' }), io);
    expect(code).toBe(2);
    expect(stderr()).toBe('--seeds takes comma-separated integers (got "1,x")\n');
    expect(stdout()).toBe('');
  });

  it('loads the benchmarks from the sources and prints JSON only on standard output', async () => {
    const { io, stdout } = captureIO();
    const parse = () => parseMlSearchOptions({ seeds: '1', trials: '5', json: true });
    expect(await runBenchCommand('mlSearch', parse, io)).toBe(0);
    expect(JSON.parse(stdout()).rows).toHaveLength(9);
  });

  it('measures the MCP proxy with the sizes it is given', async () => {
    const { io, stdout, stderr } = captureIO();
    const parse = () =>
      parseProxyOptions({ calls: '4', concurrentCalls: '4', concurrency: '2', warmup: '1', json: true });
    expect(await runBenchCommand('proxy', parse, io)).toBe(0);
    const result = JSON.parse(stdout());
    expect(result.latency.direct.count).toBe(4);
    expect(result.throughput).toMatchObject({ concurrency: 2, calls: 4 });
    expect(stderr()).toContain('server-everything');
  });
});

describe('narrowing bench from the published package', () => {
  const root = fileURLToPath(new URL('../../..', import.meta.url));
  const packaged = join(root, 'dist', 'bench', 'packaged.js');
  /** The package as installed: the build and package.json, without the benchmark sources. */
  const installed = {
    checkout: pathToFileURL(join(root, 'no-checkout', 'bench', 'commands.ts')),
    packaged: pathToFileURL(packaged),
    packageJson: pathToFileURL(join(root, 'package.json')),
  };
  beforeAll(() => {
    if (!existsSync(packaged)) spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
  }, 300_000);

  it('runs ml-search from the bundled build', async () => {
    const { io, stdout } = captureIO();
    const parse = () => parseMlSearchOptions({ seeds: '1', trials: '5', json: true });
    expect(await runBenchCommand('mlSearch', parse, io, installed)).toBe(0);
    expect(JSON.parse(stdout()).rows).toHaveLength(9);
  });

  it('runs long-horizon from the bundled build', async () => {
    const { io, stdout } = captureIO();
    const parse = () => parseLongHorizonOptions({ seeds: '1', windows: '10', calls: '40', json: true });
    expect(await runBenchCommand('longHorizon', parse, io, installed)).not.toBe(2);
    expect(() => JSON.parse(stdout())).not.toThrow();
  });

  it('says in one line where to clone the repository and what to run there for perf', async () => {
    const { io, stdout, stderr } = captureIO();
    expect(await runBenchCommand('perf', () => parsePerfOptions({}), io, installed)).toBe(2);
    expect(stdout()).toBe('');
    expect(stderr()).toBe(
      'narrowing-guard bench perf runs from a source checkout (it times the sources and the build against ' +
        'yardsticks kept in the repository): git clone https://github.com/narrowing-guard/narrowing-guard.git ' +
        '&& cd narrowing-guard && npm ci && npx tsx src/cli/main.ts bench perf\n',
    );
  });
});
