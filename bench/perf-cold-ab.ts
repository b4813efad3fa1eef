/**
 * Fresh processes of two builds timed against each other: their first calls, as `bench perf`'s cold
 * start times them (bench/perf-cold.ts), one process of each build in turn, the order alternating
 * round by round, so that whatever else the machine does lands on both alike. Prints the medians of
 * each build and the median of the rounds' ratios (new / base).
 *
 *     npx tsx bench/perf-cold-ab.ts --base <folder of a build> [--new dist] [--rounds 15]
 *                                   [--cached] [--new-flags=<node flags>] [--json]
 *
 * A build is any folder holding one where the package's dependencies resolve (inside a checkout).
 * `--new-flags` runs the new build's processes with Node flags of their own: with `--base dist
 * --new-flags=--no-lazy`, the same build with every function compiled as its module loads, which
 * tells how much of the first calls is V8 compiling them (with `--cached`, the new build's cache is
 * written under those flags: V8 rejects a cache compiled under others, and the first line says how
 * many processes of each build read theirs). `--cached` times each build's engine as
 * the row of `bench perf` does: bundled into one script and run from V8's code cache by that build's
 * loader, as the command line and the hook run theirs, the cache written by one process of each
 * build before the rounds (not counted).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { printedHelp } from './help.js';
import {
  bundleEngine,
  type CachedBundle,
  type ChildFigure,
  median,
  runColdChild,
  writeColdCalls,
} from './perf-cold.js';

const STEADY_CALLS = 1_000;

/** A figure of one process, in milliseconds or microseconds as its name says. */
const MEASURES: Readonly<Record<string, (figure: ChildFigure) => number>> = {
  'import (ms, wall)': (figure) => figure.importMs,
  'import (ms, CPU)': (figure) => figure.importCpuMs ?? 0,
  'first call (ms)': (figure) => figure.first / 1e6,
  'calls 2-10 (ms)': (figure) => (9 * figure.calls2To10) / 1e6,
  // The workload's first failure (a read of a missing file): the first call that reads an error.
  'call 10 (ms)': (figure) => (figure.each?.[9] ?? 0) / 1e6,
  'calls 11-100 (ms)': (figure) => (90 * figure.calls11To100) / 1e6,
  'first 100 calls (ms)': (figure) => (figure.first + 9 * figure.calls2To10 + 90 * figure.calls11To100) / 1e6,
  'calls 101-1,000 (µs)': (figure) => figure.calls101To1000 / 1e3,
  'steady state (µs)': (figure) => figure.steady / 1e3,
};

if (printedHelp(process.argv.slice(2), import.meta.url)) process.exit(0);

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    new: { type: 'string', default: 'dist' },
    rounds: { type: 'string', default: '15' },
    'new-flags': { type: 'string', default: '' },
    cached: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
if (values.base === undefined) throw new Error('--base <folder of a build> is required');
const flags = values['new-flags'].split(' ').filter(Boolean);
const builds = [values.base, values.new].map((folder) => `${pathToFileURL(resolve(folder)).href}/`);
const work = mkdtempSync(join(tmpdir(), 'narrowing-bench-cold-ab-'));
try {
  const file = writeColdCalls(work, STEADY_CALLS);
  const bundles: (CachedBundle | undefined)[] = [undefined, undefined];
  if (values.cached) {
    for (const index of [0, 1]) {
      const dir = join(work, `build-${index}`);
      mkdirSync(dir);
      const bundle = await bundleEngine(fileURLToPath(builds[index] as string), '.js', dir);
      bundles[index] = bundle;
      process.stderr.write(`${index === 0 ? 'base' : 'new'}: writing the code cache\n`);
      await runColdChild(
        builds[index] as string,
        '.js',
        file,
        STEADY_CALLS,
        true,
        index === 1 ? flags : [],
        bundle,
      );
    }
  }
  const figures: ChildFigure[][] = [[], []];
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const index of round % 2 === 0 ? [0, 1] : [1, 0]) {
      process.stderr.write(`round ${round + 1}, ${index === 0 ? 'base' : 'new'}\n`);
      figures[index]?.push(
        await runColdChild(
          builds[index] as string,
          '.js',
          file,
          STEADY_CALLS,
          true,
          index === 1 ? flags : [],
          bundles[index],
        ),
      );
    }
  }
  const [base = [], next = []] = figures;
  const rows = Object.entries(MEASURES).map(([measure, pick]) => ({
    measure,
    base: median(base.map(pick)),
    new: median(next.map(pick)),
    ratio: median(next.map((figure, index) => pick(figure) / pick(base[index] as ChildFigure))),
  }));
  // A cache V8 rejects (one written under other flags: V8 checks them) is compiled anew in every
  // round, and the figures would time that instead: how many of each build's processes read theirs.
  const cacheHits = figures.map((runs) => runs.filter((figure) => figure.cache === 'hit').length);
  if (values.json)
    process.stdout.write(
      `${JSON.stringify({ rounds: Number(values.rounds), ...(values.cached && { cacheHits }), rows }, null, 2)}\n`,
    );
  else {
    process.stdout.write(
      `${values.rounds} rounds${values.cached ? `, code-cached bundles (cache read by ${cacheHits[0]} and ${cacheHits[1]} processes)` : ''}\n`,
    );
    for (const row of rows)
      process.stdout.write(
        `${row.measure.padEnd(24)} base ${row.base.toFixed(2).padStart(9)}  new ${row.new.toFixed(2).padStart(9)}  new/base ${row.ratio.toFixed(3)}\n`,
      );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
