/**
 * Runs a bundled script with V8's code cache: the first process compiles the script as it runs and,
 * on exit, keeps the code V8 compiled (the functions it ran included); the next process reads it and
 * skips that compilation. Works on every supported Node (20 has no `module.enableCompileCache`).
 * The cache lives in a folder of this user's only, never one another user could fill, and a cache
 * written by another build or another Node is rejected by V8 and written anew.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Script } from 'node:vm';

/** Setting this variable to `off` runs the script without reading or writing a cache. */
export const CODE_CACHE_VARIABLE = 'NARROWING_GUARD_CODE_CACHE';

const CACHE_EXTENSION = '.v8cache';

/** A cache larger than this is not read: it is no cache this loader wrote for a bundle of ours. */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

export interface CachedScriptOptions {
  /** The bundle: a classic script that sets `module.exports` (see scripts/bundle-cli.ts). */
  readonly file: string;
  /** Which cache of the bundle: processes doing different work run different functions. */
  readonly name: string;
  /** The address of the build's folder: the bundled modules' own addresses are made from it. */
  readonly buildUrl: string;
  /** The loader's own `import()`, for what the bundle imports from outside itself. */
  readonly importModule: (specifier: string) => Promise<unknown>;
  /** The folder of caches; by default one of this user's under the temporary folder, made on demand. */
  readonly cacheDir?: string;
  readonly env?: NodeJS.ProcessEnv;
}

export interface CachedScript {
  readonly exports: Record<string, unknown>;
  /** `hit` when a kept cache was used; `written` when none was and one is written on exit. */
  readonly cache: 'hit' | 'written' | 'off';
}

/** Compiles and runs the bundle at `file`, with the cache kept for `name` when there is one. */
export function runCachedScript(options: CachedScriptOptions): CachedScript {
  const source = readFileSync(options.file, 'utf8');
  const bundle = statSync(options.file);
  const off = (options.env ?? process.env)[CODE_CACHE_VARIABLE] === 'off';
  const dir = off ? undefined : (options.cacheDir ?? privateCacheDir());
  const cacheFile = dir === undefined ? undefined : join(dir, cacheName(options.name, bundle));
  const cachedData = cacheFile === undefined ? undefined : readCache(cacheFile);
  // The same wrapper every time: V8 checks a cache against the source it is given.
  const script = new Script(
    `(function (exports, require, module, __narrowingImport, __narrowingDist) {${source}\n})`,
    {
      filename: options.file,
      ...(cachedData !== undefined && { cachedData }),
    },
  );
  const hit = cachedData !== undefined && !script.cachedDataRejected;
  if (dir !== undefined && cacheFile !== undefined && !hit)
    process.once('exit', () => writeCache(dir, cacheFile, script));
  const module = { exports: {} as Record<string, unknown> };
  const run = script.runInThisContext() as (...parameters: unknown[]) => void;
  run(module.exports, createRequire(options.file), module, options.importModule, options.buildUrl);
  return { exports: module.exports, cache: cacheFile === undefined ? 'off' : hit ? 'hit' : 'written' };
}

/**
 * One file per bundle, Node version and name: another build or Node finds no cache of this one. The
 * bundle is told by its size and time of change rather than a hash of its text, which would cost a
 * start-up milliseconds; V8 rejects a cache compiled from another text anyway.
 */
function cacheName(name: string, bundle: Stats): string {
  const key = createHash('sha256')
    .update(`${process.version}\0${process.arch}\0${bundle.size}\0${bundle.mtimeMs}\0${bundle.ino}`)
    .digest('hex')
    .slice(0, 24);
  return `${name.replace(/[^a-z0-9-]/gi, '_')}-${key}${CACHE_EXTENSION}`;
}

/** This user's folder for caches, or undefined when it cannot be made private. */
function privateCacheDir(): string | undefined {
  try {
    const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
    if (uid === undefined) return undefined;
    const parent = join(tmpdir(), `narrowing-guard-${uid}`);
    const dir = join(parent, 'code-cache');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (const path of [parent, dir]) {
      const stat = lstatSync(path);
      if (!stat.isDirectory() || stat.isSymbolicLink() || stat.uid !== uid || (stat.mode & 0o077) !== 0)
        return undefined;
    }
    return dir;
  } catch {
    return undefined;
  }
}

/** The cache's bytes; undefined when there is none, it is a link, or it cannot be read. */
function readCache(path: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    const { size } = fstatSync(fd);
    if (size === 0 || size > MAX_CACHE_BYTES) return undefined;
    const bytes = Buffer.allocUnsafe(size);
    let read = 0;
    while (read < size) {
      const count = readSync(fd, bytes, read, size - read, read);
      if (count === 0) return undefined;
      read += count;
    }
    return bytes;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Writes the code compiled so far beside the cache and renames it into place, so that a process
 * starting meanwhile reads the old cache or the new one, never half of one. A failure costs only the cache.
 */
function writeCache(dir: string, path: string, script: Script): void {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, script.createCachedData(), { flag: 'wx', mode: 0o600 });
    renameSync(temporary, path);
    removeOtherBuilds(dir, basename(path));
  } catch {
    rmSync(temporary, { force: true });
  }
}

/** The caches of the same name kept for other builds or Nodes: a new build would leave them forever. */
function removeOtherBuilds(dir: string, kept: string): void {
  const prefix = kept.slice(0, kept.lastIndexOf('-') + 1);
  for (const entry of readdirSync(dir)) {
    if (entry !== kept && entry.startsWith(prefix) && entry.endsWith(CACHE_EXTENSION))
      rmSync(join(dir, entry), { force: true });
  }
}
