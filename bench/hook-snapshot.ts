/**
 * Would a V8 start-up snapshot of the hook client start a hook process faster than the bundle run
 * from its code cache (what `hook.cjs` does)? Builds, with the Node under test, a snapshot whose main
 * function runs the client (`node --snapshot-blob FILE --build-snapshot`), and an empty one (what a
 * user-land snapshot costs by itself), then times, in interleaved rounds that take turns at going
 * first: a bare `node -e 0`, the hook as the bin runs it, the hook from its snapshot, and the empty
 * snapshot. The two hooks share one project and its helper; each has a session of its own, read and
 * answered as `bench hooks` reads them (a file read's before and after events). Prints each one's
 * wall time (p50, p90, and their ratio to the bare start's) and the CPU a process reports at its exit.
 *
 *     npm run build && npx tsx bench/hook-snapshot.ts [--node PATH] [--rounds 60]
 *
 * `--node` times another Node (the registry's `node` package installs other majors into a folder of
 * your choosing: `npm install --prefix DIR node@22`, then `--node DIR/node_modules/node/bin/node`).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sessionEvents } from '../src/hooks/bench.js';
import { stopDaemons } from '../src/hooks/daemon-client.js';
import { printedHelp } from './help.js';

if (printedHelp(process.argv.slice(2), import.meta.url)) process.exit(0);

const { values } = parseArgs({
  options: {
    node: { type: 'string', default: process.execPath },
    rounds: { type: 'string', default: '60' },
    hook: { type: 'string', default: fileURLToPath(new URL('../dist/hooks/hook.cjs', import.meta.url)) },
  },
});
const node = values.node;
const rounds = Number(values.rounds);
const hook = values.hook;
const client = join(hook, '..', 'hook-client.cjs');

/**
 * The snapshot's entry: the client's text made a function at build time, run by the main function
 * with the arguments the bin gives it. The hook's entry is put back as the process's script, so that
 * the helper it asks is the one the bin's hook asks (its socket is keyed by that entry).
 */
const CLIENT_ENTRY = `'use strict';
const { readFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
const file = ${JSON.stringify(client)};
const entry = ${JSON.stringify(hook)};
const run = new Function('require', 'module', 'exports', '__filename', '__dirname', '__narrowingImport', readFileSync(file, 'utf8'));
const builtin = require;
require('node:v8').startupSnapshot.setDeserializeMainFunction(() => {
  process.argv.splice(1, 0, entry);
  const module = { exports: {} };
  const importer = (specifier) =>
    import(require('node:url').pathToFileURL(join(dirname(file), specifier)).href);
  run(builtin, module, module.exports, file, dirname(file), importer);
});
`;
const EMPTY_ENTRY = `require('node:v8').startupSnapshot.setDeserializeMainFunction(() => {});\n`;
/** Loaded by every timed process: its CPU time, said on stderr at its exit. */
const CPU_REPORTER = `process.on('exit', () => { const u = process.cpuUsage(); require('node:fs').writeSync(2, '\\nCPU-US ' + (u.user + u.system) + '\\n'); });\n`;

const dir = mkdtempSync(join(tmpdir(), 'narrowing-hook-snapshot-'));
const project = join(dir, 'project');
const stateDir = join(project, '.narrowing');
try {
  mkdirSync(join(project, 'src'), { recursive: true });
  mkdirSync(stateDir);
  for (let i = 0; i < 7; i += 1) writeFileSync(join(project, `src/module-${i}.ts`), `// module ${i}\n`);
  const reporter = join(dir, 'cpu.cjs');
  writeFileSync(reporter, CPU_REPORTER);
  const blobs = { client: join(dir, 'client.blob'), empty: join(dir, 'empty.blob') };
  buildSnapshot(join(dir, 'client-entry.cjs'), CLIENT_ENTRY, blobs.client);
  buildSnapshot(join(dir, 'empty-entry.cjs'), EMPTY_ENTRY, blobs.empty);

  const env = { ...process.env };
  // Every Node start would read and parse the bundle (see `bench hooks`): no agent pays for it.
  delete env.NODE_EXTRA_CA_CERTS;
  const hookWords = ['claude-code', '--idle-ms', '60000'];
  const arms = [
    { name: 'bare `node -e 0`', args: ['-e', '0'], session: undefined },
    { name: 'hook, code cache', args: [hook, ...hookWords], session: 'cache' },
    { name: 'hook, snapshot', args: ['--snapshot-blob', blobs.client, ...hookWords], session: 'snapshot' },
    { name: 'empty snapshot', args: ['--snapshot-blob', blobs.empty], session: undefined },
  ] as const;
  const counts = arms.map(() => 0);
  const run = (index: number) => {
    const arm = arms[index] as (typeof arms)[number];
    const count = counts[index] ?? 0;
    counts[index] = count + 1;
    const payload =
      arm.session === undefined ? '' : sessionEvents(project, `snapshot-probe-${arm.session}`)(count);
    const started = process.hrtime.bigint();
    const result = spawnSync(node, ['--require', reporter, ...arm.args], { env, input: payload });
    const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
    const stderr = String(result.stderr);
    const cpu = /CPU-US (\d+)/.exec(stderr)?.[1];
    const failed = result.status !== 0 || stderr.includes('unchecked');
    return { wallMs, cpuMs: cpu === undefined ? Number.NaN : Number(cpu) / 1000, failed };
  };
  // The first event starts the helper; the next ones find it.
  run(1);
  waitForHelper(stateDir);
  for (let i = 0; i < 3; i += 1) for (let index = 1; index < arms.length; index += 1) run(index);
  const timings = arms.map(() => [] as ReturnType<typeof run>[]);
  for (let round = 0; round < rounds; round += 1) {
    const order = arms.map((_, index) => index);
    if (round % 2 === 1) order.reverse();
    for (const index of order) timings[index]?.push(run(index));
  }
  const bare = timings[0] ?? [];
  process.stdout.write(
    `Node ${version(node)}, ${rounds} rounds; snapshot ${size(blobs.client)} (empty ${size(blobs.empty)}), ` +
      `the client's code cache as the hook finds it\n\n`,
  );
  process.stdout.write(
    `${'process'.padEnd(20)}${'wall p50'.padStart(10)}${'p90'.padStart(10)}${'× p50'.padStart(8)}${'× p90'.padStart(8)}${'CPU p50'.padStart(10)}  failed\n`,
  );
  const bareWall = bare.map((t) => t.wallMs);
  for (const [index, arm] of arms.entries()) {
    const own = timings[index] ?? [];
    const wall = own.map((t) => t.wallMs);
    const cells = [
      ms(quantile(wall, 0.5)).padStart(10),
      ms(quantile(wall, 0.9)).padStart(10),
      ratio(quantile(wall, 0.5), quantile(bareWall, 0.5)).padStart(8),
      ratio(quantile(wall, 0.9), quantile(bareWall, 0.9)).padStart(8),
      ms(
        quantile(
          own.map((t) => t.cpuMs),
          0.5,
        ),
      ).padStart(10),
      `  ${own.filter((t) => t.failed).length}`,
    ];
    process.stdout.write(`${arm.name.padEnd(20)}${cells.join('')}\n`);
  }
} finally {
  await stopDaemons(stateDir);
  rmSync(dir, { recursive: true, force: true });
}

function buildSnapshot(entry: string, text: string, blob: string): void {
  writeFileSync(entry, text);
  const built = spawnSync(node, ['--snapshot-blob', blob, '--build-snapshot', entry], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`building ${blob} failed: ${built.stderr}`);
}

function waitForHelper(stateDir: string): void {
  for (let tries = 0; tries < 100; tries += 1) {
    if (readdirSync(stateDir).some((name) => name.endsWith('.sock'))) return;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  }
  throw new Error('the helper did not start');
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(q * (sorted.length - 1))] ?? Number.NaN;
}

function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}

function ratio(value: number, base: number): string {
  return `${(value / base).toFixed(2)}×`;
}

function size(file: string): string {
  return `${(statSync(file).size / 1024 / 1024).toFixed(1)} MB`;
}

function version(path: string): string {
  return spawnSync(path, ['--version'], { encoding: 'utf8' }).stdout.trim();
}
