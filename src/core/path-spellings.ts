/**
 * One file, two spellings: an absolute path (`/home/dev/shop/apps/docs/.env.example`) and a path
 * relative to a working directory above it (`apps/docs/.env.example`). Where the working directory is
 * not known, a change of the absolute path may be a change of any of its relative spellings, and a
 * change of a relative path a change of any absolute path that ends with it. A path under the home
 * directory (`~/ctf/solve.py`) is relative to a directory the guard does not know, and an absolute
 * path under one (`/home/dev/ctf/solve.py`, `/root/ctf/solve.py`) may be spelled from it.
 */

/** Relative spellings looked at per changed path: deeper working directories are rare. */
const MAX_SPELLINGS = 24;
/** A drive's root, as Windows paths are normalised (`C:/Users/dev/app/server.js`). */
const DRIVE_ROOT = /^[A-Za-z]:\//;

/** A path from the root of the file system: `/srv/app/a.py`, or on Windows `C:/app/a.py`. */
export function isAbsolutePath(path: string): boolean {
  return path.startsWith('/') || DRIVE_ROOT.test(path);
}

/**
 * The relative paths an absolute, normalised path can be named by from a working directory above it,
 * longest first; none for a path that is already relative or is the root.
 */
export function relativeSpellings(path: string): string[] {
  if (!isAbsolutePath(path)) return [];
  const parts = path.split('/').filter((part) => part !== '');
  // A drive (`C:`) is no folder a working directory can be in.
  if (!path.startsWith('/')) parts.shift();
  const out: string[] = [];
  for (let from = Math.max(0, parts.length - MAX_SPELLINGS); from < parts.length; from++)
    out.push(parts.slice(from).join('/'));
  return out;
}

/** The file name of a path: what an absolute path and its relative spellings always share. */
export function fileNameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Whether `absolute` may name the file `relative` names from a working directory above it. */
export function endsWithPath(absolute: string, relative: string): boolean {
  return (
    isAbsolutePath(absolute) &&
    !isAbsolutePath(relative) &&
    relative !== '' &&
    absolute.length > relative.length &&
    absolute.endsWith(relative) &&
    absolute[absolute.length - relative.length - 1] === '/'
  );
}

/** The part of a home-relative path (`~/ctf/solve.py`) after its `~/`; undefined for any other path. */
export function underHome(path: string): string | undefined {
  return path.startsWith('~/') && path.length > 2 ? path.slice(2) : undefined;
}

const IN_HOME = /^(?:\/|[A-Za-z]:\/)(?:home|Users)\/[^/]+\/(.+)$|^\/root\/(.+)$/;

/**
 * An absolute path under a home directory spelled from it (`/home/dev/a.py`, `C:/Users/dev/a.py`:
 * `~/a.py`); undefined otherwise.
 */
export function homeSpelling(path: string): string | undefined {
  const match = IN_HOME.exec(path);
  const rest = match?.[1] ?? match?.[2];
  return rest === undefined ? undefined : `~/${rest}`;
}
