/**
 * A session's run state (detector streaks, the session's own bans, the world it has seen, budget,
 * a halt) kept on disk between processes: one small file per session id in the state directory, or,
 * when the store is SQLite, one row per session id in the same database, written in one transaction
 * with the read that came before it. Faces whose every event is a new process (agent hooks) open a guard, restore the session's run
 * state, handle one event and save it back, all under the session's lock: processes of one session
 * take turns and none loses another's update. A long-lived process may serve several sessions with
 * one guard, one event at a time: each event swaps in its session's run state. Learned constraints
 * are not here; the store (and, within one process, the one guard) shares them.
 */
import { createHash, randomUUID } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  rmSync,
  type Stats,
} from 'node:fs';
import { join } from 'node:path';
import { NarrowingError } from '../core/errors.js';
import type { SessionSnapshot } from '../core/session-snapshot.js';
import type { EngineSnapshot } from '../core/types.js';
import { writeFileAtomic } from '../node/atomic-file.js';
import { withFileLock } from '../node/lock.js';
import { APPEND_FLAGS, openNoFollowSync, writeAllSync } from '../node/safe-fs.js';
import { prepareFolder } from '../node/state-dir.js';
import { toStoredConstraint } from '../stores/state-format.js';
import type { GuardSession } from './session.js';

/** Where a store keeps per-session values in its own database (the SQLite store's `sessions` table). */
export interface SessionStateTable {
  get(sessionId: string): unknown;
  set(sessionId: string, value: unknown): void;
  prune(maxAgeMs: number): number;
  /** Rejects with code `ELOCKED` when another process holds the table past the store's wait. */
  transaction<T>(work: () => Promise<T> | T): Promise<T>;
}

/** The table each guard keeps its sessions' run state in, when its store has one. */
const tables = new WeakMap<GuardSession, SessionStateTable>();

/** Keeps the run state of `guard`'s sessions in `table` instead of files (`openGuard` does this for SQLite). */
export function keepSessionStateIn(guard: GuardSession, table: SessionStateTable): void {
  tables.set(guard, table);
}

/** True for a store that offers a table of per-session values. */
export function hasSessionTable(store: unknown): store is { readonly sessions: SessionStateTable } {
  const sessions = (store as { sessions?: Partial<SessionStateTable> } | undefined)?.sessions;
  return (
    typeof sessions?.get === 'function' &&
    typeof sessions.set === 'function' &&
    typeof sessions.prune === 'function' &&
    typeof sessions.transaction === 'function'
  );
}

/**
 * A store that takes turns (the file store): a session's turn runs inside one, so what it learns is
 * built on what other processes wrote before it and written before another process reads.
 */
export interface StoreTurns {
  /** `keepLock`: the store's lock is kept after the turn, for this process's next (see `withFileLock`). */
  turn<T>(work: () => Promise<T> | T, options?: { readonly keepLock?: boolean }): Promise<T>;
}

const storeTurns = new WeakMap<GuardSession, StoreTurns>();

/** Runs the session turns of `guard` inside turns of `store` (`openGuard` does this for the file store). */
export function takeTurnsOf(guard: GuardSession, store: StoreTurns): void {
  storeTurns.set(guard, store);
}

/** True for a store that offers turns. */
export function hasTurns(store: unknown): store is StoreTurns {
  return typeof (store as Partial<StoreTurns> | undefined)?.turn === 'function';
}

/** The folder of session files inside a state directory. */
export const SESSIONS_DIR = 'sessions';
const VERSION = 1;
/** A session file larger than this is not read: run state is bounded far below it. */
const MAX_SESSION_BYTES = 8 * 1024 * 1024;
/** How many event keys a session remembers for `firstTime`. */
const MAX_SEEN_KEYS = 256;
const MAX_KEY_CHARS = 512;

interface SessionFile {
  readonly version: number;
  readonly sessionId: string;
  readonly savedAt: number;
  /** Tells whether the file is still the one this process wrote last. */
  readonly writer?: string;
  /**
   * Counts the session's saved turns: of the session file and the last line of its log (see
   * `appendToLog`), the one with the higher count is the newer. Absent in files of earlier versions (0).
   */
  readonly turn?: number;
  readonly session: unknown;
  readonly seen?: readonly string[];
}

export interface SessionStateOptions {
  /** The session whose turn it is; default: the guard's own. */
  readonly sessionId?: string;
  /** Problems that do not stop the work (an unreadable session file); default: ignored. */
  readonly onProblem?: (message: string) => void;
  /**
   * Runs the work inside a turn of the guard's store when it takes turns (see `takeTurnsOf`); default
   * true. Work that learns nothing (a check) may go without: it then holds no lock but the session's.
   */
  readonly storeTurn?: boolean;
  /**
   * Saves the run state after the work by one append to the session's log (`<digest>.log` beside
   * its file), with no rewrite of the file, no rename and no sync: what a long-lived process (the
   * hook helper) does on every event. Every process reads the log's last whole line when it is newer
   * than the file, so nothing appended is missed, even when its writer was killed right after; a torn
   * last line is ignored. The log is folded into the file every `FOLD_EVERY` turns, and by
   * `foldSessionLogs` (the helper calls it when idle and when it stops). Default false: the file is
   * rewritten atomically.
   */
  readonly appendToLog?: boolean;
  /**
   * Keeps the session's lock, and the store's, after the turn, for this process's next turns: what
   * the hook helper does, the usual writer of the sessions it serves, so that an event makes and
   * removes no lock on disk. Another process that waits for one has it within a moment (see
   * `withFileLock`'s `keep`); the helper gives them back when idle and before it exits. Default false.
   */
  readonly keepLocks?: boolean;
}

/** What each guard wrote last, so that a guard serving one session after another knows when its run state is current. */
const lastWritten = new WeakMap<GuardSession, LastWrite>();

interface LastWrite {
  readonly path: string;
  readonly writer: string;
  readonly turn: number;
  /** The event keys the session has seen, as written. */
  readonly seen: readonly string[];
  /**
   * The session's file and log as this guard left them, for a turn that finds them so and needs no
   * read (the helper's next event of the same session). Undefined: read them.
   */
  readonly files?: string;
}

/** Turns appended to a session's log before it is folded into the session's file (which bounds the log). */
export const FOLD_EVERY = 64;
/** Sessions whose log a guard has appended to and not folded yet, with how many turns each holds. */
const unfolded = new WeakMap<GuardSession, Map<string, number>>();

/** What `withSessionState` hands to the work. */
export interface SessionStateContext {
  /** True when run state saved by an earlier process of this session was restored. */
  readonly resumed: boolean;
  /** Drops the restored run state: the session starts over (learned constraints stay). */
  readonly restart: () => void;
  /**
   * True the first time this session hands over `key` (the last 256 keys are remembered): an event
   * the agent reports twice, through two hooks, is handled once.
   */
  readonly firstTime: (key: string) => boolean;
}

/** The file that holds the run state of `sessionId` (its name is a digest: ids are not trusted as paths). */
export function sessionStatePath(stateDir: string, sessionId: string): string {
  const digest = createHash('sha256').update(sessionId).digest('hex').slice(0, 32);
  return join(stateDir, SESSIONS_DIR, `${digest}.json`);
}

/** The log of turns appended beside a session's file (see `appendToLog`). */
export function sessionLogPath(statePath: string): string {
  return `${statePath.slice(0, -'.json'.length)}.log`;
}

/**
 * Runs `work` on `guard` holding the lock of the guard's session: the run state the last process of
 * this session saved is restored first, and the state after `work` is saved before the lock goes.
 */
export async function withSessionState<T>(
  guard: GuardSession,
  work: (context: SessionStateContext) => Promise<T> | T,
  options: SessionStateOptions = {},
): Promise<T> {
  const sessionId = options.sessionId ?? guard.sessionId;
  const table = tables.get(guard);
  if (table !== undefined) {
    return table.transaction(() =>
      takeTurn(guard, sessionId, `session:${sessionId}`, work, {
        read: () => readSessionRow(table, sessionId, options.onProblem),
        write: (file) => {
          table.set(sessionId, file);
          return undefined;
        },
      }),
    );
  }
  const stateDir = guard.stateDir;
  if (stateDir === undefined) {
    throw new NarrowingError(
      'USAGE',
      'withSessionState needs a guard with a state directory (store "file" or "sqlite", or a journal)',
    );
  }
  const path = sessionStatePath(stateDir, sessionId);
  ensureSessionsDir(join(stateDir, SESSIONS_DIR));
  const store = options.storeTurn === false ? undefined : storeTurns.get(guard);
  const take = () =>
    takeTurn(
      guard,
      sessionId,
      path,
      work,
      fileSlot(guard, path, options.appendToLog === true, options.onProblem),
    );
  // The session's lock first, then the store's: a process waiting for a busy session holds up no other.
  const keep = options.keepLocks === true;
  return withFileLock(
    path,
    () => (store === undefined ? take() : store.turn(take, { keepLock: keep })),
    (error) => options.onProblem?.(`the lock of ${path} was lost: ${error.message}`),
    { keep },
  );
}

/** Where one session's run state is read and written, the caller holding its lock. */
interface SessionSlot {
  read(): SessionFile | undefined;
  /** Returns how the slot looks after the write, for `unchanged` (see `LastWrite.files`). */
  write(file: SessionFile): Promise<string | undefined> | string | undefined;
  /** True when the slot still looks as `files` says this guard left it: no other process wrote since. */
  unchanged?(files: string): boolean;
}

/** A session's file, with its log when the turns are appended (see `appendToLog`). */
function fileSlot(
  guard: GuardSession,
  path: string,
  appendToLog: boolean,
  onProblem: ((message: string) => void) | undefined,
): SessionSlot {
  const log = sessionLogPath(path);
  return {
    read: () => newer(readSessionFile(path, onProblem), readSessionLog(log, onProblem)),
    unchanged: (files) => filesLook(path, log) === files,
    async write(file) {
      const folds = unfolded.get(guard) ?? new Map<string, number>();
      unfolded.set(guard, folds);
      const turns = folds.get(path) ?? 0;
      if (appendToLog && turns < FOLD_EVERY) {
        // The newline first: a line a killed writer left unfinished ends there, and this one is whole.
        appendLine(log, `\n${JSON.stringify(file)}\n`);
        folds.set(path, turns + 1);
      } else {
        // The file first: killed before the log goes, the file's turn is the newer one all the same.
        await writeFileAtomic(path, `${JSON.stringify(file)}\n`);
        rmSync(log, { force: true });
        folds.delete(path);
      }
      return appendToLog ? filesLook(path, log) : undefined;
    },
  };
}

/**
 * Folds the logs `guard` appended to into their sessions' files, each under its session's lock:
 * what the helper does when idle and before it stops. Never throws (a log left is read all the same).
 */
export async function foldSessionLogs(
  guard: GuardSession,
  onProblem?: (message: string) => void,
): Promise<void> {
  const folds = unfolded.get(guard);
  if (folds === undefined) return;
  for (const path of [...folds.keys()]) {
    folds.delete(path);
    try {
      await withFileLock(
        path,
        async () => {
          const log = sessionLogPath(path);
          const saved = newer(readSessionFile(path, onProblem), readSessionLog(log, onProblem));
          if (saved !== undefined) await writeFileAtomic(path, `${JSON.stringify(saved)}\n`);
          rmSync(log, { force: true });
          const mine = lastWritten.get(guard);
          if (mine?.path === path && mine.files !== undefined && saved?.writer === mine.writer)
            lastWritten.set(guard, { ...mine, files: filesLook(path, log) });
        },
        (error) => onProblem?.(`the lock of ${path} was lost: ${error.message}`),
      );
    } catch (error) {
      onProblem?.(`the session log beside ${path} could not be folded into it: ${(error as Error).message}`);
    }
  }
}

/** The newer of a session's file and its log's last turn. */
function newer(file: SessionFile | undefined, logged: SessionFile | undefined): SessionFile | undefined {
  if (logged === undefined) return file;
  if (file === undefined) return logged;
  return (logged.turn ?? 0) >= (file.turn ?? 0) ? logged : file;
}

/** How a session's file and log look (device, inode, size, time), compared between turns. */
function filesLook(path: string, log: string): string {
  return `${look(path)}|${look(log)}`;
}

function look(path: string): string {
  let stat: Stats | undefined;
  try {
    stat = lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return '-';
  }
  if (stat === undefined) return '-';
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}`;
}

/** One append, never through a link: the line reaches the operating system before the answer. */
function appendLine(path: string, line: string): void {
  const fd = openNoFollowSync(path, APPEND_FLAGS);
  try {
    writeAllSync(fd, Buffer.from(line));
  } finally {
    closeSync(fd);
  }
}

/** Restores the session's run state, runs `work`, saves the state after it. */
async function takeTurn<T>(
  guard: GuardSession,
  sessionId: string,
  place: string,
  work: (context: SessionStateContext) => Promise<T> | T,
  slot: SessionSlot,
): Promise<T> {
  const mine = lastWritten.get(guard);
  // The guard wrote this session's turn last and nobody has written since: nothing to read.
  const untouched =
    mine !== undefined &&
    mine.path === place &&
    mine.files !== undefined &&
    slot.unchanged?.(mine.files) === true;
  const saved = untouched ? undefined : slot.read();
  const current = untouched || (mine !== undefined && mine.path === place && saved?.writer === mine.writer);
  if (!current) {
    // The guard holds another session's run state, or this session's moved on in another process.
    if (sessionId !== guard.sessionId || mine !== undefined) guard.resetSession(sessionId);
    if (saved) guard.engine.restore(asSnapshot(saved), { scope: 'all' });
  }
  const seen = untouched
    ? [...(mine?.seen ?? [])]
    : Array.isArray(saved?.seen)
      ? saved.seen.filter((key) => typeof key === 'string')
      : [];
  const turn = (untouched ? mine?.turn : saved?.turn) ?? 0;
  const result = await work({
    resumed: untouched || saved !== undefined,
    restart: () => guard.resetSession(sessionId),
    firstTime: (key) => {
      const bounded = key.slice(0, MAX_KEY_CHARS);
      if (seen.includes(bounded)) return false;
      seen.push(bounded);
      if (seen.length > MAX_SEEN_KEYS) seen.splice(0, seen.length - MAX_SEEN_KEYS);
      return true;
    },
  });
  const writer = randomUUID();
  const file: SessionFile = {
    version: VERSION,
    sessionId,
    savedAt: Date.now(),
    writer,
    turn: (Number.isSafeInteger(turn) && turn >= 0 ? turn : 0) + 1,
    session: withStoredConstraints(guard.engine.sessionSnapshot()),
    ...(seen.length > 0 && { seen }),
  };
  const files = await slot.write(file);
  lastWritten.set(guard, {
    path: place,
    writer,
    turn: file.turn ?? 0,
    seen,
    ...(files !== undefined && { files }),
  });
  return result;
}

/** Removes the run state of sessions not saved for `maxAgeMs` (files, or the rows of the guard's table); never throws. */
export function pruneGuardSessionStates(guard: GuardSession, maxAgeMs: number): number {
  const table = tables.get(guard);
  if (table !== undefined) {
    try {
      return table.prune(maxAgeMs);
    } catch {
      return 0;
    }
  }
  return guard.stateDir === undefined ? 0 : pruneSessionStates(guard.stateDir, maxAgeMs);
}

function readSessionRow(
  table: SessionStateTable,
  sessionId: string,
  onProblem?: (message: string) => void,
): SessionFile | undefined {
  let value: unknown;
  try {
    value = table.get(sessionId);
  } catch (error) {
    onProblem?.(
      `the saved run state of this session cannot be read (${(error as Error).message}); the session starts over`,
    );
    return undefined;
  }
  if (value === undefined) return undefined;
  if (!isSessionFile(value) || value.sessionId !== sessionId) {
    onProblem?.(
      'the saved run state of this session is not one this version writes; the session starts over',
    );
    return undefined;
  }
  return value;
}

/** Removes session files not written for `maxAgeMs`; returns how many went. Never throws. */
export function pruneSessionStates(stateDir: string, maxAgeMs: number, now = Date.now()): number {
  const dir = join(stateDir, SESSIONS_DIR);
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    if (!/^[0-9a-f]{32}\.(?:json|log)$/.test(name)) continue;
    const file = join(dir, name);
    try {
      const stat = lstatSync(file);
      if (stat.isFile() && now - stat.mtimeMs > maxAgeMs) {
        rmSync(file);
        removed += 1;
      }
    } catch {
      // Gone already, or written by another process right now.
    }
  }
  return removed;
}

function ensureSessionsDir(dir: string): void {
  prepareFolder(dir);
  const stat = lstatSync(dir);
  if (stat.isSymbolicLink() || !stat.isDirectory()) {
    throw new NarrowingError(
      'UNSAFE_STATE_FILE',
      `${dir} is not a plain directory (a symbolic link or a file is in its place); remove it and narrowing will create it again`,
    );
  }
}

function readSessionFile(path: string, onProblem?: (message: string) => void): SessionFile | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT')
      onProblem?.(`the session file ${path} cannot be read (${code}); the session starts over`);
    return undefined;
  }
  try {
    const size = fstatSync(fd).size;
    if (size > MAX_SESSION_BYTES) {
      onProblem?.(
        `the session file ${path} is larger than ${MAX_SESSION_BYTES} bytes; the session starts over`,
      );
      return undefined;
    }
    const parsed: unknown = JSON.parse(readBytes(fd, 0, size).toString('utf8'));
    if (!isSessionFile(parsed)) {
      onProblem?.(`the session file ${path} is not one this version writes; the session starts over`);
      return undefined;
    }
    return parsed;
  } catch (error) {
    onProblem?.(`the session file ${path} is damaged (${(error as Error).message}); the session starts over`);
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * The last whole turn in a session's log (its last `MAX_SESSION_BYTES` at most): a line cut short by
 * a writer killed mid-append, or one that is not run state, is skipped for the one before it.
 */
function readSessionLog(path: string, onProblem?: (message: string) => void): SessionFile | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') onProblem?.(`the session log ${path} cannot be read (${code}); it is skipped`);
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return undefined;
    const start = Math.max(0, stat.size - MAX_SESSION_BYTES);
    const lines = readBytes(fd, start, stat.size - start)
      .toString('utf8')
      .split('\n');
    // The last piece follows the last newline: empty, or a line whose append did not finish.
    lines.pop();
    for (let index = lines.length - 1; index >= 0; index -= 1) {
      try {
        const parsed: unknown = JSON.parse(lines[index] ?? '');
        if (isSessionFile(parsed)) return parsed;
      } catch {
        // Cut short, or the first line of a read that started mid-log: the one before it.
      }
    }
    return undefined;
  } catch (error) {
    onProblem?.(`the session log ${path} cannot be read (${(error as Error).message}); it is skipped`);
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Up to `length` bytes of `fd` from `start`: fewer when the file ends sooner (cut while it was read). */
function readBytes(fd: number, start: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  let read = 0;
  while (read < length) {
    const got = readSync(fd, buffer, read, length - read, start + read);
    if (got === 0) break;
    read += got;
  }
  return buffer.subarray(0, read);
}

function isSessionFile(value: unknown): value is SessionFile {
  if (typeof value !== 'object' || value === null) return false;
  const file = value as Partial<SessionFile>;
  return (
    file.version === VERSION &&
    typeof file.sessionId === 'string' &&
    typeof file.session === 'object' &&
    file.session !== null
  );
}

function asSnapshot(file: SessionFile): EngineSnapshot {
  return {
    version: 1,
    savedAt: file.savedAt,
    constraints: [],
    lifted: [],
    sessionId: file.sessionId,
    session: file.session,
  };
}

/** The session's run state as it is saved: its constraints in the stores' form (see `toStoredConstraint`). */
function withStoredConstraints(session: SessionSnapshot): SessionSnapshot {
  if (!session.entries.some((entry) => entry.constraint.needle !== undefined)) return session;
  return {
    ...session,
    entries: session.entries.map((entry) => ({ ...entry, constraint: toStoredConstraint(entry.constraint) })),
  };
}
