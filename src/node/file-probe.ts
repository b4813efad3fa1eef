/**
 * The file system as the engine's probe: before a "does not exist" (or "already exists") ban on a
 * local path blocks, it looks. A file the user created by hand, or one a tool made outside the
 * agent's view, lifts the ban instead of being refused. For bans that depend on a file's content, it
 * gives a digest of the file, and before a look at it a stamp that any write moves, both inside
 * the workspace only.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
  realpathSync,
} from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { FILE_MISSING, type WorldProbe } from '../core/types.js';

/** URLs, `repo@ref:path` qualifiers and the like are not local paths: the probe cannot tell. */
const NOT_A_LOCAL_PATH = /^[a-z][a-z0-9+.-]*:\/\/|@[^/@:\s]+:|\0/i;
/** Larger files get no digest: configuration is far smaller, and reading stays cheap. */
export const MAX_DIGEST_BYTES = 1024 * 1024;
/** A link is never followed, and a FIFO never waited on. */
const DIGEST_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

export function createFileProbe(cwd: string = process.cwd()): WorldProbe {
  let realRoot: string | undefined;
  const root = () => {
    realRoot ??= realpathSync(cwd);
    return realRoot;
  };
  return {
    exists(target: string): boolean | undefined {
      if (target === '' || NOT_A_LOCAL_PATH.test(target)) return undefined;
      try {
        return existsSync(isAbsolute(target) ? target : resolve(cwd, target));
      } catch {
        return undefined;
      }
    },

    digest(target: string): string | undefined {
      return inWorkspace(target, digestFile);
    },

    stamp(target: string): string | undefined {
      return inWorkspace(target, stampFile);
    },
  };

  /** What `look` tells of the file at `target`, a local path inside the workspace; a missing one is `FILE_MISSING`. */
  function inWorkspace(target: string, look: (path: string) => string | undefined): string | undefined {
    if (target === '' || NOT_A_LOCAL_PATH.test(target)) return undefined;
    const path = isAbsolute(target) ? target : resolve(cwd, target);
    if (!within(resolve(cwd), path)) return undefined;
    try {
      // The folders on the way may be links: where they really lead must still be the workspace.
      if (!within(root(), resolve(realpathSync(dirname(path)), '_'))) return undefined;
      return look(path);
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ENOENT' ? FILE_MISSING : undefined;
    }
  }
}

/**
 * The file's identity, size and times of change, which any write moves: a regular file only, never
 * followed through a link.
 */
function stampFile(path: string): string | undefined {
  const stats = lstatSync(path, { bigint: true });
  if (!stats.isFile()) return undefined;
  return `${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
}

function within(root: string, path: string): boolean {
  const inside = relative(root, path);
  return inside !== '' && !inside.startsWith(`..${sep}`) && inside !== '..' && !isAbsolute(inside);
}

/** A digest of a regular file of at most `MAX_DIGEST_BYTES`; undefined for anything else. */
function digestFile(path: string): string | undefined {
  const fd = openSync(path, DIGEST_FLAGS);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > MAX_DIGEST_BYTES) return undefined;
    const hash = createHash('sha256');
    const buffer = Buffer.alloc(Math.min(64 * 1024, Math.max(1, stats.size)));
    let total = 0;
    for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) {
      total += read;
      if (total > MAX_DIGEST_BYTES) return undefined;
      hash.update(buffer.subarray(0, read));
    }
    return hash.digest('hex').slice(0, 32);
  } finally {
    closeSync(fd);
  }
}
