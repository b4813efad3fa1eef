import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');

/** A bundle as scripts/bundle-cli.ts writes them: a classic script that sets `module.exports`. */
const BUNDLE = `
function double(value) { return value * 2; }
module.exports.answer = double(21);
module.exports.build = __narrowingDist;
module.exports.importOutside = () => __narrowingImport('node:path');
`;

const PARAMETERS = ['exports', 'require', 'module', '__narrowingImport', '__narrowingDist'];

/** The loader built from its source into plain JavaScript, run by plain Node as the build runs it. */
let loader: string;
let loaderDir: string;

beforeAll(() => {
  loaderDir = mkdtempSync(join(tmpdir(), 'narrowing-code-cache-loader-'));
  const outfile = join(loaderDir, 'code-cache.mjs');
  buildSync({
    entryPoints: [join(root, 'src', 'node', 'code-cache.ts')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'silent',
  });
  loader = pathToFileURL(outfile).href;
});
afterAll(() => rmSync(loaderDir, { recursive: true, force: true }));

interface Run {
  readonly answer: number;
  readonly build: string;
  readonly joined: string;
  readonly cache: string;
  /** Node's own modules the process loaded for the loader: its import and its work. */
  readonly loadedModules: readonly string[];
  /** The sizes of the buffers the loader took (`Buffer.allocUnsafe`) to compile the bundle. */
  readonly buffers: readonly number[];
}

/**
 * Runs the bundle in a fresh process, as the command line and the hook do; prints what it saw.
 * Without `cacheDir` the loader takes its own folder, under the `TMPDIR` given.
 */
function runBundle(
  dir: string,
  options: { cacheDir?: string; env?: NodeJS.ProcessEnv; nodeVersion?: string; busyMs?: number } = {},
): Run {
  const program = `
    import { createRequire } from 'node:module';
    ${options.nodeVersion === undefined ? '' : `Object.defineProperty(process, 'version', { value: ${JSON.stringify(options.nodeVersion)} });`}
    const before = new Set(process.moduleLoadList);
    const { baselineCompilerPaused, compileCachedScript } = await import(${JSON.stringify(loader)});
    const file = ${JSON.stringify(join(dir, 'bundle.cjs'))};
    const buffers = [];
    const allocUnsafe = Buffer.allocUnsafe;
    Buffer.allocUnsafe = (size) => {
      buffers.push(size);
      return allocUnsafe(size);
    };
    const script = compileCachedScript({
      file,
      name: 'cli-test',
      parameters: ${JSON.stringify(PARAMETERS)},
      ${options.cacheDir === undefined ? '' : `cacheDir: ${JSON.stringify(options.cacheDir)},`}
    });
    Buffer.allocUnsafe = allocUnsafe;
    const loadedModules = process.moduleLoadList.filter((name) => !before.has(name) && name.startsWith('NativeModule'));
    const module = { exports: {} };
    script.run(module.exports, createRequire(file), module, (specifier) => import(specifier), 'file:///the/build/');
    const path = await module.exports.importOutside();
    const { answer, build } = module.exports;
    // A process that goes on working until it has used this much CPU (user and system) before it exits.
    for (;;) {
      const { user, system } = process.cpuUsage();
      if (user + system >= ${(options.busyMs ?? 0) * 1000}) break;
    }
    console.log(JSON.stringify({ answer, build, joined: path.join('a', 'b'), cache: script.cache, loadedModules, buffers }));
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', program], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '', NARROWING_GUARD_CODE_CACHE: '', TMPDIR: dir, ...options.env },
  });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as Run;
}

/** A bundle with a function that a process runs often enough for V8 to give it baseline code. */
const HOT_BUNDLE = `
function totalLength(names) { let total = 0; for (const name of names) total += name.length; return total; }
module.exports.totalLength = totalLength;
`;

/**
 * Runs `HOT_BUNDLE` in a fresh process, its function 500 times (V8's baseline compiler may take it
 * after some tens); says whether the function then runs V8's baseline code, and whether the process
 * paused the baseline compiler.
 */
function runHot(
  dir: string,
  cacheDir: string,
  /** The caches the bundle is compiled with, one after another in the process, the last one run. */
  names: readonly string[] = ['hook-handle'],
  /** CPU time the process uses before it exits, in milliseconds. */
  busyMs = 0,
): {
  readonly cache: string;
  readonly caches: readonly string[];
  readonly baseline: boolean;
  readonly paused: boolean;
} {
  const program = `
    import { createRequire } from 'node:module';
    const { baselineCompilerPaused, compileCachedScript } = await import(${JSON.stringify(loader)});
    const file = ${JSON.stringify(join(dir, 'bundle.cjs'))};
    const scripts = ${JSON.stringify(names)}.map((name) =>
      compileCachedScript({ file, name, parameters: ['exports', 'require', 'module'], cacheDir: ${JSON.stringify(cacheDir)} }),
    );
    const script = scripts[scripts.length - 1];
    const module = { exports: {} };
    script.run(module.exports, createRequire(file), module);
    const names = ['read_file', 'edit_file', 'bash'];
    for (let call = 0; call < 500; call++) module.exports.totalLength(names);
    for (;;) {
      const { user, system } = process.cpuUsage();
      if (user + system >= ${busyMs * 1000}) break;
    }
    const caches = scripts.map((each) => each.cache);
    console.log(JSON.stringify({ cache: script.cache, caches, baseline: %ActiveTierIsSparkplug(module.exports.totalLength), paused: baselineCompilerPaused() }));
  `;
  const run = spawnSync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', program], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '', NARROWING_GUARD_CODE_CACHE: '', TMPDIR: dir },
  });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as { cache: string; caches: string[]; baseline: boolean; paused: boolean };
}

describe('the code cache of the bundled scripts', () => {
  let dir: string;
  let cacheDir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'narrowing-code-cache-'));
    cacheDir = join(dir, 'cache');
    mkdirSync(cacheDir, { mode: 0o700 });
    writeFileSync(join(dir, 'bundle.cjs'), BUNDLE);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the bundle with the values of its parameters, and keeps the compiled code on exit', () => {
    const first = runBundle(dir, { cacheDir });
    expect(first).toMatchObject({
      answer: 42,
      build: 'file:///the/build/',
      joined: join('a', 'b'),
      cache: 'written',
    });
    expect(readdirSync(cacheDir)).toEqual([
      expect.stringMatching(/^cli-test-[0-9a-f]{16}-[0-9a-f]{16}\.v8cache$/),
    ]);
  });

  it('uses the kept code in the next process', () => {
    runBundle(dir, { cacheDir });
    expect(runBundle(dir, { cacheDir }).cache).toBe('hit');
  });

  it('replaces the cache of a bundle that changed, and removes the old one', () => {
    runBundle(dir, { cacheDir });
    const [old] = readdirSync(cacheDir);
    writeFileSync(join(dir, 'bundle.cjs'), BUNDLE.replace('21', '20'));
    const changed = runBundle(dir, { cacheDir });
    expect(changed).toMatchObject({ answer: 40, cache: 'written' });
    const kept = readdirSync(cacheDir);
    expect(kept).toHaveLength(1);
    expect(kept).not.toContain(old);
  });

  it('has the process after one that found the cache and spent longer on the bundle than its writer write it anew', () => {
    runBundle(dir, { cacheDir });
    const [name = ''] = readdirSync(cacheDir);
    const inode = () => statSync(join(cacheDir, name)).ino;
    const written = inode();
    expect(runBundle(dir, { cacheDir, busyMs: 300 }).cache).toBe('hit');
    expect(readdirSync(cacheDir)).toEqual([name]);
    const marked = inode();
    expect(marked).not.toBe(written);
    expect(runBundle(dir, { cacheDir }).cache).toBe('hit');
    const rewritten = inode();
    expect(rewritten).not.toBe(marked);
    expect(runBundle(dir, { cacheDir }).cache).toBe('hit');
    expect(inode()).toBe(rewritten);
  });

  it('leaves the cache as it is when a process that found it ran no longer than the one that wrote it', () => {
    runBundle(dir, { cacheDir, busyMs: 300 });
    const [name = ''] = readdirSync(cacheDir);
    const written = statSync(join(cacheDir, name)).ino;
    expect(runBundle(dir, { cacheDir }).cache).toBe('hit');
    expect(statSync(join(cacheDir, name)).ino).toBe(written);
  });

  it('does not read a cache file larger than 64 MB, which it never writes', () => {
    runBundle(dir, { cacheDir });
    const [name = ''] = readdirSync(cacheDir);
    const path = join(cacheDir, name);
    const bytes = readFileSync(path);
    // Its own cache, with what it wrote at its end still at the end, grown past the bound.
    truncateSync(path, 65 * 1024 * 1024);
    const fd = openSync(path, 'r+');
    writeSync(fd, bytes, 0, bytes.length, 65 * 1024 * 1024 - bytes.length);
    closeSync(fd);
    expect(runBundle(dir, { cacheDir })).toMatchObject({ answer: 42, cache: 'written' });
    expect(statSync(path).size).toBeLessThan(1024 * 1024);
  });

  it('keeps the caches of two copies of the bundle apart, so that neither removes the other', () => {
    const copy = join(dir, 'copy');
    mkdirSync(copy);
    writeFileSync(join(copy, 'bundle.cjs'), BUNDLE);
    runBundle(dir, { cacheDir });
    expect(runBundle(copy, { cacheDir }).cache).toBe('written');
    expect(runBundle(dir, { cacheDir }).cache).toBe('hit');
    expect(runBundle(copy, { cacheDir }).cache).toBe('hit');
    expect(readdirSync(cacheDir)).toHaveLength(2);
  });

  it('keeps the caches of two Nodes running one copy apart, so that switching between them compiles nothing again', () => {
    runBundle(dir, { cacheDir });
    expect(runBundle(dir, { cacheDir, nodeVersion: 'v22.23.0' }).cache).toBe('written');
    expect(runBundle(dir, { cacheDir }).cache).toBe('hit');
    expect(runBundle(dir, { cacheDir, nodeVersion: 'v22.23.0' }).cache).toBe('hit');
    expect(readdirSync(cacheDir)).toHaveLength(2);
  });

  it("keeps the caches of processes run with other V8 flags apart, which V8 would reject as the other's", () => {
    const flagged = { NODE_OPTIONS: '--max-old-space-size=4096' };
    runBundle(dir, { cacheDir });
    expect(runBundle(dir, { cacheDir, env: flagged }).cache).toBe('written');
    expect(runBundle(dir, { cacheDir }).cache).toBe('hit');
    expect(runBundle(dir, { cacheDir, env: flagged }).cache).toBe('hit');
    expect(readdirSync(cacheDir)).toHaveLength(2);
  });

  it('keeps at most eight caches of one name, the newest, removing those of copies and Nodes unused the longest', () => {
    const other = (index: number) =>
      `cli-test-${index.toString(16).padStart(16, '0')}-0123456789abcdef.v8cache`;
    const otherCommand = 'cli-other-0000000000000001-0123456789abcdef.v8cache';
    writeFileSync(join(cacheDir, otherCommand), 'stale');
    for (let index = 1; index <= 10; index += 1) {
      writeFileSync(join(cacheDir, other(index)), 'stale');
      utimesSync(join(cacheDir, other(index)), index * 1000, index * 1000);
    }
    runBundle(dir, { cacheDir });
    const kept = readdirSync(cacheDir);
    expect(kept).toHaveLength(9);
    expect(kept).toContain(otherCommand);
    for (let index = 1; index <= 3; index += 1) expect(kept).not.toContain(other(index));
    for (let index = 4; index <= 10; index += 1) expect(kept).toContain(other(index));
  });

  it('removes the cache an earlier version kept under the name without the copy, which it never reads', () => {
    const earlier = 'cli-test-0123456789abcdef.v8cache';
    const otherCommand = 'cli-other-0123456789abcdef.v8cache';
    writeFileSync(join(cacheDir, earlier), 'stale');
    writeFileSync(join(cacheDir, otherCommand), 'stale');
    runBundle(dir, { cacheDir });
    const kept = readdirSync(cacheDir);
    expect(kept).not.toContain(earlier);
    expect(kept).toContain(otherCommand);
    expect(kept).toHaveLength(2);
  });

  it('does not read a cache that is a link, even to a good cache', () => {
    runBundle(dir, { cacheDir });
    const [name = ''] = readdirSync(cacheDir);
    const elsewhere = join(dir, 'elsewhere.v8cache');
    renameSync(join(cacheDir, name), elsewhere);
    symlinkSync(elsewhere, join(cacheDir, name));
    expect(runBundle(dir, { cacheDir })).toMatchObject({ answer: 42, cache: 'written' });
  });

  it('reads and writes no cache when NARROWING_GUARD_CODE_CACHE is off', () => {
    const run = runBundle(dir, { cacheDir, env: { NARROWING_GUARD_CODE_CACHE: 'off' } });
    expect(run).toMatchObject({ answer: 42, cache: 'off' });
    expect(readdirSync(cacheDir)).toEqual([]);
  });

  it('reads the bundle into one buffer of its size, never copied into a larger one', () => {
    const { buffers, cache } = runBundle(dir, { cacheDir });
    expect(cache).toBe('written');
    expect(Math.max(...buffers)).toBeLessThanOrEqual(statSync(join(dir, 'bundle.cjs')).size + 1);
  });

  it("writes a cache whose most-run functions V8's baseline compiler left alone, and the next process reads it", () => {
    writeFileSync(join(dir, 'bundle.cjs'), HOT_BUNDLE);
    expect(runHot(dir, cacheDir)).toMatchObject({ cache: 'written', baseline: false, paused: true });
    expect(runHot(dir, cacheDir).cache).toBe('hit');
  });

  it('writes the cache anew without the baseline compiler after a process that ran longer than its writer', () => {
    writeFileSync(join(dir, 'bundle.cjs'), HOT_BUNDLE);
    runHot(dir, cacheDir);
    expect(runHot(dir, cacheDir, ['hook-handle'], 600)).toMatchObject({ cache: 'hit', paused: false });
    expect(runHot(dir, cacheDir)).toMatchObject({ cache: 'hit', baseline: false, paused: true });
    expect(runHot(dir, cacheDir)).toMatchObject({ cache: 'hit', paused: false });
  });

  it('leaves the baseline compiler on in a process that reads the cache and writes none', () => {
    writeFileSync(join(dir, 'bundle.cjs'), HOT_BUNDLE);
    runHot(dir, cacheDir);
    expect(runHot(dir, cacheDir)).toMatchObject({ cache: 'hit', paused: false });
  });

  it('reads the cache of a second bundle in a process that writes the cache of its first', () => {
    writeFileSync(join(dir, 'bundle.cjs'), HOT_BUNDLE);
    runHot(dir, cacheDir, ['hook-handle']);
    expect(runHot(dir, cacheDir, ['hook-client', 'hook-handle']).caches).toEqual(['written', 'hit']);
  });

  it('loads neither node:crypto nor any stream module, which a hook process would pay for on every call', () => {
    runBundle(dir, { cacheDir });
    const { loadedModules, cache } = runBundle(dir, { cacheDir });
    expect(cache).toBe('hit');
    expect(loadedModules.filter((name) => /crypto|stream/.test(name))).toEqual([]);
  });
});

// The default folder is checked by user id, which Windows does not have.
describe.skipIf(process.platform === 'win32')("the code cache's own folder", () => {
  let dir: string;
  const parentOf = (base: string) => join(base, `narrowing-guard-${process.getuid?.()}`);
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'narrowing-code-cache-'));
    writeFileSync(join(dir, 'bundle.cjs'), BUNDLE);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("is made in the temporary folder for this user alone, with every cache file this user's alone", () => {
    expect(runBundle(dir).cache).toBe('written');
    const folder = join(parentOf(dir), 'code-cache');
    expect(statSync(parentOf(dir)).mode & 0o777).toBe(0o700);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    const files = readdirSync(folder);
    expect(files).toEqual([expect.stringMatching(/^cli-test-[0-9a-f]{16}-[0-9a-f]{16}\.v8cache$/)]);
    expect(statSync(join(folder, files[0] as string)).mode & 0o777).toBe(0o600);
    expect(runBundle(dir).cache).toBe('hit');
  });

  it('is not used when another user could write into it', () => {
    mkdirSync(join(parentOf(dir), 'code-cache'), { recursive: true, mode: 0o700 });
    chmodSync(parentOf(dir), 0o777);
    expect(runBundle(dir)).toMatchObject({ answer: 42, cache: 'off' });
    expect(readdirSync(join(parentOf(dir), 'code-cache'))).toEqual([]);
  });

  it('is not used when it is a link, even to a private folder', () => {
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(join(elsewhere, 'code-cache'), { recursive: true, mode: 0o700 });
    chmodSync(elsewhere, 0o700);
    symlinkSync(elsewhere, parentOf(dir));
    expect(runBundle(dir)).toMatchObject({ answer: 42, cache: 'off' });
    expect(readdirSync(join(elsewhere, 'code-cache'))).toEqual([]);
  });
});
