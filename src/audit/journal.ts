/**
 * The journal: every event the engine emits, one JSON line each, append-only, optionally chained
 * into receipts. `record` only queues the event and hands out its sequence number; turning events
 * into lines, hashing and writing happen in batches off the caller's path.
 */
import { closeSync, existsSync, fsyncSync, writeFileSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { AuditSink, Mutable } from '../core/types.js';
import { writeFileAtomic, writeFileAtomicSync } from '../node/atomic-file.js';
import { onProcessExit } from '../node/exit-hook.js';
import {
  APPEND_FLAGS,
  openNoFollow,
  openNoFollowSync,
  refuseLink,
  UnsafeStateFileError,
  writeAllSync,
} from '../node/safe-fs.js';
import { prepareStateDir } from '../node/state-dir.js';
import {
  type ContentPolicy,
  GENESIS_HASH,
  hmacSha256Hex,
  type JournalRecord,
  type SealedLine,
  sealLine,
  storedFields,
  type UnsealedEntry,
} from './entry.js';
import { headMacText, headText, journalHeadPath, readHead } from './head.js';
import { resolveJournalKey } from './key.js';
import { repairTail, type TailRepair } from './tail.js';
import { type JournalVerification, verifyJournal } from './verify.js';
import { claimWriter } from './writer.js';

export type JournalProblem =
  /** A last line cut off mid-write (a crash); its bytes were kept in `movedTo`. */
  | { readonly kind: 'torn-line'; readonly path: string; readonly movedTo: string; readonly bytes: number }
  /** Complete lines at the end that are not entries; numbering continues after the last good one. */
  | { readonly kind: 'unreadable-entries'; readonly path: string; readonly lines: number }
  /** The head records more receipts than the journal holds; numbering continues after the head's count. */
  | {
      readonly kind: 'truncated';
      readonly path: string;
      readonly headCount: number;
      readonly lastSeq: number;
    }
  /** Lines could not be written; they stay queued and are tried again. */
  | { readonly kind: 'write-failed'; readonly path: string; readonly reason: string };

export interface JournalOptions {
  readonly path: string;
  /** Chain entries into verifiable receipts. Default true. */
  readonly receipts?: boolean;
  readonly content?: ContentPolicy;
  readonly flushIntervalMs?: number;
  /**
   * The durability window: writes reach the operating system every `flushIntervalMs`, but the
   * journal is synced to disk and its head file rewritten at most once per this many milliseconds
   * (group commit), and always on `flush()`, `close()` and at exit. Default 1000.
   */
  readonly syncIntervalMs?: number;
  /**
   * Whether `flush()` also syncs and rewrites the head (default true). False: `flush()` hands the
   * lines to the operating system (a process killed right after has lost none) and leaves the sync
   * and the head to the durability window; `close()` and the exit still do both. For a long-lived
   * process that flushes on every event (the hook helper).
   */
  readonly syncOnFlush?: boolean;
  /** Events queued before a write is started without waiting for the interval. */
  readonly maxBatch?: number;
  /** Stamped on entries until a `session` event names another. */
  readonly sessionId?: string;
  /** Defaults to `journal.head.json` next to a `journal.jsonl`. */
  readonly headPath?: string;
  /** Defaults to a process warning. */
  readonly onProblem?: (problem: JournalProblem) => void;
  /**
   * Chains receipts with HMAC-SHA256 under this key (see `resolveJournalKey`), so that a rewrite
   * without the key fails `verify`. Defaults to the user's key, if there is one; `false` for none.
   */
  readonly key?: string | false;
}

export interface Journal extends AuditSink {
  readonly path: string;
  readonly headPath: string;
  /** Queues the event; returns its sequence number. Never waits on disk. */
  record(event: JournalRecord): number;
  /** Hashes the queue up to `sequence` if needed. Undefined with receipts off or for old receipts. */
  receiptHash(sequence: number): string | undefined;
  /** Verifies what has reached the disk; `flush()` first to include everything recorded. */
  verify(): JournalVerification;
  /**
   * Writes what is recorded now, synchronously, for a caller that must read the journal back before
   * it can wait. `false` when that cannot be done safely: a batch is being written (await `flush()`),
   * or the journal is `detached`.
   */
  flushSync(): boolean;
  /**
   * The file this journal continued or wrote has been removed (with its folder, say): what it still
   * holds would start a new file in the middle of a chain.
   */
  readonly detached: boolean;
  /**
   * Stops writing without writing what is pending, and releases the journal to another writer; for
   * a detached journal, whose file is gone.
   */
  abandon(): void;
  flush(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens (or creates) a journal for writing. Throws `JournalInUseError` when another live process
 * is writing the same file.
 */
export function createJournal(options: JournalOptions): Journal {
  return new FileJournal(options);
}

/** How many recent receipt hashes `receiptHash` can still answer for. */
const RECENT_HASHES = 4_096;
const DEFAULT_FLUSH_INTERVAL_MS = 50;
const DEFAULT_SYNC_INTERVAL_MS = 1_000;
const DEFAULT_MAX_BATCH = 512;
/**
 * Events turned into lines and hashed in one go when a batch is due; the rest wait for the next turn
 * of the event loop. Sealing a whole batch at once held up every message that arrived meanwhile
 * (50 ms of a busy proxy's calls took milliseconds to hash), and that made its slowest calls slow.
 */
const SEAL_SLICE = 32;

class FileJournal implements Journal {
  readonly path: string;
  readonly headPath: string;
  private readonly receipts: boolean;
  private readonly key: string | undefined;
  private readonly content: ContentPolicy;
  private readonly flushIntervalMs: number;
  private readonly syncIntervalMs: number;
  private readonly syncOnFlush: boolean;
  private readonly maxBatch: number;
  private readonly report: (problem: JournalProblem) => void;

  private queued: JournalRecord[] = [];
  private lastRecorded: number;
  private lastSealed: number;
  private prevHash: string;
  private sessionId: string | undefined;
  private readonly recentHashes: (string | undefined)[] = new Array(RECENT_HASHES);
  /** Receipts before this one were written by an earlier writer; their hashes are not at hand. */
  private readonly firstKnown: number;

  private sealed: SealedLine[] = [];
  private inFlight: SealedLine[] = [];
  private written: { seq: number; hash: string | undefined };
  private handle: FileHandle | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  /** Written entries not yet synced to disk nor recorded in the head file. */
  private unsynced = false;
  private lastSyncAt = Number.NEGATIVE_INFINITY;
  private syncTimer: NodeJS.Timeout | undefined;
  private needsRepair = false;
  private failing = false;
  /** Given up by `abandon()`: nothing more reaches the disk, not even the head. */
  private abandoned = false;
  private closing: Promise<void> | undefined;
  private readonly releaseWriter: () => void;
  private readonly stopExitHook: () => void;

  constructor(options: JournalOptions) {
    this.path = options.path;
    this.headPath = options.headPath ?? journalHeadPath(options.path);
    this.receipts = options.receipts ?? true;
    this.key = options.key === false ? undefined : (options.key ?? resolveJournalKey());
    this.content = options.content ?? 'digest';
    this.flushIntervalMs = options.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS;
    this.syncIntervalMs = Math.max(0, options.syncIntervalMs ?? DEFAULT_SYNC_INTERVAL_MS);
    this.syncOnFlush = options.syncOnFlush ?? true;
    this.maxBatch = Math.max(1, options.maxBatch ?? DEFAULT_MAX_BATCH);
    this.report = options.onProblem ?? warn;
    this.sessionId = options.sessionId;

    this.releaseWriter = claimWriter(this.path);
    let end: { seq: number; hash: string | undefined };
    try {
      refuseLink(this.path);
      refuseLink(this.headPath);
      end = this.openEnd();
    } catch (error) {
      this.releaseWriter();
      if (error instanceof UnsafeStateFileError) throw error;
      throw new Error(`The journal ${this.path} cannot be opened: ${(error as Error).message}`);
    }
    this.lastRecorded = end.seq;
    this.lastSealed = end.seq;
    this.firstKnown = end.seq;
    this.prevHash = end.hash ?? GENESIS_HASH;
    this.recentHashes[end.seq % RECENT_HASHES] = end.hash;
    this.written = end;
    this.stopExitHook = onProcessExit(() => this.flushAtExit());
  }

  record(event: JournalRecord): number {
    if (this.closing !== undefined) {
      throw new Error(`The journal ${this.path} is closed; events recorded now would be lost.`);
    }
    this.queued.push(event);
    this.lastRecorded += 1;
    if (this.queued.length >= this.maxBatch) {
      if (this.immediate === undefined) {
        this.immediate = setImmediate(this.onTimer);
        this.immediate.unref();
      }
    } else if (this.timer === undefined) {
      this.timer = setTimeout(this.onTimer, this.flushIntervalMs);
      this.timer.unref();
    }
    return this.lastRecorded;
  }

  receiptHash(sequence: number): string | undefined {
    if (!this.receipts || sequence < this.firstKnown || sequence > this.lastRecorded) return undefined;
    this.sealUpTo(sequence);
    if (this.lastSealed - sequence >= RECENT_HASHES) return undefined;
    return this.recentHashes[sequence % RECENT_HASHES];
  }

  verify(): JournalVerification {
    return verifyJournal(this.path, { headPath: this.headPath, live: true, key: this.key ?? false });
  }

  flushSync(): boolean {
    if (this.closing !== undefined || this.inFlight.length > 0 || this.needsRepair || this.detached)
      return false;
    this.sealUpTo(this.lastRecorded);
    const lines = this.sealed;
    if (lines.length > 0) {
      try {
        prepareStateDir(dirname(this.path));
        appendSync(this.path, lineBytes(lines));
      } catch (error) {
        // Part of the lines may have landed: the next write looks before it appends.
        this.needsRepair = true;
        this.reportWriteFailure(error);
        return false;
      }
      this.sealed = [];
      const last = lines.at(-1)!;
      this.written = { seq: last.seq, hash: last.hash };
    } else if (!this.unsynced) {
      return true;
    }
    try {
      // The lines are on disk; the head that vouches for them follows.
      if (this.handle !== undefined) fsyncSync(this.handle.fd);
      writeFileAtomicSync(this.headPath, headText(this.headNow()));
      this.unsynced = false;
    } catch (error) {
      this.unsynced = true;
      this.reportWriteFailure(error);
    }
    return true;
  }

  get detached(): boolean {
    return this.written.seq > 0 && !existsSync(this.path);
  }

  abandon(): void {
    if (this.closing !== undefined) return;
    this.closing = Promise.resolve();
    this.abandoned = true;
    this.cancelTimers();
    this.queued = [];
    this.sealed = [];
    void this.handle?.close().catch(() => undefined);
    this.handle = undefined;
    this.stopExitHook();
    this.releaseWriter();
  }

  async flush(): Promise<void> {
    await this.writeAll(this.syncOnFlush ? true : 'deferred');
  }

  private async writeAll(durable: boolean | 'deferred'): Promise<void> {
    this.cancelTimers();
    this.sealUpTo(this.lastRecorded);
    await this.enqueueWrite(durable);
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    try {
      await this.writeAll(true);
    } finally {
      await this.handle?.close().catch(() => undefined);
      this.handle = undefined;
    }
    // Only once everything is on disk: otherwise the exit handler still has work to do.
    this.stopExitHook();
    this.releaseWriter();
  }

  /** Where numbering and the chain continue, after repairing what a crash may have left. */
  private openEnd(): { seq: number; hash: string | undefined } {
    const { tail, repairs } = repairTail(this.path);
    for (const repair of repairs) this.report(this.problemFrom(repair));
    const head = readHead(this.headPath);
    if (head.state === 'ok' && head.head.count > tail.lastSeq) {
      // Continuing after the head's count keeps the gap visible to `verify`, instead of papering it over.
      this.report({ kind: 'truncated', path: this.path, headCount: head.head.count, lastSeq: tail.lastSeq });
      return { seq: head.head.count, hash: head.head.lastHash ?? tail.lastHash };
    }
    return { seq: tail.lastSeq, hash: tail.lastHash };
  }

  private readonly onTimer = (): void => {
    this.cancelTimers();
    this.sealUpTo(Math.min(this.lastRecorded, this.lastSealed + SEAL_SLICE));
    if (this.lastSealed < this.lastRecorded) {
      // The batch is written once it is all sealed, a slice a turn, whatever arrives in between.
      this.immediate = setImmediate(this.onTimer);
      this.immediate.unref();
      return;
    }
    this.enqueueWrite().catch(() => undefined);
  };

  private cancelTimers(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (this.immediate !== undefined) clearImmediate(this.immediate);
    if (this.syncTimer !== undefined) clearTimeout(this.syncTimer);
    this.timer = undefined;
    this.immediate = undefined;
    this.syncTimer = undefined;
  }

  private sealUpTo(sequence: number): void {
    const count = sequence - this.lastSealed;
    if (count <= 0) return;
    const events = count >= this.queued.length ? this.queued : this.queued.slice(0, count);
    this.queued = count >= this.queued.length ? [] : this.queued.slice(count);
    for (const event of events) {
      const seq = this.lastSealed + 1;
      const line = sealLine(this.entryFor(event, seq), this.key);
      this.sealed.push(line);
      this.lastSealed = seq;
      if (line.hash !== undefined) {
        this.prevHash = line.hash;
        this.recentHashes[seq % RECENT_HASHES] = line.hash;
      }
    }
  }

  private entryFor(event: JournalRecord, seq: number): UnsealedEntry {
    let fields: ReturnType<typeof storedFields>;
    try {
      if (event.type === 'session') this.sessionId = event.sessionId;
      fields = storedFields(event, this.content);
    } catch (error) {
      // A hostile object (a proxy that throws) must not cost the journal its other entries.
      fields = { type: 'unrecordable', at: Date.now(), error: (error as Error)?.message ?? String(error) };
    }
    // The fields are this entry's own copy: completed in place rather than copied once more.
    const entry = fields as Mutable<UnsealedEntry>;
    entry.seq = seq;
    if (this.sessionId !== undefined) entry.sessionId = this.sessionId;
    if (this.receipts) entry.prev = this.prevHash;
    return entry;
  }

  /**
   * `durable`: sync to disk and rewrite the head now, whatever the durability window. `deferred`: never
   * now, by the window's timer only (a flush that leaves the sync to the window).
   */
  private enqueueWrite(durable: boolean | 'deferred' = false): Promise<void> {
    const run = this.queue.then(() => this.writeSealed(durable));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async writeSealed(durable: boolean | 'deferred'): Promise<void> {
    await this.appendSealed();
    if (!this.unsynced) return;
    const due = this.lastSyncAt + this.syncIntervalMs - Date.now();
    // A journal's first sync is never put off: until then it has no head that vouches for its lines.
    const first = this.lastSyncAt === Number.NEGATIVE_INFINITY;
    if (durable === true || first || (due <= 0 && durable === false)) await this.sync();
    else if (this.syncTimer === undefined) {
      // Like the write timer, it does not hold the process open: at exit the journal syncs anyway.
      this.syncTimer = setTimeout(this.onSyncTimer, Math.max(0, due));
      this.syncTimer.unref();
    }
  }

  private readonly onSyncTimer = (): void => {
    this.syncTimer = undefined;
    this.enqueueWrite(true).catch(() => undefined);
  };

  /** Group commit: one sync and one head rewrite for every write since the last. */
  private async sync(): Promise<void> {
    if (this.syncTimer !== undefined) clearTimeout(this.syncTimer);
    this.syncTimer = undefined;
    if (this.abandoned) return;
    this.lastSyncAt = Date.now();
    try {
      await this.handle?.datasync();
      this.unsynced = false;
      await writeFileAtomic(this.headPath, headText(this.headNow()));
    } catch (error) {
      this.reportWriteFailure(error);
    }
  }

  private async appendSealed(): Promise<void> {
    if (this.sealed.length === 0) return;
    let batch = this.sealed;
    this.sealed = [];
    this.inFlight = batch;
    try {
      if (this.needsRepair) batch = this.afterRepair(batch);
      if (batch.length > 0) {
        if (this.handle === undefined) {
          prepareStateDir(dirname(this.path));
          this.handle = await openNoFollow(this.path, APPEND_FLAGS);
        }
        // Written from this thread: lines to the page cache take microseconds, and a round trip
        // through the thread pool (what an async write costs) is what a busy machine makes slow,
        // before the hook helper's answer that waits for them.
        writeAllSync(this.handle.fd, lineBytes(batch));
      }
    } catch (error) {
      this.sealed = [...batch, ...this.sealed];
      this.needsRepair = true;
      await this.handle?.close().catch(() => undefined);
      this.handle = undefined;
      this.reportWriteFailure(error);
      throw error;
    } finally {
      this.inFlight = [];
    }
    this.failing = false;
    const last = batch.at(-1);
    if (last === undefined) return;
    this.written = { seq: last.seq, hash: last.hash };
    this.unsynced = true;
  }

  /** After a failed write, part of the batch may be on disk already, maybe with a torn last line. */
  private afterRepair(batch: SealedLine[]): SealedLine[] {
    const { tail, repairs } = repairTail(this.path);
    for (const repair of repairs) this.report(this.problemFrom(repair));
    this.needsRepair = false;
    return batch.filter((line) => line.seq > tail.lastSeq);
  }

  private headNow(): { count: number; lastHash?: string; mac?: string } {
    const head =
      this.written.hash === undefined
        ? { count: this.written.seq }
        : { count: this.written.seq, lastHash: this.written.hash };
    return this.key === undefined ? head : { ...head, mac: hmacSha256Hex(this.key, headMacText(head)) };
  }

  /** The process is ending: seal what is queued and write it, and the head, with sync I/O. */
  private flushAtExit(): void {
    this.cancelTimers();
    this.sealUpTo(this.lastRecorded);
    const lines = [...this.inFlight, ...this.sealed];
    try {
      if (lines.length > 0) {
        prepareStateDir(dirname(this.path));
        // A write in flight when the process ended may have landed in part, or not at all.
        const missing = this.afterRepair(lines);
        if (missing.length > 0) appendSync(this.path, lineBytes(missing));
        const last = lines.at(-1)!;
        this.written = { seq: last.seq, hash: last.hash };
        this.sealed = [];
        this.inFlight = [];
        this.unsynced = true;
      }
      if (this.unsynced) {
        if (this.handle !== undefined) fsyncSync(this.handle.fd);
        writeFileAtomicSync(this.headPath, headText(this.headNow()));
        this.unsynced = false;
      }
    } catch (error) {
      this.reportWriteFailure(error);
    } finally {
      this.releaseWriter();
    }
  }

  private reportWriteFailure(error: unknown): void {
    // Once per run of failures: a full disk would otherwise warn every 50 ms.
    if (this.failing) return;
    this.failing = true;
    this.report({
      kind: 'write-failed',
      path: this.path,
      reason: (error as Error)?.message ?? String(error),
    });
  }

  private problemFrom(repair: TailRepair): JournalProblem {
    return repair.kind === 'torn-line'
      ? { kind: 'torn-line', path: this.path, movedTo: repair.movedTo, bytes: repair.bytes }
      : { kind: 'unreadable-entries', path: this.path, lines: repair.lines };
  }
}

/**
 * The lines' UTF-8 bytes, each line encoded straight into one buffer of their summed size. Joining
 * the lines into one string and encoding that made one more copy of every line, and was about a
 * fifth of the journal's CPU for the short entries of calls that teach nothing.
 */
function lineBytes(lines: readonly SealedLine[]): Buffer {
  let size = 0;
  for (const line of lines) size += Buffer.byteLength(line.text);
  const bytes = Buffer.allocUnsafe(size);
  let at = 0;
  for (const line of lines) at += bytes.write(line.text, at);
  return bytes;
}

function appendSync(path: string, bytes: Buffer): void {
  const fd = openNoFollowSync(path, APPEND_FLAGS);
  try {
    writeFileSync(fd, bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function warn(problem: JournalProblem): void {
  process.emitWarning(describeJournalProblem(problem), 'NarrowingWarning');
}

export function describeJournalProblem(problem: JournalProblem): string {
  switch (problem.kind) {
    case 'torn-line':
      return (
        `The journal ${problem.path} ended in a line cut off mid-write (${problem.bytes} bytes), ` +
        `as a crash leaves it. The line was moved to ${problem.movedTo} and the journal continues after it.`
      );
    case 'unreadable-entries':
      return (
        `The last ${problem.lines} line(s) of the journal ${problem.path} are not journal entries; ` +
        'they were left in place and numbering continues after the last good entry. ' +
        'Run verify to see what happened.'
      );
    case 'truncated':
      return (
        `The journal ${problem.path} ends at entry ${problem.lastSeq}, ` +
        `but its head records ${problem.headCount}: entries were removed from the end. ` +
        'Numbering continues after the head, so the gap stays on record.'
      );
    case 'write-failed':
      return (
        `Writing the journal ${problem.path} failed: ${problem.reason}. ` +
        'Entries stay queued and are tried again.'
      );
  }
}
