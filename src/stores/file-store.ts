/**
 * The default store: one JSON file shared by every process that learns in the same place.
 * Writes are debounced and happen off the caller's path; each one takes a cross-process lock,
 * re-reads the file and merges, so concurrent writers add up instead of overwriting each other.
 * The store remembers the file as it last read or wrote it (its stamp and contents): a file no one
 * else wrote since is not read again, and a save that adds nothing to it writes nothing, so a
 * long-lived process pays for the whole file only when something was learned or another process
 * wrote it. A process that reads, learns and writes in one go (a hook's event) takes a `turn`: the
 * read of the others' writes and the write of what it learned happen under one hold of the lock, so
 * none of two processes learning from the same constraint at once counts without the other.
 */
import { closeSync, fstatSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { PersistedState, StateStore } from '../core/types.js';
import {
  asideName,
  moveAside,
  removeAbandonedTemporaries,
  writeFileAtomic,
  writeFileAtomicSync,
} from '../node/atomic-file.js';
import { onProcessExit } from '../node/exit-hook.js';
import { stillHolds, withFileLock, withFileLockSync } from '../node/lock.js';
import {
  CREATE_NEW_FLAGS,
  openNoFollowSync,
  READ_FLAGS,
  readTextNoFollow,
  readTextNoFollowSync,
  UnsafeStateFileError,
  writeTextNoFollowSync,
} from '../node/safe-fs.js';
import { prepareStateDir } from '../node/state-dir.js';
import { LocalCopy } from './local-copy.js';
import { boundConstraints, EMPTY_STATE, mergePersistedStates, pruneLiftedMarks } from './merge.js';
import { parseStateText, type RejectedEntry } from './schema.js';
import {
  buildStateIndex,
  fileStamp,
  indexIsCurrent,
  readIndexedConstraints,
  readIndexParts,
  stateIndexPath,
} from './state-index.js';
import { layOutState } from './state-layout.js';

export type StoreProblem =
  /** The file could not be used as state; it was kept under `movedTo` and the store starts empty. */
  | { readonly kind: 'quarantined'; readonly path: string; readonly movedTo: string; readonly reason: string }
  /** The file exists but could not be read (permissions, a directory in its place); it is left alone. */
  | { readonly kind: 'unreadable'; readonly path: string; readonly reason: string }
  /** A write did not happen; the state is kept in memory and tried again. */
  | { readonly kind: 'write-failed'; readonly path: string; readonly reason: string }
  /** Some entries did not match the schema: they were kept in `movedTo`, the rest is loaded. */
  | {
      readonly kind: 'entries-set-aside';
      readonly path: string;
      readonly movedTo: string;
      readonly count: number;
      readonly reason: string;
    }
  /** A later version of narrowing wrote the file: it is left untouched and this process learns in memory only. */
  | { readonly kind: 'newer-version'; readonly path: string; readonly reason: string }
  /**
   * The file's lock was taken over by another process while this one held it (this one stood still
   * past the lock's stale time, or its lock was misjudged abandoned). Nothing was written over the
   * other's write, or what this process wrote may have raced it: what it learned is written again,
   * merged with the file as it is then.
   */
  | { readonly kind: 'lock-lost'; readonly path: string; readonly reason: string };

export interface FileStoreOptions {
  readonly path: string;
  /** Defaults to a process warning, so that no problem goes unseen. */
  readonly onProblem?: (problem: StoreProblem) => void;
  /** How long `save` waits for further changes before writing. */
  readonly debounceMs?: number;
  /** Wall-clock milliseconds; decides when lifted marks are old enough to forget. */
  readonly now?: () => number;
  /** The file keeps at most this many constraints, the most recently failed ones (the engine's default). */
  readonly maxConstraints?: number;
  /**
   * Load only the constraints these lookup keys find (see `state-index.ts`: a call's ban key, its
   * targets, its tool), through the index beside the file, when the index is current; the whole file
   * otherwise. For a process that handles one call and exits. Saving stays exact: a save that adds
   * something merges it into the whole file.
   */
  readonly select?: { readonly keys: readonly string[] };
}

export interface FileStore extends StateStore {
  readonly path: string;
  /**
   * True when the file is no longer the one this store last read or wrote: another process (a
   * `forget`, another agent's hook) replaced, changed or removed it since.
   */
  changedElsewhere(): boolean;
  /**
   * Runs `work` holding the state file's lock: what other processes wrote since this store last
   * read the file is read first and handed to the subscribers (so the engine builds on it), and what
   * the store was given by the end of `work` is written before the lock goes. Saves in between are
   * held for that write. Turns of one process run one after another. Keep the work short: the
   * other processes' writes wait for it. `keepLock`: the lock is kept after the turn for this
   * process's next turns and writes (see `withFileLock`'s `keep`).
   */
  turn<T>(work: () => Promise<T> | T, options?: { readonly keepLock?: boolean }): Promise<T>;
  /** `listener` gets what another process wrote, as a turn reads it (a partial state: only what changed). */
  subscribe(listener: (changes: PersistedState) => void): () => void;
}

type StoredRead = PersistedState | undefined | 'corrupt' | 'unreadable' | 'newer';

/** What was read under the lock, and whether it must be written back (entries were set aside). */
interface LockedRead {
  readonly state: PersistedState | undefined;
  readonly rewrite: boolean;
}

const DEFAULT_DEBOUNCE_MS = 75;
const RETRY_MS = 1_000;
/** A write whose lock was taken from it tries again at once, this many times in all. */
const LOST_LOCK_TRIES = 3;

/** Thrown under the lock when writing now could write over another process's write. */
class LockLostError extends Error {
  override readonly name = 'LockLostError';
}
const MAX_BACKLOG = 16;
const DEFAULT_MAX_CONSTRAINTS = 40_000;
/** An index is 16 bytes a key, a few keys a constraint: one larger than this is not one this store wrote. */
const MAX_INDEX_BYTES = 256 * 1024 * 1024;

export function createFileStore(options: FileStoreOptions): FileStore {
  return new FileStateStore(options);
}

class FileStateStore implements FileStore {
  readonly path: string;
  private readonly report: (problem: StoreProblem) => void;
  private readonly debounceMs: number;
  private readonly now: () => number;
  private readonly maxConstraints: number;
  /** Why the file must not be written (a later version wrote it); state then lives in memory only. */
  private frozen: string | undefined;
  private pending: PersistedState[] = [];
  /** The latest state given as a function: exported only when it is written. */
  private source: (() => PersistedState) | undefined;
  /** What the write in progress carries, so the exit handler can finish it if the process dies first. */
  private writing: PersistedState | undefined;
  /** The stamp of the file as this store last read or wrote it; another stamp is another process's write. */
  private diskStamp: string | undefined;
  /** What the file held at `diskStamp`, when it was read whole (or written) by this store. */
  private onDisk: LocalCopy | undefined;
  /** `onDisk` holds only the constraints `select` found: the file holds more. */
  private partial = false;
  private readonly select: { readonly keys: readonly string[] } | undefined;
  private readonly indexPath: string;
  private timer: NodeJS.Timeout | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  /** Set while a turn holds the lock: writes then queue here and take no lock of their own. */
  private inTurn: { queue: Promise<unknown> } | undefined;
  private readonly listeners = new Set<(changes: PersistedState) => void>();
  private closed = false;
  private readonly stopExitHook: () => void;

  constructor(options: FileStoreOptions) {
    this.path = options.path;
    this.report = options.onProblem ?? warn;
    this.debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
    this.now = options.now ?? Date.now;
    this.maxConstraints = options.maxConstraints ?? DEFAULT_MAX_CONSTRAINTS;
    this.select = options.select;
    this.indexPath = stateIndexPath(options.path);
    this.stopExitHook = onProcessExit(() => this.writeAtExit());
  }

  load(): PersistedState | undefined {
    if (this.select !== undefined) {
      const selected = this.loadSelected(this.select.keys);
      if (selected !== undefined) return selected;
    }
    removeAbandonedTemporaries(this.path);
    removeAbandonedTemporaries(this.indexPath);
    // Taken before the read: a write landing in between makes the stamp stale, never the contents.
    let stamp = fileStamp(this.path);
    let stored = this.readSync();
    if (typeof stored === 'object' && (this.olderVersionRead || !this.indexCurrent(stamp))) {
      // Written in an older state format, or without an index of this file (another build, a
      // write cut short): written anew on first open, under the lock.
      try {
        stored = withFileLockSync(this.path, () => {
          stamp = fileStamp(this.path);
          const read = this.readSync({ quarantine: true });
          if (typeof read === 'object' && (this.olderVersionRead || !this.indexCurrent(stamp))) {
            stamp = writeStateSync(this.path, this.indexPath, read);
          }
          return read;
        }).value;
      } catch (error) {
        // Read, and migrated in memory: the file is written in the new format on the next save.
        // (An index alone is a cache: without it, the next process reads the file whole too.)
        if (this.olderVersionRead)
          this.report({ kind: 'write-failed', path: this.path, reason: (error as Error).message });
      }
    }
    if (stored === 'corrupt') {
      // Only the holder of the lock may move the file (or entries) aside: another process may be
      // replacing it. Entries set aside are then written out of the file at once.
      stored = withFileLockSync(this.path, () => {
        const setAsideBefore = this.setAside;
        stamp = fileStamp(this.path);
        const read = this.readSync({ quarantine: true });
        if (this.setAside !== setAsideBefore && typeof read === 'object') {
          writeStateSync(this.path, this.indexPath, read);
        }
        stamp = fileStamp(this.path);
        return read;
      }).value;
    }
    this.remember(stamp, typeof stored === 'object' || stored === undefined ? stored : 'unknown');
    return this.withUnsaved(typeof stored === 'object' ? stored : undefined);
  }

  /** `stored` with what this store holds and has not written yet. */
  private withUnsaved(stored: PersistedState | undefined): PersistedState | undefined {
    this.drainSource();
    const unsaved = this.writing === undefined ? this.pending : [this.writing, ...this.pending];
    const parts = stored !== undefined ? [stored, ...unsaved] : unsaved;
    if (parts.length === 0) return undefined;
    return parts.length === 1 ? parts[0] : parts.reduce(mergePersistedStates, EMPTY_STATE);
  }

  /**
   * The constraints `keys` find, read through the index; undefined when the index is missing or
   * not of this file (the caller reads the whole file, which writes the index anew).
   */
  private loadSelected(keys: readonly string[]): PersistedState | undefined {
    const read = readIndexedConstraints(this.path, readIndex(this.indexPath, keys), keys);
    if (read === undefined) return undefined;
    this.remember(read.stamp, read.state);
    // Only what was selected is known of the file: a save that adds anything reads it whole.
    this.partial = read.state !== undefined;
    return this.withUnsaved(read.state);
  }

  private indexCurrent(stamp: string): boolean {
    return indexIsCurrent(readIndex(this.indexPath, []), stamp);
  }

  save(state: PersistedState | (() => PersistedState)): void {
    if (this.closed) throw new Error(`The state store for ${this.path} is closed; open a new one to save.`);
    if (typeof state === 'function') {
      this.source = state;
      this.schedule(this.debounceMs);
      return;
    }
    this.pending.push(state);
    if (this.pending.length >= MAX_BACKLOG) this.pending = [this.pendingState()!];
    this.schedule(this.debounceMs);
  }

  /** Resolves to the state now on file when this flush wrote it or found another process's write, else undefined. */
  async flush(): Promise<PersistedState | undefined> {
    this.cancelTimer();
    this.drainSource();
    return this.enqueueWrite();
  }

  changedElsewhere(): boolean {
    return this.diskStamp === undefined || fileStamp(this.path) !== this.diskStamp;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.cancelTimer();
    // If this fails the exit hook stays, and tries once more before the process ends.
    await this.enqueueWrite();
    this.stopExitHook();
  }

  private schedule(delay: number): void {
    // A turn writes what it was given before it ends.
    if (this.timer !== undefined || this.inTurn !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.enqueueWrite().catch(() => undefined);
    }, delay);
    this.timer.unref();
  }

  private cancelTimer(): void {
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  subscribe(listener: (changes: PersistedState) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  turn<T>(work: () => Promise<T> | T, options: { readonly keepLock?: boolean } = {}): Promise<T> {
    if (this.closed) throw new Error(`The state store for ${this.path} is closed; open a new one to save.`);
    this.cancelTimer();
    const run = this.queue.then(async () => {
      // A later version owns the file: nothing is read or written, the work runs on what is in memory.
      if (this.frozen !== undefined) return work();
      prepareStateDir(dirname(this.path));
      return withFileLock(
        this.path,
        async () => {
          const turn = { queue: Promise.resolve() as Promise<unknown> };
          this.inTurn = turn;
          try {
            await this.readOthersWrites();
            const result = await work();
            // Reported by the write and kept to be tried again: the work's result stands.
            await this.enqueueWrite().catch(() => undefined);
            for (let settled = turn.queue; ; settled = turn.queue) {
              await settled;
              if (settled === turn.queue) break;
            }
            return result;
          } finally {
            this.inTurn = undefined;
            if (this.pending.length > 0 || this.source !== undefined) this.schedule(this.debounceMs);
          }
        },
        (error) => {
          this.lockLost(error.message);
          if (!this.closed) this.schedule(this.debounceMs);
        },
        { keep: options.keepLock === true },
      );
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Under the lock, at a turn's start: reads what another process wrote since this store last read
   * or wrote the file (only the constraints `select` finds, when it is set and the index is current)
   * and hands what is new to the subscribers.
   */
  private async readOthersWrites(): Promise<void> {
    const stamp = fileStamp(this.path);
    if (stamp === this.diskStamp) return;
    let state: PersistedState | undefined;
    let partial = false;
    const selected =
      this.select === undefined
        ? undefined
        : readIndexedConstraints(this.path, readIndex(this.indexPath, this.select.keys), this.select.keys);
    if (selected !== undefined) {
      state = selected.state;
      partial = selected.state !== undefined;
    } else {
      let stored: Awaited<ReturnType<FileStateStore['readAsync']>>;
      try {
        stored = await this.readAsync();
      } catch (error) {
        // Left as it is; the turn's write reports it too, and what is learned is kept to be tried again.
        this.report({ kind: 'unreadable', path: this.path, reason: (error as Error).message });
        this.remember(stamp, 'unknown');
        return;
      }
      if (stored === 'newer') return;
      state = stored.state;
      if (stored.rewrite && state !== undefined) {
        // Entries were set aside, or the format is older: the file is written without them now.
        const copy = new LocalCopy();
        copy.absorb(state);
        await this.writeMerged(copy);
        this.tell(state);
        return;
      }
    }
    if (state === undefined) {
      // Removed (or moved aside): nothing to tell, and nothing of the old file is kept as its contents.
      this.remember(selected?.stamp ?? stamp, undefined);
      return;
    }
    const known = this.onDisk ?? new LocalCopy();
    const changes = known.absorb(state);
    this.remember(selected?.stamp ?? stamp, known);
    // Only what was selected is known of the file: a write reads the rest first.
    this.partial = partial;
    if (changes !== undefined) this.tell(changes);
  }

  private tell(changes: PersistedState): void {
    for (const listener of this.listeners) listener(changes);
  }

  private enqueueWrite(): Promise<PersistedState | undefined> {
    const turn = this.inTurn;
    if (turn !== undefined) {
      // The turn holds the lock; its writes take their turns behind it.
      const run = turn.queue.then(() => this.writeNow(true));
      turn.queue = run.catch(() => undefined);
      return run;
    }
    const run = this.queue.then(() => this.writeNow(false));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async writeNow(lockHeld: boolean): Promise<PersistedState | undefined> {
    this.drainSource();
    const saved = this.pendingState();
    if (saved === undefined || this.frozen !== undefined) return undefined;
    let state: PersistedState = saved;
    if (
      state.constraints.length === 0 &&
      state.lifted.length === 0 &&
      this.onDisk !== undefined &&
      fileStamp(this.path) === this.diskStamp
    ) {
      // Nothing to add to a file still as this store left it: no lock, no write.
      this.pending = [];
      return undefined;
    }
    this.pending = [];
    this.writing = state;
    try {
      prepareStateDir(dirname(this.path));
      for (let tries = 1; ; tries++) {
        let lost: string | undefined;
        let merged: PersistedState | 'unchanged' | undefined;
        try {
          merged = lockHeld
            ? await this.writeUnderLock(state)
            : await withFileLock(
                this.path,
                () => this.writeUnderLock(state),
                (error) => {
                  lost = error.message;
                },
              );
        } catch (error) {
          if (!(error instanceof LockLostError)) throw error;
          lost = error.message;
        }
        if (lost !== undefined) {
          // What this store wrote before may have been written over too: it is written again.
          this.lockLost(lost);
          this.pending.unshift(state);
          state = this.pendingState() ?? state;
          this.pending = [];
          this.writing = state;
          // Inside a turn, the turn's lock is the one lost: the write is tried once the turn ends.
          if (lockHeld || tries >= LOST_LOCK_TRIES) throw new LockLostError(lost);
          continue;
        }
        if (merged === 'unchanged') return undefined;
        if (merged === undefined) {
          // A later version owns the file: what was learned stays in memory, and is not lost yet.
          this.pending.unshift(state);
          return undefined;
        }
        return merged;
      }
    } catch (error) {
      this.pending.unshift(state);
      if (!(error instanceof LockLostError))
        this.report({ kind: 'write-failed', path: this.path, reason: (error as Error).message });
      if (!this.closed) this.schedule(RETRY_MS);
      throw error;
    } finally {
      this.writing = undefined;
    }
  }

  /**
   * Under the lock: what `state` adds, merged into the file as it is now. Checks, just before it
   * writes, that the lock is still this process's and that no other process wrote the file since it
   * was read: otherwise the write would lose what the other wrote (`LockLostError`).
   */
  private async writeUnderLock(state: PersistedState): Promise<PersistedState | 'unchanged' | undefined> {
    const stamp = fileStamp(this.path);
    const known = stamp === this.diskStamp ? this.onDisk : undefined;
    if (known !== undefined) {
      // The file is as this store left it: only what the save adds needs writing.
      if (known.absorb(state) === undefined) return 'unchanged';
      // Known in part (see `select`): the rest of the file is read before it is rewritten.
      if (!this.partial) {
        this.confirmHold(stamp);
        return this.writeMerged(known);
      }
    }
    const movedAsideBefore = this.movedAside;
    const stored = await this.readAsync();
    if (stored === 'newer') return undefined;
    const copy = new LocalCopy();
    if (stored.state !== undefined) copy.absorb(stored.state);
    const added = copy.absorb(state);
    if (added === undefined && !stored.rewrite && stored.state !== undefined) {
      // Another process's write already holds everything this save carries.
      this.remember(stamp, copy);
      return stored.state;
    }
    // A file moved aside by this read has no stamp left to compare.
    this.confirmHold(this.movedAside === movedAsideBefore ? stamp : undefined);
    return this.writeMerged(copy);
  }

  /** Throws `LockLostError` when the lock is no longer this process's, or the file changed since `stamp`. */
  private confirmHold(stamp: string | undefined): void {
    if (!stillHolds(this.path))
      throw new LockLostError(`its lock ${this.path}.lock was taken over by another process`);
    if (stamp !== undefined && fileStamp(this.path) !== stamp)
      throw new LockLostError('another process wrote it while this one held its lock');
  }

  /**
   * Reports a lock taken from this process while it held it, and keeps what this store last wrote
   * or read to be written again (another holder may have written over it), merged into the file as
   * the next write reads it whole.
   */
  private lockLost(reason: string): void {
    this.report({ kind: 'lock-lost', path: this.path, reason });
    const known = this.onDisk;
    this.diskStamp = undefined;
    this.onDisk = undefined;
    if (known !== undefined) this.pending.push(known.state());
  }

  /** Writes what `copy` holds (pruned and bounded) under the lock the caller holds; remembers it as the file's. */
  private async writeMerged(copy: LocalCopy): Promise<PersistedState> {
    this.onDisk = undefined;
    const state = copy.state();
    const merged = this.combine(undefined, state);
    const stamp = await writeState(this.path, this.indexPath, merged);
    const trimmed =
      merged.constraints.length !== state.constraints.length || merged.lifted.length !== state.lifted.length;
    this.remember(stamp, trimmed ? merged : copy);
    return merged;
  }

  private remember(stamp: string, contents: PersistedState | LocalCopy | undefined | 'unknown'): void {
    this.diskStamp = stamp;
    this.partial = false;
    if (contents === 'unknown') this.onDisk = undefined;
    else if (contents instanceof LocalCopy) this.onDisk = contents;
    else {
      this.onDisk = new LocalCopy();
      if (contents !== undefined) this.onDisk.absorb(contents);
    }
  }

  /** The last chance to save: sync I/O only, under the lock when it can be had. */
  private writeAtExit(): void {
    if (this.frozen !== undefined) return;
    this.drainSource();
    const parts = this.writing === undefined ? this.pending : [this.writing, ...this.pending];
    if (parts.length === 0) return;
    const state = parts.reduce(mergePersistedStates, EMPTY_STATE);
    try {
      prepareStateDir(dirname(this.path));
      withFileLockSync(this.path, () => {
        const stored = this.readSync({ quarantine: true });
        // Already reported; a file that cannot be read is never overwritten.
        if (typeof stored !== 'object' && stored !== undefined) return;
        writeStateSync(this.path, this.indexPath, this.combine(stored, state));
      });
      this.pending = [];
    } catch (error) {
      this.report({ kind: 'write-failed', path: this.path, reason: (error as Error).message });
    }
  }

  private combine(stored: PersistedState | undefined, state: PersistedState): PersistedState {
    const merged = pruneLiftedMarks(mergePersistedStates(stored ?? EMPTY_STATE, state), this.now());
    return boundConstraints(merged, this.maxConstraints);
  }

  private drainSource(): void {
    const source = this.source;
    if (source === undefined) return;
    this.source = undefined;
    this.pending.push(source());
  }

  private pendingState(): PersistedState | undefined {
    if (this.pending.length === 0) return undefined;
    if (this.pending.length === 1) return this.pending[0];
    return this.pending.reduce(mergePersistedStates, EMPTY_STATE);
  }

  /**
   * Reads the file: `undefined` when there is none (or it was just moved aside), `'corrupt'` when it
   * must be moved aside first (only done under the lock), `'unreadable'` when it cannot be read.
   */
  private readSync({ quarantine = false } = {}): StoredRead {
    let text: string;
    try {
      text = readTextNoFollowSync(this.path);
    } catch (error) {
      return this.readFailed(error);
    }
    return this.accept(text, quarantine);
  }

  /** Under the lock only. Throws when the file exists but cannot be read, so it is not overwritten. */
  private async readAsync(): Promise<LockedRead | 'newer'> {
    let text: string;
    try {
      text = await readTextNoFollow(this.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: undefined, rewrite: false };
      if (error instanceof UnsafeStateFileError && error.found === 'a symbolic link') throw error;
      throw new Error(
        `${this.path} exists but cannot be read (${(error as Error).message}); it was left as it is`,
      );
    }
    const setAsideBefore = this.setAside;
    const stored = this.accept(text, true);
    if (stored === 'newer') return 'newer';
    return {
      state: stored === 'corrupt' ? undefined : stored,
      rewrite: this.setAside !== setAsideBefore || this.olderVersionRead,
    };
  }

  private readFailed(error: unknown): undefined | 'unreadable' {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (error instanceof UnsafeStateFileError) {
      this.report({ kind: 'unreadable', path: this.path, reason: error.message });
      return 'unreadable';
    }
    this.report({
      kind: 'unreadable',
      path: this.path,
      reason: `${(error as Error).message}. Fix its permissions or move it away; it will not be overwritten.`,
    });
    return 'unreadable';
  }

  /** How many times entries were set aside: a read that sets some aside must be followed by a write. */
  private setAside = 0;

  /** How many times the file was moved aside as unusable. */
  private movedAside = 0;

  /** Whether the last file read was written in an older state format (see `state-format.ts`). */
  private olderVersionRead = false;

  private accept(text: string, quarantine: boolean): PersistedState | undefined | 'corrupt' | 'newer' {
    const parsed = parseStateText(text);
    this.olderVersionRead = parsed.ok && parsed.olderVersion !== undefined;
    if (parsed.ok) {
      if (parsed.rejected.length > 0) {
        if (!quarantine) return 'corrupt';
        this.setEntriesAside(parsed.rejected);
      }
      return parsed.state;
    }
    if (parsed.newer) {
      if (this.frozen === undefined) {
        this.frozen = parsed.reason;
        this.report({ kind: 'newer-version', path: this.path, reason: parsed.reason });
      }
      return 'newer';
    }
    if (!quarantine) return 'corrupt';
    const movedTo = moveAside(this.path, 'corrupt');
    this.movedAside += 1;
    this.report({ kind: 'quarantined', path: this.path, movedTo, reason: parsed.reason });
    return undefined;
  }

  /** Keeps entries that do not match the schema next to the file, before it is written without them. */
  private setEntriesAside(rejected: readonly RejectedEntry[]): void {
    const movedTo = asideName(this.path, 'rejected');
    writeTextNoFollowSync(movedTo, `${JSON.stringify(rejected, null, 2)}\n`, CREATE_NEW_FLAGS);
    this.setAside += 1;
    const reasons = rejected.map((entry) => `${entry.list}[${entry.index}]: ${entry.reason}`).join('\n');
    this.report({
      kind: 'entries-set-aside',
      path: this.path,
      movedTo,
      count: rejected.length,
      reason: reasons,
    });
  }
}

/**
 * Writes the state file, then its index (see `state-index.ts`), under the lock the caller holds;
 * returns the file's stamp. An index that cannot be written is only a cache: readers find it stale
 * and read the file whole.
 */
async function writeState(path: string, indexPath: string, state: PersistedState): Promise<string> {
  const laidOut = layOutState(state);
  await writeFileAtomic(path, laidOut.text);
  const stamp = fileStamp(path);
  const index = buildStateIndex(laidOut, stamp, state.savedAt);
  if (index !== undefined) writeIndex(indexPath, index);
  return stamp;
}

function writeStateSync(path: string, indexPath: string, state: PersistedState): string {
  const laidOut = layOutState(state);
  writeFileAtomicSync(path, laidOut.text);
  const stamp = fileStamp(path);
  const index = buildStateIndex(laidOut, stamp, state.savedAt);
  if (index !== undefined) writeIndex(indexPath, index);
  return stamp;
}

/**
 * Replaces the index by rename, never through a link. Not synced to disk: it is a cache, and one
 * lost in a crash is stale, which readers see (they read the state file whole, and write it anew).
 */
function writeIndex(indexPath: string, index: Uint8Array): void {
  indexWrites += 1;
  const temporary = `${indexPath}.${process.pid}.${indexWrites}.tmp`;
  try {
    writeTextNoFollowSync(temporary, index, CREATE_NEW_FLAGS);
    renameSync(temporary, indexPath);
  } catch {
    rmSync(temporary, { force: true });
  }
}

let indexWrites = 0;

/**
 * What of the index file finding `keys` reads (see `readIndexParts`), or undefined (absent, a link,
 * not a regular file, too large).
 */
function readIndex(indexPath: string, keys: readonly string[]): Uint8Array | undefined {
  try {
    const fd = openNoFollowSync(indexPath, READ_FLAGS);
    try {
      const { size } = fstatSync(fd);
      if (size > MAX_INDEX_BYTES) return undefined;
      return readIndexParts(fd, size, keys);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

function warn(problem: StoreProblem): void {
  process.emitWarning(describeStoreProblem(problem), 'NarrowingWarning');
}

export function describeStoreProblem(problem: StoreProblem): string {
  switch (problem.kind) {
    case 'quarantined':
      return (
        `The state file ${problem.path} could not be used because ${problem.reason}. It was moved to ` +
        `${problem.movedTo} and learning continues from an empty state; restore it by hand if it matters.`
      );
    case 'unreadable':
      return `The state file ${problem.path} cannot be read: ${problem.reason}`;
    case 'write-failed':
      return `Saving the state file ${problem.path} failed: ${problem.reason}. It will be tried again.`;
    case 'entries-set-aside':
      return (
        `${problem.count} entr${problem.count === 1 ? 'y' : 'ies'} of the state file ${problem.path} did not ` +
        `match the state schema and were moved to ${problem.movedTo}; everything else was kept.\n${problem.reason}`
      );
    case 'lock-lost':
      return (
        `The lock of the state file ${problem.path} was taken by another process while this one held it ` +
        `(${problem.reason}). Nothing was written over the other process's write; what this process ` +
        'learned is written again, merged with the file.'
      );
    case 'newer-version':
      return (
        `The state file ${problem.path} was written by a later version of narrowing (${problem.reason}). ` +
        'It is left untouched: this process learns in memory only and saves nothing. Upgrade narrowing ' +
        'to share what was learned.'
      );
  }
}
