/**
 * A cross-process lock on a file, so that a read-merge-write by one process never interleaves with
 * another's. A holder that died leaves a stale lock, which is taken over after `STALE_MS`.
 */
import { lstatSync } from 'node:fs';
import { resolve } from 'node:path';
import lockfile from 'proper-lockfile';
import { UnsafeStateFileError } from './safe-fs.js';

const STALE_MS = 10_000;
const RETRIES = { retries: 40, factor: 1.5, minTimeout: 10, maxTimeout: 300, randomize: true };
const EXIT_WAIT_MS = STALE_MS + 1_000;

/** Files whose lock this process holds right now, possibly inside an unfinished async write. */
const held = new Set<string>();

export async function withFileLock<T>(
  file: string,
  work: () => Promise<T>,
  onCompromised: (error: Error) => void,
): Promise<T> {
  const key = resolve(file);
  refuseLinkedLock(file);
  const release = await lockfile.lock(file, {
    realpath: false,
    stale: STALE_MS,
    retries: RETRIES,
    onCompromised,
  });
  held.add(key);
  try {
    return await work();
  } finally {
    held.delete(key);
    await release().catch(() => undefined);
  }
}

export interface SyncLockResult<T> {
  readonly value: T;
  /** False when the lock could not be had in time and the work ran without it. */
  readonly locked: boolean;
}

/**
 * For the exit handler, where nothing async runs any more. Waits long enough for a dead holder's
 * lock to go stale; after that, doing the work unlocked beats losing what it saves.
 */
export function withFileLockSync<T>(file: string, work: () => T): SyncLockResult<T> {
  // An async write of this process holds the lock and will never finish: the lock is ours.
  if (held.has(resolve(file))) return { value: work(), locked: true };
  refuseLinkedLock(file);
  const deadline = Date.now() + EXIT_WAIT_MS;
  let pause = 5;
  for (;;) {
    let release: (() => void) | undefined;
    try {
      release = lockfile.lockSync(file, { realpath: false, stale: STALE_MS, onCompromised: () => undefined });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED' || Date.now() >= deadline) {
        return { value: work(), locked: false };
      }
      sleepSync(pause);
      pause = Math.min(pause * 2, 200);
      continue;
    }
    try {
      return { value: work(), locked: true };
    } finally {
      try {
        release();
      } catch {
        // Released already (a stale takeover by another process); nothing left to undo.
      }
    }
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

/** The lock is a directory next to the file; a link in its place would have it touch another. */
function refuseLinkedLock(file: string): void {
  const path = `${file}.lock`;
  let isLink = false;
  try {
    isLink = lstatSync(path).isSymbolicLink();
  } catch {
    return;
  }
  if (isLink) throw new UnsafeStateFileError(path, 'a symbolic link');
}
