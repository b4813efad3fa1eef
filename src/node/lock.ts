/**
 * A cross-process lock on a file, so that a read-merge-write by one process never interleaves with
 * another's. The lock is a directory (`<file>.lock`, made by proper-lockfile) whose time the holder
 * keeps fresh. A process holds the lock once it has named it: written its name (pid, host and a
 * token no other lock ever carries) inside the directory, exclusively, so that of two processes
 * that both believe they made the lock (one's was removed under it) only one names it; the other
 * finds a name there, or no lock, and takes it again. A lock is taken over at once when its holder
 * on this machine is dead or its time lies in the future (a clock set back, or a planted
 * directory), when it stands unnamed for `UNNAMED_MS`, and otherwise once it has not been refreshed
 * for `STALE_MS`.
 *
 * Taking a lock over moves it aside first (one rename), and removes what was moved only if it is
 * the very lock judged: same inode, same time, same name. A lock and its name go together, so a
 * lock taken since the look (its inode reused, its time the same second-rounded one) is told apart
 * by its token, and is put back. A named lock is never removed by a plain `rmdir` (it is not
 * empty), so that no process giving back or clearing a lock it lost removes another's.
 *
 * A holder gives its lock back in an order no other process mistakes for a killed one: it checks
 * the lock still bears its name, dates it now, removes its name, then the lock. A holder that finds
 * its name gone says so (`onCompromised`): what it wrote under the lock may have raced another
 * holder's write. `stillHolds` lets a holder check before it writes.
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
import { randomUUID } from 'node:crypto';
import { type FSWatcher, lstatSync, renameSync, rmSync, utimesSync, watch } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import lockfile from 'proper-lockfile';
import {
  CREATE_NEW_FLAGS,
  readTextNoFollowSync,
  UnsafeStateFileError,
  writeTextNoFollowSync,
} from './safe-fs.js';

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

/** The token of each lock this process holds and named, by resolved path of its file. */
const tokens = new Map<string, string>();

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
  /** Told when the lock, given back, no longer bore this process's name. */
  readonly onCompromised: (error: Error) => void;
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
  try {
    return await work();
  } finally {
    held.delete(key);
    const kept = unname(file, key);
    await release().catch(() => undefined);
    if (!kept) onCompromised(lockLost(file));
  }
}

/**
 * Whether the lock of `file` this process holds still bears its name: false once another process
 * took it over (this one stood still past the stale time, or a takeover misjudged it). A holder
 * asks before it writes, so as not to write over what the new holder writes. True for a lock this
 * process could not name (a full disk): nothing tells then.
 */
export function stillHolds(file: string): boolean {
  const token = tokens.get(resolve(file));
  return token === undefined || readName(namePath(file))?.token === token;
}

/** The error a holder is told of when its lock was taken over while it held it. */
function lockLost(file: string): Error {
  return Object.assign(
    new Error(`the lock ${file}.lock was taken over by another process while this one held it`),
    { code: 'ECOMPROMISED' },
  );
}

/**
 * Whether taking the lock failed only because another process holds it: `ELOCKED`, or a stale lock
 * proper-lockfile could not remove because it is named (not empty): it is taken over here instead,
 * by `clearAbandonedLock`, which checks the lock it removes is the one it judged.
 */
function heldByAnother(error: unknown): boolean {
  const { code } = error as NodeJS.ErrnoException;
  return code === 'ELOCKED' || code === 'ENOTEMPTY' || code === 'EEXIST';
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
      if (!nameLock(file)) {
        // The lock this process made was removed, and another process's stands named in its place
        // (or none): this one holds nothing. Its release removes no named lock.
        await release().catch(() => undefined);
        if (Date.now() < deadline) continue;
        throw Object.assign(new Error(`Lock file is already being held`), { code: 'ELOCKED', file });
      }
      if (waited) withdrawWanted(file);
      return { release, waited };
    } catch (error) {
      if (lockVanished(error) && Date.now() < deadline) continue;
      if (!heldByAnother(error) || Date.now() >= deadline) {
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
    onCompromised,
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
    // Taken over while kept (this process stood still past the stale time): given back as lost.
    if (!lease.gone && (isWanted(lease.file) || (lease.release !== undefined && !stillHolds(lease.file))))
      await giveBack(key, lease);
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
  const stillOurs = lease.release === undefined || unname(lease.file, key);
  await lease.release?.().catch(() => undefined);
  if (!stillOurs) lease.onCompromised(lockLost(lease.file));
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
      if (!heldByAnother(error) || Date.now() >= deadline) {
        if (waiting) withdrawWanted(file);
        return { value: work(), locked: false };
      }
      waiting = true;
      markWanted(file);
      sleepSync(pause);
      pause = Math.min(pause * 2, 200);
      continue;
    }
    if (!nameLock(file)) {
      // Another process's lock stands named where this one made its own: this one holds nothing.
      try {
        release();
      } catch {
        // Its lock is gone already.
      }
      continue;
    }
    if (waiting) withdrawWanted(file);
    try {
      return { value: work(), locked: true };
    } finally {
      unname(file, key);
      try {
        release();
      } catch {
        // Released already (a stale takeover by another process); nothing left to undo.
      }
    }
  }
}

/** The holder's name, inside the lock's directory: it goes with the lock, wherever the lock goes. */
function namePath(file: string): string {
  return join(`${file}.lock`, 'owner');
}

/** Where a holder of an earlier version named itself: beside the lock. Read, never written. */
function besidePath(file: string): string {
  return `${file}.lock.owner`;
}

/**
 * Names the lock this process just made, exclusively: false when another process's name is there
 * already, or no lock (the one made was removed, and the other's made since, or none yet). A name
 * that cannot be written for another reason (a full disk) leaves the lock unnamed, held all the same.
 */
function nameLock(file: string): boolean {
  const key = resolve(file);
  const token = randomUUID();
  tokens.delete(key);
  let made: Date;
  try {
    made = lstatSync(`${file}.lock`).mtime;
  } catch {
    return false;
  }
  try {
    writeTextNoFollowSync(
      namePath(file),
      `${JSON.stringify({ pid: process.pid, host: hostname(), token })}\n`,
      CREATE_NEW_FLAGS,
    );
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    return !(
      code === 'EEXIST' ||
      code === 'ENOENT' ||
      code === 'ENOTDIR' ||
      error instanceof UnsafeStateFileError
    );
  }
  tokens.set(key, token);
  try {
    // A name made in the folder changes its time: the time proper-lockfile took the lock at is
    // given back, or its next refresh would take the lock for one taken over.
    utimesSync(`${file}.lock`, made, made);
  } catch {
    // Gone since: the holder finds its name gone before it writes.
  }
  return true;
}

/**
 * Before a holder removes its lock: dated now, the lock cannot be taken for one left unnamed by a
 * killed process in the moment between its name going and the lock going. False when the lock no
 * longer bears this process's name: another's lock, or its name, is left as it is.
 */
function unname(file: string, key: string): boolean {
  const token = tokens.get(key);
  tokens.delete(key);
  if (token === undefined) return true;
  if (readName(namePath(file))?.token !== token) return false;
  try {
    const now = new Date();
    utimesSync(`${file}.lock`, now, now);
  } catch {
    // Gone already: nothing of ours is left to give back.
  }
  rmSync(namePath(file), { force: true });
  return true;
}

interface LockName {
  readonly text: string;
  /** The holder's pid when it runs on this machine. */
  readonly pid: number | undefined;
  readonly token: string | undefined;
}

/** The name at `path`; undefined when there is none. A name that cannot be read names no one known. */
function readName(path: string): LockName | undefined {
  let text: string;
  try {
    text = readTextNoFollowSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return { text: '', pid: undefined, token: undefined };
  }
  try {
    const { pid, host, token } = JSON.parse(text) as { pid?: unknown; host?: unknown; token?: unknown };
    const here = host === hostname() && typeof pid === 'number' && Number.isSafeInteger(pid) && pid > 0;
    return { text, pid: here ? pid : undefined, token: typeof token === 'string' ? token : undefined };
  } catch {
    return { text, pid: undefined, token: undefined };
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
 * Removes a lock that no live process holds: its holder on this machine is dead, its time lies in
 * the future (which a live holder's never does), it stood unnamed for `UNNAMED_MS`, or it was not
 * refreshed for `STALE_MS`. Refuses a lock that is a link. Only the lock judged is removed (see
 * `takeOver`).
 */
export function clearAbandonedLock(file: string, now: number = Date.now()): boolean {
  const lock = `${file}.lock`;
  const judged = lookAt(lock);
  if (judged === undefined) return false;
  const name = readName(namePath(file));
  // A holder of an earlier version named itself beside its lock.
  const beside = name === undefined ? readName(besidePath(file)) : undefined;
  const holder = name ?? beside;
  const future = judged.mtimeMs > now + FUTURE_SLACK_MS;
  const stale = judged.mtimeMs < now - STALE_MS;
  const unnamed = holder === undefined && judged.mtimeMs < now - UNNAMED_MS;
  const dead = holder?.pid !== undefined && !isAlive(holder.pid);
  if (!future && !stale && !unnamed && !dead) return false;
  if (!takeOver(file, judged, name)) return false;
  // The earlier version's name of the lock removed, unless another holder wrote its own since.
  if (beside !== undefined && readName(besidePath(file))?.text === beside.text)
    rmSync(besidePath(file), { force: true });
  return true;
}

let takeovers = 0;

/**
 * Moves the lock aside (one rename: no other process can take the same lock over at once), then
 * removes it if it is the lock judged: same inode, same time, same name. Otherwise its holder took
 * it since the look (a new lock can have the inode of one removed a moment before, and the same
 * time: proper-lockfile rounds a new lock's time up to the second), and it is put back.
 */
function takeOver(
  file: string,
  judged: { readonly ino: number; readonly mtimeMs: number },
  name: LockName | undefined,
): boolean {
  const lock = `${file}.lock`;
  takeovers += 1;
  const aside = `${lock}.${process.pid}.${takeovers}.taken`;
  try {
    renameSync(lock, aside);
  } catch {
    // Gone already (given back, or taken over by another process).
    return false;
  }
  let moved: { readonly ino: number; readonly mtimeMs: number; readonly link: boolean } | undefined;
  try {
    const stats = lstatSync(aside);
    moved = { ino: stats.ino, mtimeMs: stats.mtimeMs, link: stats.isSymbolicLink() };
  } catch {
    moved = undefined;
  }
  const same =
    moved !== undefined &&
    !moved.link &&
    moved.ino === judged.ino &&
    moved.mtimeMs === judged.mtimeMs &&
    readName(join(aside, 'owner'))?.text === name?.text;
  if (same) {
    rmSync(aside, { recursive: true, force: true });
    return true;
  }
  try {
    // An empty lock made in the meantime is replaced: its maker finds this one's name when it names
    // its own, and takes the lock again.
    renameSync(aside, lock);
  } catch {
    // A named lock stands there now: the one moved is of no use to anyone. Its holder finds its
    // name gone, and says so.
    rmSync(aside, { recursive: true, force: true });
  }
  return false;
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
