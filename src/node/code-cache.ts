/**
 * Runs a bundled classic script with V8's code cache, for the processes that start often: the
 * command line and the hook. The first process compiles the script as it runs and, on exit, keeps
 * the code V8 compiled (the functions it ran included); the next process reads it and skips that
 * compilation. Works on every supported Node (20 has no `module.enableCompileCache`).
 *
 * What it promises: the caches live in a folder of this user's only (0700, owned by the user, not
 * a link), never one another user could fill; each cache file is private (0600), written beside
 * and renamed into place, and never read through a link; a cache written by another build or
 * another Node is rejected by V8 and written anew, and the old one removed; a cache written by a
 * process that ran little (a `--help`, a command that stopped at a bad argument) is written anew by
 * the next process of the same bundle that ran longer, so that it holds what that one ran too.
 *
 * Node's modules are taken with `process.getBuiltinModule`, never `import` (an ESM import of
 * `node:fs` reads every export and loads streams a hook never uses), and `node:crypto` is never
 * loaded: a hook process would pay for it on every tool call.
 */
import type { Stats } from 'node:fs';
import { textKey } from './text-key.js';
import { isPrivateFolder, userTemporaryDir } from './user-dirs.js';

/** Setting this variable to `off` runs the script without reading or writing a cache. */
export const CODE_CACHE_VARIABLE = 'NARROWING_GUARD_CODE_CACHE';

const CACHE_EXTENSION = '.v8cache';

/** Caches of one name kept at most, this one included: copies of the package and Nodes that run it. */
const KEPT_PER_NAME = 8;

/** A cache larger than this is not read: it is no cache this loader wrote for a bundle of ours. */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * What follows V8's data in a cache file: these four bytes, then the CPU time in microseconds the
 * process that wrote it spent running the bundle (a double, little-endian).
 */
const TRAILER_MARK = 0x4e47_4343;
/**
 * The mark of a cache that a process which ran the bundle longer than its writer found lacking:
 * the next process reads it, and writes it anew (see `compileCachedScript`). Its time is that
 * process's.
 */
const WANTED_MARK = 0x4e47_4357;
const TRAILER_BYTES = 12;

export interface CachedScriptOptions {
  /** The bundle: a classic script whose code reads the names in `parameters`. */
  readonly file: string;
  /** Which cache of the bundle: processes doing different work run different functions. */
  readonly name: string;
  /** The names the script's code sees, given their values, in this order, by `run`. */
  readonly parameters: readonly string[];
  /** The folder of caches; by default this user's private one (see `privateCacheDir`). */
  readonly cacheDir?: string;
  readonly env?: NodeJS.ProcessEnv;
}

export interface CachedScript {
  /** Runs the script with its parameters' values. */
  readonly run: (...values: unknown[]) => void;
  /** `hit` when a kept cache was used; `written` when none was and one is written on exit. */
  readonly cache: 'hit' | 'written' | 'off';
}

/** Compiles the bundle at `file`, with the cache kept for `name` when there is one. */
export function compileCachedScript(options: CachedScriptOptions): CachedScript {
  const vm = process.getBuiltinModule('node:vm');
  const { join } = process.getBuiltinModule('node:path');
  // What the bundle costs this process from here (its compilation and its run), user and system.
  const started = cpuMicroseconds();
  const { source, stat } = readBundle(options.file);
  const off = (options.env ?? process.env)[CODE_CACHE_VARIABLE] === 'off';
  const dir = off ? undefined : (options.cacheDir ?? privateCacheDir());
  const cacheFile = dir === undefined ? undefined : join(dir, cacheName(options.name, options.file, stat));
  const kept = cacheFile === undefined ? undefined : readCache(cacheFile);
  const cachedData = kept?.data;
  // V8 checks a cache against the flags it runs with: a cache is read, as it is written, with the
  // baseline compiler as this Node starts with it.
  const paused = baselinePaused;
  resumeBaselineCompiler();
  // The same wrapper every time: V8 checks a cache against the source it is given.
  const script = new vm.Script(`(function (${options.parameters.join(', ')}) {${source}\n})`, {
    filename: options.file,
    ...(cachedData !== undefined && { cachedData }),
  });
  const hit = cachedData !== undefined && !script.cachedDataRejected;
  // Written at exit by a process that found none, or found one marked wanted; such a process runs
  // without the baseline compiler (see `pauseBaselineCompiler`).
  const writes = dir !== undefined && (!hit || kept?.wanted === true);
  if (paused || writes) pauseBaselineCompiler();
  // Kept at exit, once the functions this run called are compiled too. A process that found a cache
  // and ran the bundle longer than the one that wrote it marks it wanted: one that ran little (a
  // `--help`, a bad argument) left out the functions the work runs. It writes none of its own, whose
  // most-run functions ran with the baseline compiler; the next process, which reads the cache and
  // so compiles what it holds, writes it anew, with what it ran too. Each such rewrite raises the
  // bar to the time of the process that marked it, so that a process as long as most never pays for
  // one, and a cache written by a long one is kept.
  if (dir !== undefined && cacheFile !== undefined)
    process.once('exit', () => {
      const ran = cpuMicroseconds() - started;
      const bar = hit ? (kept?.writerCpu ?? 0) : 0;
      if (writes) {
        resumeBaselineCompiler();
        writeCache(dir, cacheFile, () => script.createCachedData(), TRAILER_MARK, Math.max(ran, bar));
      } else if (hit && kept !== undefined && ran > bar)
        writeCache(dir, cacheFile, () => kept.data, WANTED_MARK, ran);
    });
  const wrapper = script.runInThisContext() as (...values: unknown[]) => void;
  return { run: wrapper, cache: cacheFile === undefined ? 'off' : hit ? 'hit' : 'written' };
}

/** Whether this process runs with the baseline compiler paused (see `pauseBaselineCompiler`). */
let baselinePaused = false;

/**
 * Whether this process has paused V8's baseline compiler to write a cache. Which tier V8 gives a
 * function varies between its versions (some go from the interpreter to the optimising compiler
 * directly), so this, not a function's tier, says whether a process kept the compiler on.
 */
export function baselineCompilerPaused(): boolean {
  return baselinePaused;
}

/**
 * Pauses V8's baseline compiler (Sparkplug) for the rest of the process, in a process that will
 * write a cache. V8 keeps no baseline code in a cache, and a function that has some when the cache
 * is written is kept without the bytecode it was compiled from: the functions a process ran most,
 * those every call runs, would be compiled again on the first call of every process that reads it
 * (some milliseconds, against about two without). Paused, they are run by the interpreter and the
 * optimising compiler alone, which change nothing a cache keeps. It is resumed before a cache is
 * read or written, so that both are made under the flags this Node starts with, which V8 checks.
 *
 * Only where Sparkplug is on by default (x64 and arm64) and no option of this process names it or
 * turns it off: resuming would otherwise turn on what this Node runs without, and every cache
 * written would be rejected. Setting a flag loads `node:v8`, a cost only a process that writes pays.
 */
function pauseBaselineCompiler(): void {
  if (baselinePaused || !baselineByDefault()) return;
  try {
    process.getBuiltinModule('node:v8').setFlagsFromString('--no-sparkplug');
    baselinePaused = true;
  } catch {
    // A Node without V8's flags to set: the cache is written as before, baseline code and all.
  }
}

function resumeBaselineCompiler(): void {
  if (!baselinePaused) return;
  process.getBuiltinModule('node:v8').setFlagsFromString('--sparkplug');
  baselinePaused = false;
}

function baselineByDefault(): boolean {
  if (process.arch !== 'x64' && process.arch !== 'arm64') return false;
  const flags = nodeFlags();
  return !['sparkplug', 'jitless', 'lite-mode', 'lite_mode'].some((word) => flags.includes(word));
}

/**
 * One file per bundle, Node and name: another build or Node finds no cache of this one. The bundle
 * is told by its path, size, inode and time of change rather than a hash of its text, which would
 * cost a start milliseconds; V8 rejects a cache compiled from another text anyway. The name starts
 * with the bundle's path and the Node running it, with its options (`<name>-<copy key>-<build key>`): a new build of
 * the same copy replaces its cache, while two copies of the package (a global install and a
 * project's own), or one copy run by two Nodes in turn (two hosts, a version manager), keep theirs
 * apart instead of removing each other's on every start.
 */
function cacheName(name: string, file: string, bundle: Stats): string {
  const flags = nodeFlags();
  const build = textKey(
    [file, bundle.ino, bundle.size, bundle.mtimeMs, process.version, process.arch, flags].join('\u0000'),
  );
  const copy = textKey([file, process.version, process.arch, flags].join('\u0000'));
  return `${fileNamePart(name)}-${copy}-${build}${CACHE_EXTENSION}`;
}

/**
 * The options this process's Node runs with (its own and `NODE_OPTIONS`): V8 rejects a cache
 * compiled under flags other than its own, so processes run with and without, say,
 * `--max-old-space-size` (a host's `NODE_OPTIONS`) keep a cache each instead of writing one another's
 * anew on every start. The text of `-e` and `-p` is not an option.
 */
function nodeFlags(): string {
  const flags: string[] = [];
  const args = process.execArgv;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    if (arg === '-e' || arg === '-p' || arg === '-pe' || arg === '--eval' || arg === '--print') index += 1;
    else if (arg.startsWith('--') && !arg.startsWith('--eval=') && !arg.startsWith('--print='))
      flags.push(arg);
  }
  return `${flags.join(' ')}\u0000${process.env.NODE_OPTIONS ?? ''}`;
}

/**
 * `name` with every character but letters, digits and `-` made `_`. Spelled out rather than as a
 * pattern: a process's first pattern costs it its compilation, on every start.
 */
function fileNamePart(name: string): string {
  let part = '';
  for (let index = 0; index < name.length; index += 1) {
    const code = name.charCodeAt(index);
    const kept =
      code === 0x2d ||
      (code >= 0x30 && code <= 0x39) ||
      (code >= 0x41 && code <= 0x5a) ||
      (code >= 0x61 && code <= 0x7a);
    part += kept ? name[index] : '_';
  }
  return part;
}

/**
 * The bundle's text and what tells its build, from one open file: the descriptor's own stat rather
 * than a second look by path, and none of `readFileSync`'s set-up, which a process pays on its first
 * call while this one's calls are the cache's too (see `readCache`).
 */
function readBundle(file: string): { readonly source: string; readonly stat: Stats } {
  const fs = process.getBuiltinModule('node:fs');
  const fd = fs.openSync(file, fs.constants.O_RDONLY);
  try {
    const stat = fs.fstatSync(fd);
    // A byte more than its stat says: the read that finds the end then has room, and a bundle of
    // the size its stat gave (every one but a bundle being written) fills no buffer and is copied
    // into no larger one, which would cost a start its size in copying and twice its size in memory.
    let bytes = Buffer.allocUnsafe(stat.size + 1);
    let size = 0;
    for (;;) {
      if (size === bytes.length) {
        // Grown since its stat (a build writing it): read on to its end, as `readFileSync` would.
        const larger = Buffer.allocUnsafe(Math.max(bytes.length * 2, 64 * 1024));
        bytes.copy(larger, 0, 0, size);
        bytes = larger;
      }
      const count = fs.readSync(fd, bytes, size, bytes.length - size, size);
      if (count === 0) break;
      size += count;
    }
    return { source: bytes.toString('utf8', 0, size), stat };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * This user's folder of caches, `<temporary folder>/narrowing-guard-<uid>/code-cache`, made on
 * demand; undefined when it (or its parent) is a link, is not the user's, is open to others, or
 * cannot be made (and on systems without user ids). Once made, a start only looks at the two
 * folders.
 */
export function privateCacheDir(): string | undefined {
  try {
    const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
    if (uid === undefined) return undefined;
    const fs = process.getBuiltinModule('node:fs');
    const { join } = process.getBuiltinModule('node:path');
    const parent = userTemporaryDir(uid);
    const dir = join(parent, 'code-cache');
    const folders = [parent, dir];
    let stats = folders.map((path) => fs.lstatSync(path, { throwIfNoEntry: false }));
    if (stats.includes(undefined)) {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      stats = folders.map((path) => fs.lstatSync(path));
    }
    for (const stat of stats) if (stat === undefined || !isPrivateFolder(stat, uid)) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

/** The process's CPU time so far, user and system, every thread's, in microseconds. */
function cpuMicroseconds(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/**
 * The cache's V8 data and the CPU time of the process that wrote it; undefined when there is none,
 * it is a link, or it cannot be read. A file without the trailer this loader writes is no cache.
 */
function readCache(
  path: string,
): { readonly data: Buffer; readonly writerCpu: number; readonly wanted: boolean } | undefined {
  const fs = process.getBuiltinModule('node:fs');
  let fd: number | undefined;
  try {
    fd = fs.openSync(path, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    const { size } = fs.fstatSync(fd);
    if (size <= TRAILER_BYTES || size > MAX_CACHE_BYTES) return undefined;
    const bytes = Buffer.allocUnsafe(size);
    let read = 0;
    while (read < size) {
      const count = fs.readSync(fd, bytes, read, size - read, read);
      if (count === 0) return undefined;
      read += count;
    }
    const end = size - TRAILER_BYTES;
    const mark = bytes.readUInt32LE(end);
    if (mark !== TRAILER_MARK && mark !== WANTED_MARK) return undefined;
    return {
      data: bytes.subarray(0, end),
      writerCpu: bytes.readDoubleLE(end + 4),
      wanted: mark === WANTED_MARK,
    };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * Writes V8's data (the code compiled so far, or a kept cache's) beside the cache (a new private
 * file: `wx` follows no link), with its mark and a process's CPU time on the bundle, and renames it
 * into place, so that a process starting meanwhile reads the old cache or the new one, never half
 * of one. A failure costs only the cache.
 */
function writeCache(dir: string, path: string, data: () => Buffer, mark: number, writerCpu: number): void {
  const fs = process.getBuiltinModule('node:fs');
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    const trailer = Buffer.allocUnsafe(TRAILER_BYTES);
    trailer.writeUInt32LE(mark, 0);
    trailer.writeDoubleLE(writerCpu, 4);
    fs.writeFileSync(temporary, Buffer.concat([data(), trailer]), {
      flag: 'wx',
      mode: 0o600,
    });
    fs.renameSync(temporary, path);
    removeOtherBuilds(dir, path.slice(dir.length + 1));
  } catch {
    try {
      fs.rmSync(temporary, { force: true });
    } catch {}
  }
}

/**
 * The caches of the same name, copy and Node kept for other builds: a new build would leave them
 * forever. So are those of the same name that versions before the copy's key wrote
 * (`<name>-<build key>`), which this one never reads. Of the rest of the same name (other copies,
 * other Nodes, and names an earlier version gave them), the newest `KEPT_PER_NAME` stay: a Node
 * no longer used leaves nothing behind for long.
 */
function removeOtherBuilds(dir: string, kept: string): void {
  const fs = process.getBuiltinModule('node:fs');
  const { join } = process.getBuiltinModule('node:path');
  const prefix = kept.slice(0, kept.lastIndexOf('-') + 1);
  const namePrefix = prefix.slice(0, -17);
  const extension = escapeRegExp(CACHE_EXTENSION);
  const unkeyed = new RegExp(`^${escapeRegExp(namePrefix)}[0-9a-f]{16}${extension}$`);
  const sameName = new RegExp(`^${escapeRegExp(namePrefix)}[0-9a-f]{16}-[0-9a-f]{16}${extension}$`);
  const others: { readonly path: string; readonly time: number }[] = [];
  for (const entry of fs.readdirSync(dir)) {
    if (entry === kept || !entry.endsWith(CACHE_EXTENSION)) continue;
    const path = join(dir, entry);
    if (entry.startsWith(prefix) || unkeyed.test(entry)) fs.rmSync(path, { force: true });
    else if (sameName.test(entry)) {
      const stat = fs.lstatSync(path, { throwIfNoEntry: false });
      if (stat !== undefined) others.push({ path, time: stat.mtimeMs });
    }
  }
  others.sort((a, b) => b.time - a.time);
  for (const { path } of others.slice(KEPT_PER_NAME - 1)) fs.rmSync(path, { force: true });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
