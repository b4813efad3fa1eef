/**
 * One `wrap` or `unwrap` at a time per config file: two runs that read the same file and each
 * wrote their own edit would lose one of them, while both said it was done. The lock is
 * `<config>.lock`, next to the file, taken in path order so that two runs never wait on each other.
 */
import { withFileLock } from '../node/lock.js';

export async function withConfigLocks<T>(paths: readonly string[], work: () => T | Promise<T>): Promise<T> {
  const ordered = [...new Set(paths)].sort();
  const hold = async (index: number): Promise<T> => {
    const path = ordered[index];
    if (path === undefined) return work();
    // A lock taken over as stale mid-run: the write that follows still checks the file is unchanged.
    return withFileLock(
      path,
      () => hold(index + 1),
      () => undefined,
    );
  };
  return hold(0);
}
