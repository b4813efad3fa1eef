/**
 * Cold start: what the first calls of a fresh process cost, where hooks and short sessions live.
 * Several processes are started one after another; each times the engine's import, the guard's
 * construction, its first calls and, after a warm-up in the same process, the steady state, all
 * in CPU time so that a busy machine's pauses do not count.
 *
 * Two ways of starting are timed, process by process in turn. The processes that start often (the
 * command line, the hook) run one bundled script with V8's code cache (src/node/code-cache.ts): so
 * is the engine here, bundled as the command line's bundle is and compiled by the build's own
 * loader, the first process writing the cache at its exit (the functions its calls ran included)
 * and the next ones reading it. A program that uses the library imports the build's modules, with
 * no cache: timed beside it.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { asciiOnly } from '../scripts/ascii-only.js';
import { NODE_SCRIPT_BUNDLE } from '../scripts/node-bundle.js';
import type { EngineKind } from './engine.js';
import { type RawCall, workloadRawCall } from './perf-workload.js';

/** Medians over the processes of one way of starting. */
export interface ColdSeries {
  readonly processes: number;
  /** Wall-clock time of the import (or the bundle's compilation and run), and its CPU time. */
  readonly importMs: number;
  readonly importCpuMs: number;
  readonly openMs: number;
  readonly firstNs: number;
  /** CPU time of the first call, and the mean of calls 2–10, 11–100 and 101–1,000. */
  readonly calls2To10Ns: number;
  readonly calls11To100Ns: number;
  readonly calls101To1000Ns: number;
  /** Mean of the first 100 calls. */
  readonly first100Ns: number;
  /** Mean call after a warm-up in the same process. */
  readonly steadyNs: number;
}

export interface ColdStartFigure {
  /** Processes of each way of starting (the bundle's first, which writes its cache, apart). */
  readonly processes: number;
  /**
   * The engine bundled into one script run from V8's code cache, as the command line and the hook
   * run theirs: the processes that read the cache the first one wrote. The row's verdict is theirs.
   */
  readonly cached: ColdSeries;
  /** How many of those found the cache and read it (a rejected cache is compiled anew). */
  readonly cacheHits: number;
  /** The bundle's first process, which found no cache and wrote one at its exit. */
  readonly writing: ColdSeries;
  /** The build's modules imported as a program that uses the library does, no cache. */
  readonly library: ColdSeries;
}

/** CPU nanoseconds per call of each segment, as the child reports them. */
export interface ChildFigure {
  readonly importMs: number;
  readonly importCpuMs?: number;
  readonly openMs: number;
  /** `hit` or `written` for a bundle run from its code cache; `none` for the build's modules. */
  readonly cache?: 'hit' | 'written' | 'off' | 'none';
  readonly first: number;
  readonly calls2To10: number;
  readonly calls11To100: number;
  readonly calls101To1000: number;
  readonly steady: number;
  /** Each of the first 100 calls, when the child is asked to time them one by one. */
  readonly each?: readonly number[];
}

/** A bundle of the engine and the code cache it is run with (see `bundleEngine`). */
export interface CachedBundle {
  readonly file: string;
  readonly cacheDir: string;
}

const COLD_CALLS = 1_000;

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The summary of one way of starting, from the figures of its processes. */
export function coldSeries(figures: readonly ChildFigure[]): ColdSeries {
  const over = (pick: (figure: ChildFigure) => number) => median(figures.map(pick));
  return {
    processes: figures.length,
    importMs: over((figure) => figure.importMs),
    importCpuMs: over((figure) => figure.importCpuMs ?? 0),
    openMs: over((figure) => figure.openMs),
    firstNs: over((figure) => figure.first),
    calls2To10Ns: over((figure) => figure.calls2To10),
    calls11To100Ns: over((figure) => figure.calls11To100),
    calls101To1000Ns: over((figure) => figure.calls101To1000),
    first100Ns: over((figure) => (figure.first + 9 * figure.calls2To10 + 90 * figure.calls11To100) / 100),
    steadyNs: over((figure) => figure.steady),
  };
}

/** The modules of the engine a cold process loads, by their path in the build without the extension. */
const ENGINE_MODULES: readonly (readonly [string, readonly string[]])[] = [
  ['node/native-hash', ['installNativeHash']],
  ['core/loop', ['NarrowingEngine']],
  ['adapters/tool-call/index', ['createToolCallAdapter', 'toolCallToProposal', 'toolCallToOutcome']],
];

/**
 * Bundles the engine of the build (or sources, with `.ts`) in the folder `base` into one classic
 * script in `dir`, as the command line's bundle is made (scripts/bundle-cli.ts: CommonJS, whitespace
 * and syntax minified, names kept, in ASCII), exporting what a cold process calls; returns the bundle and an
 * empty folder for its code cache.
 */
export async function bundleEngine(
  base: string,
  extension: '.js' | '.ts',
  dir: string,
): Promise<CachedBundle> {
  const entry = join(dir, 'cold-engine-entry.mjs');
  writeFileSync(
    entry,
    ENGINE_MODULES.map(
      ([path, names]) =>
        `export { ${names.join(', ')} } from ${JSON.stringify(join(base, `${path}${extension}`))};`,
    ).join('\n'),
  );
  const file = join(dir, 'cold-engine.cjs');
  const built = await build({
    entryPoints: [entry],
    outfile: file,
    ...NODE_SCRIPT_BUNDLE,
    write: false,
  });
  writeFileSync(file, asciiOnly(built.outputFiles[0]?.text ?? ''));
  const cacheDir = mkdtempSync(join(dir, 'code-cache-'));
  return { file, cacheDir };
}

function engineBase(kind: EngineKind): { readonly base: string; readonly extension: '.js' | '.ts' } {
  return {
    base: new URL(kind === 'dist' ? '../dist/' : '../src/', import.meta.url).href,
    extension: kind === 'dist' ? '.js' : '.ts',
  };
}

/**
 * One fresh process timing the import, construction and first calls of the build (or sources, with
 * `.ts`) whose folder's URL is `base`, on the calls of `file`.
 */
export function runColdChild(
  base: string,
  extension: '.js' | '.ts',
  file: string,
  steady: number,
  oneByOne = false,
  /** Node's own flags for the child (`--no-lazy`, say). */
  nodeFlags: readonly string[] = [],
  /** The engine bundled from that build, run from its code cache instead of the build's modules. */
  bundle?: CachedBundle,
): Promise<ChildFigure> {
  const child = fileURLToPath(new URL('./perf-cold-child.mjs', import.meta.url));
  // The build runs on plain Node, as users run it; the sources need the development loader.
  const loader = extension === '.js' ? [] : ['--import', 'tsx'];
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [
        ...nodeFlags,
        ...loader,
        child,
        base,
        extension,
        file,
        String(COLD_CALLS),
        String(steady),
        oneByOne ? 'each' : '',
        ...(bundle === undefined ? [] : [bundle.file, bundle.cacheDir]),
      ],
      { maxBuffer: 16 * 1024 * 1024, timeout: 120_000, env: { ...process.env, NODE_OPTIONS: '' } },
      (error, stdout) => {
        if (error) reject(new Error(`a cold-start process failed: ${error.message}`));
        else resolve(JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as ChildFigure);
      },
    );
  });
}

/** Writes the calls of a cold-start process into `dir`, for `steady` calls timed after a warm-up; returns the file. */
export function writeColdCalls(dir: string, steady: number): string {
  const calls: RawCall[] = [];
  for (let index = 0; index < COLD_CALLS + 3 * steady; index++) calls.push(workloadRawCall('typical', index));
  const file = join(dir, 'calls.json');
  writeFileSync(file, JSON.stringify(calls.map(({ tool, args, result }) => ({ tool, args, result }))));
  return file;
}

/**
 * `steady` calls are timed for the steady state, after a warm-up of twice as many. The bundle's
 * processes and the library's take turns, the bundle's first (which writes the cache) before them.
 */
export async function coldStart(
  kind: EngineKind,
  processes: number,
  steady: number,
): Promise<ColdStartFigure> {
  const dir = mkdtempSync(join(tmpdir(), 'narrowing-bench-cold-'));
  try {
    const file = writeColdCalls(dir, steady);
    const { base, extension } = engineBase(kind);
    const bundle = await bundleEngine(fileURLToPath(base), extension, dir);
    const writing = await runColdChild(base, extension, file, steady, false, [], bundle);
    const cached: ChildFigure[] = [];
    const library: ChildFigure[] = [];
    for (let run = 0; run < processes; run++) {
      const order = run % 2 === 0 ? ['cached', 'library'] : ['library', 'cached'];
      for (const way of order) {
        if (way === 'cached')
          cached.push(await runColdChild(base, extension, file, steady, false, [], bundle));
        else library.push(await runColdChild(base, extension, file, steady));
      }
    }
    return {
      processes,
      cached: coldSeries(cached),
      cacheHits: cached.filter((figure) => figure.cache === 'hit').length,
      writing: coldSeries([writing]),
      library: coldSeries(library),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
