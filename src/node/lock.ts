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
 *
 * A long-lived process that is the usual writer of a file (the hook helper) may keep its lock between
 * works (`keep`): the works of this process then take turns in memory, with no lock made or removed
 * on disk, and the lock stays fresh and named as any held lock does. A process that finds the lock
 * held says it waits (`<file>.lock.wanted`); the keeper gives the lock back as soon as the system
 * tells it of the mark (a watch on the lock's folder), else before its next work or within
 * `giveBackWantedLocks`'s round, and does not keep a lock it had to wait for itself (two keepers of
 * one file take turns as processes that keep nothing do). `giveBackKeptLocks` gives them all back
 * (when idle, before exiting).
 */
import { type FSWatcher, lstatSync, rmdirSync, rmSync, utimesSync, watch } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, resolve } from 'node:path';
import lockfile from 'proper-lockfile';
import { readTextNoFollowSync, UnsafeStateFileError, writeTextNoFollowSync } from './safe-fs.js';

const STALE_MS = 10_000;
/** One round of attempts; between rounds an abandoned lock is looked for. */
const ROUND = { retries: 5, factor: 1.5, minTimeout: 10, maxTimeout: 100, randomize: true };
/**
 * The first attempt, alone: a lock found held is marked wanted before any wait, so that a process
 * keeping it between its works gives it back within its next look, not a round of waiting later.
 */
const FIRST_TRY = { retries: 0 };
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

/** A lock this process keeps between works (see `keep`). */
interface KeptLock {
  readonly file: string;
  /** Settles once the last work queued on the lock has ended: the next one waits for it. */
  tail: Promise<unknown>;
  /** proper-lockfile's release; undefined while the lock is being taken. */
  release: (() => Promise<void>) | undefined;
  /** Set once given back or lost: a work queued after it takes the lock anew. */
  gone: boolean;
  /** Taken after waiting for another process: given back after the work, as a lock not kept is. */
  contended: boolean;
  /** Tells when a waiter marks the lock wanted (see `watchForWaiters`); undefined when it cannot. */
  watcher?: FSWatcher | undefined;
}

/** Locks this process keeps, by resolved path (a process-wide fact, as the locks on disk are). */
const kept = new Map<string, KeptLock>();

export interface FileLockOptions {
  /**
   * Keeps the lock after the work, for this process's next works on the file (see the module's
   * comment); unless another process waits for it.
   */
  readonly keep?: boolean;
}

export async function withFileLock<T>(
  file: string,
  work: () => Promise<T>,
  onCompromised: (error: Error) => void,
  options: FileLockOptions = {},
): Promise<T> {
  const key = resolve(file);
  const lease = kept.get(key);
  if (lease !== undefined) return inTurnOf(lease, key, work, onCompromised);
  if (options.keep === true) return inTurnOf(keepLock(file, key, onCompromised), key, work, onCompromised);
  const { release } = await takeLock(file, onCompromised);
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

/**
 * Whether taking the lock failed because the lock just made was gone before its time could be read
 * (proper-lockfile makes the folder, then reads its time): another process judged it abandoned while
 * this one, slowed down, had not named itself yet. Nothing was done under it: take it again.
 */
function lockVanished(error: unknown): boolean {
  const { code, syscall } = error as NodeJS.ErrnoException;
  return code === 'ENOENT' && syscall === 'stat';
}

/** Takes the lock, waiting for a live holder up to `WAIT_MS` and taking over an abandoned one. */
async function takeLock(
  file: string,
  onCompromised: (error: Error) => void,
): Promise<{ readonly release: () => Promise<void>; readonly waited: boolean }> {
  const deadline = Date.now() + WAIT_MS;
  let waited = false;
  for (;;) {
    clearAbandonedLock(file);
    try {
      const release = await lockfile.lock(file, {
        realpath: false,
        stale: STALE_MS,
        retries: waited ? ROUND : FIRST_TRY,
        onCompromised,
      });
      if (waited) withdrawWanted(file);
      return { release, waited };
    } catch (error) {
      if (lockVanished(error) && Date.now() < deadline) continue;
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED' || Date.now() >= deadline) {
        if (waited) withdrawWanted(file);
        throw error;
      }
      // A process keeping the lock between its works gives it back for this one.
      waited = true;
      markWanted(file);
    }
  }
}

/** Starts taking the lock of `file` to keep; works queue behind the taking. */
function keepLock(file: string, key: string, onCompromised: (error: Error) => void): KeptLock {
  const lease: KeptLock = {
    file,
    tail: Promise.resolve(),
    release: undefined,
    gone: false,
    contended: false,
  };
  kept.set(key, lease);
  const lost = (error: Error) => {
    // Taken over as stale (this process stood still for its whole stale time): taken anew next time.
    lease.gone = true;
    stopWatching(lease);
    if (kept.get(key) === lease) kept.delete(key);
    onCompromised(error);
  };
  lease.tail = takeLock(file, lost).then(
    ({ release, waited }) => {
      lease.release = release;
      // Another process wants the file too (another helper): keeping it would keep each waiting.
      lease.contended = waited;
      writeOwner(file);
      if (!waited && !lease.gone) watchForWaiters(key, lease);
    },
    (error: unknown) => {
      lease.gone = true;
      if (kept.get(key) === lease) kept.delete(key);
      throw error;
    },
  );
  return lease;
}

/**
 * Runs `work` in its turn of a kept lock: after the works queued before it, the lock held. A lock
 * another process waits for is given back first, and `work` takes it as any work does.
 */
function inTurnOf<T>(
  lease: KeptLock,
  key: string,
  work: () => Promise<T>,
  onCompromised: (error: Error) => void,
): Promise<T> {
  const run = lease.tail.then(async () => {
    if (!lease.gone && isWanted(lease.file)) await giveBack(key, lease);
    // Given back (or lost): this work holds the lock as any work does, and does not keep it, so that
    // the one waiting has it next.
    if (lease.gone) return withFileLock(lease.file, work, onCompromised);
    try {
      return await work();
    } finally {
      if (lease.contended) await giveBack(key, lease);
    }
  });
  lease.tail = run.catch(() => undefined);
  return run;
}

/**
 * Has the system tell this process when a waiter marks a kept lock wanted, so that the lock is given
 * back once the works queued on it have ended, not at the keeper's next look (`giveBackWantedLocks`),
 * which stays for where the system does not tell (some network file systems; no watch left to have).
 * Watching the lock's folder costs nothing between events: no process wakes up to look.
 */
function watchForWaiters(key: string, lease: KeptLock): void {
  const mark = basename(wantedPath(lease.file));
  try {
    lease.watcher = watch(dirname(resolve(lease.file)), { persistent: false }, (_event, name) => {
      if (name === mark && !lease.gone && isWanted(lease.file))
        void queueGiveBack(key, lease).catch(() => undefined);
    });
    lease.watcher.on('error', () => stopWatching(lease));
  } catch {
    // No watch to be had: the keeper's looks give the lock back.
  }
}

function stopWatching(lease: KeptLock): void {
  lease.watcher?.close();
  lease.watcher = undefined;
}

/** Gives a kept lock back now (the caller runs in its turn, or it is idle). */
async function giveBack(key: string, lease: KeptLock): Promise<void> {
  if (lease.gone) return;
  lease.gone = true;
  stopWatching(lease);
  if (kept.get(key) === lease) kept.delete(key);
  unname(lease.file);
  await lease.release?.().catch(() => undefined);
}

/** Gives back every lock this process keeps, once the works queued on each have ended. */
export async function giveBackKeptLocks(): Promise<void> {
  await Promise.all([...kept].map(([key, lease]) => queueGiveBack(key, lease)));
}

/** Gives back the kept locks another process waits for, once the works queued on each have ended. */
export async function giveBackWantedLocks(): Promise<void> {
  await Promise.all(
    [...kept].filter(([, lease]) => isWanted(lease.file)).map(([key, lease]) => queueGiveBack(key, lease)),
  );
}

function queueGiveBack(key: string, lease: KeptLock): Promise<void> {
  const run = lease.tail.then(() => giveBack(key, lease));
  lease.tail = run.catch(() => undefined);
  return run;
}

/** The files whose lock this process keeps right now (for tests and diagnostics). */
export function keptLocks(): string[] {
  return [...kept.keys()];
}

function wantedPath(file: string): string {
  return `${file}.lock.wanted`;
}

/**
 * Best effort: without it, a waiter still has the lock once its keeper is idle. Written again at each
 * round of waiting, so that its time says the waiter is still there.
 */
function markWanted(file: string): void {
  try {
    writeTextNoFollowSync(wantedPath(file), `${process.pid}\n`);
  } catch {
    // A link or a read-only directory: the keeper gives the lock back when idle all the same.
  }
}

/**
 * Best effort, as marking is: a waiter that has the lock, or gives up, takes its mark back; a folder
 * planted at the mark's name stays, and never keeps the lock from its new holder.
 */
function withdrawWanted(file: string): void {
  try {
    rmSync(wantedPath(file), { force: true });
  } catch {
    // Not a file this process can remove: the keeper reads it as a waiter's until it goes stale.
  }
}

/** Whether a process waits for the lock: a mark not renewed for `STALE_MS` is a gone waiter's. */
function isWanted(file: string, now: number = Date.now()): boolean {
  try {
    // Asked before every event the helper handles, and almost always absent: no error is made for that.
    const mark = lstatSync(wantedPath(file), { throwIfNoEntry: false });
    return mark !== undefined && mark.mtimeMs > now - STALE_MS;
  } catch {
    return false;
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
  // An async write of this process holds the lock and will never finish, or the process keeps it:
  // the lock is ours.
  const key = resolve(file);
  if (held.has(key) || kept.get(key)?.release !== undefined) return { value: work(), locked: true };
  const deadline = Date.now() + EXIT_WAIT_MS;
  let pause = 5;
  let waiting = false;
  for (;;) {
    clearAbandonedLock(file);
    let release: (() => void) | undefined;
    try {
      release = lockfile.lockSync(file, { realpath: false, stale: STALE_MS, onCompromised: () => undefined });
    } catch (error) {
      if (lockVanished(error) && Date.now() < deadline) continue;
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED' || Date.now() >= deadline) {
        if (waiting) withdrawWanted(file);
        return { value: work(), locked: false };
      }
      waiting = true;
      markWanted(file);
      sleepSync(pause);
      pause = Math.min(pause * 2, 200);
      continue;
    }
    if (waiting) withdrawWanted(file);
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
