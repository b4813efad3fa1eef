/**
 * A cross-process lock on a file, so that a read-merge-write by one process never interleaves with
 * another's. The lock is a directory (`<file>.lock`, by proper-lockfile) whose time the holder
 * keeps fresh, with the holder's pid next to it (`<file>.lock.owner`). A lock is taken over at once
 * when its holder on this machine is dead or its time lies in the future (a clock set back, or a
 * planted directory), and otherwise once it has not been refreshed for `STALE_MS`.
 *
 * A holder gives its lock back in an order no other process mistakes for a killed one: it dates the
 * lock now, removes its name, then the lock. A process that finds a lock abandoned removes it only
 * if it is still the lock it judged (same inode, same time), never one taken since.
 */
import { lstatSync, rmdirSync, rmSync, utimesSync } from 'node:fs';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import lockfile from 'proper-lockfile';
import { readTextNoFollowSync, UnsafeStateFileError, writeTextNoFollowSync } from './safe-fs.js';

const STALE_MS = 10_000;
/** One round of attempts; between rounds an abandoned lock is looked for. */
const ROUND = { retries: 5, factor: 1.5, minTimeout: 10, maxTimeout: 100, randomize: true };
const WAIT_MS = STALE_MS + 1_000;
const EXIT_WAIT_MS = STALE_MS + 1_000;
/** Lock times this far ahead of the clock are not a live holder's. */
const FUTURE_SLACK_MS = 2_000;
/**
 * A live holder names itself right after taking the lock; a lock this old without a name was left by
 * a process killed in between (a hook the agent killed on its timeout). Long enough for a holder that
 * a loaded machine does not schedule between the two steps (tens of processes on two cores wait over
 * a second): taking its lock then would let two processes write at once.
 */
export const UNNAMED_MS = 2_500;

/** Files whose lock this process holds right now, possibly inside an unfinished async write. */
const held = new Set<string>();

export async function withFileLock<T>(
  file: string,
  work: () => Promise<T>,
  onCompromised: (error: Error) => void,
): Promise<T> {
  const key = resolve(file);
  const deadline = Date.now() + WAIT_MS;
  let release: () => Promise<void>;
  for (;;) {
    clearAbandonedLock(file);
    try {
      release = await lockfile.lock(file, {
        realpath: false,
        stale: STALE_MS,
        retries: ROUND,
        onCompromised,
      });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED' || Date.now() >= deadline) throw error;
    }
  }
  held.add(key);
  writeOwner(file);
  try {
    return await work();
  } finally {
    held.delete(key);
    unname(file);
    await release().catch(() => undefined);
  }
}

export interface SyncLockResult<T> {
  readonly value: T;
  /** False when the lock could not be had in time and the work ran without it. */
  readonly locked: boolean;
}

/**
 * For the exit handler, where nothing async runs any more. Waits long enough for a live holder's
 * lock to go stale; after that, doing the work unlocked beats losing what it saves.
 */
export function withFileLockSync<T>(file: string, work: () => T): SyncLockResult<T> {
  // An async write of this process holds the lock and will never finish: the lock is ours.
  if (held.has(resolve(file))) return { value: work(), locked: true };
  const deadline = Date.now() + EXIT_WAIT_MS;
  let pause = 5;
  for (;;) {
    clearAbandonedLock(file);
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
    writeOwner(file);
    try {
      return { value: work(), locked: true };
    } finally {
      unname(file);
      try {
        release();
      } catch {
        // Released already (a stale takeover by another process); nothing left to undo.
      }
    }
  }
}

function ownerPath(file: string): string {
  return `${file}.lock.owner`;
}

/** Best effort: without it, a dead holder's lock is still taken over once stale. */
function writeOwner(file: string): void {
  try {
    writeTextNoFollowSync(ownerPath(file), `${JSON.stringify({ pid: process.pid, host: hostname() })}\n`);
  } catch {
    // A link or a read-only directory: the lock still works, only slower to recover.
  }
}

/**
 * Before a holder removes its lock: dated now, the lock cannot be taken for one left unnamed by a
 * killed process in the moment between its name going and the lock going.
 */
function unname(file: string): void {
  try {
    const now = new Date();
    utimesSync(`${file}.lock`, now, now);
  } catch {
    // Gone already (taken over as stale): nothing of ours is left to give back.
  }
  removeOwner(file);
}

function removeOwner(file: string): void {
  rmSync(ownerPath(file), { force: true });
}

function hasOwner(file: string): boolean {
  try {
    lstatSync(ownerPath(file));
    return true;
  } catch {
    return false;
  }
}

/** The pid of the holder when it runs on this machine, else undefined. */
function ownerPid(file: string): number | undefined {
  try {
    const { pid, host } = JSON.parse(readTextNoFollowSync(ownerPath(file))) as {
      pid?: unknown;
      host?: unknown;
    };
    if (host !== hostname() || typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0)
      return undefined;
    return pid;
  } catch {
    return undefined;
  }
}

/** Whether a process of this machine is still running (`EPERM`: it is, and belongs to someone else). */
export function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists and belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes a lock that no live process holds: its holder on this machine is dead, or its time lies
 * in the future, which a live holder's never does. Refuses a lock that is a link.
 */
export function clearAbandonedLock(file: string, now: number = Date.now()): boolean {
  const lock = `${file}.lock`;
  const judged = lookAt(lock);
  if (judged === undefined) return false;
  const future = judged.mtimeMs > now + FUTURE_SLACK_MS;
  const unnamed = !future && judged.mtimeMs < now - UNNAMED_MS && !hasOwner(file);
  const pid = future || unnamed ? undefined : ownerPid(file);
  if (!future && !unnamed && (pid === undefined || isAlive(pid))) return false;
  // The holder may have given the lock back since the look, and another process taken it (its
  // name not yet written): only the lock judged is removed.
  const again = lookAt(lock);
  if (again === undefined || again.ino !== judged.ino || again.mtimeMs !== judged.mtimeMs) return false;
  // The name first: while the lock stands, no live process writes one.
  if (!unnamed) removeOwner(file);
  try {
    rmdirSync(lock);
  } catch {
    return false;
  }
  return true;
}

/** The lock's inode and time, or undefined when there is none. Refuses a lock that is a link. */
function lookAt(lock: string): { readonly ino: number; readonly mtimeMs: number } | undefined {
  let stats: ReturnType<typeof lstatSync>;
  try {
    stats = lstatSync(lock);
  } catch {
    return undefined;
  }
  if (stats.isSymbolicLink()) throw new UnsafeStateFileError(lock, 'a symbolic link');
  return { ino: stats.ino, mtimeMs: stats.mtimeMs };
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}
