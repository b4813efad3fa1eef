/**
 * The SQLite store: one project or one machine, many processes. One row per constraint and per
 * lifted mark, in WAL mode, so a save writes the rows that changed (never the whole state) and
 * readers never wait for writers. Every write takes the next number of a sequence kept in the
 * database; a process reads what was written after the last number it saw, which is how it learns
 * what the others learned. Writes are debounced and happen off the caller's path.
 *
 * It also keeps a small table of per-session values (an agent hook's state between invocations).
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { PersistedState, StateStore } from '../core/types.js';
import { onProcessExit } from '../node/exit-hook.js';
import { ensurePrivateFile } from '../node/safe-fs.js';
import { prepareFolderFor } from '../node/state-dir.js';
import type { StoreProblem } from './file-store.js';
import { combineChanges, LocalCopy } from './local-copy.js';
import { importOptionalPeer } from './optional-peer.js';
import { constraintToText, parseConstraintText } from './schema.js';
import { isOlderStoredText } from './state-format.js';

export interface SqliteStoreOptions {
  /** The database file; created (mode 0600) when missing. */
  readonly path: string;
  /** How long `save` waits for further changes before writing. Default 25 ms. */
  readonly debounceMs?: number;
  /** How often a subscribed store looks for other processes' writes. Default 100 ms. */
  readonly pollMs?: number;
  /** How long a write waits for another process's write to finish. Default 5 s. */
  readonly busyTimeoutMs?: number;
  /** Wall-clock milliseconds; decides when lifted marks are old enough to forget. */
  readonly now?: () => number;
  readonly onProblem?: (problem: StoreProblem) => void;
}

/** Values kept per session id, for processes that live one call long (agent hooks). */
export interface SessionTable {
  get(sessionId: string): unknown;
  /** Any JSON value. */
  set(sessionId: string, value: unknown): void;
  delete(sessionId: string): boolean;
  /** Forgets sessions not written for `maxAgeMs`; returns how many. */
  prune(maxAgeMs: number): number;
  /**
   * Runs `work` holding the database's write lock (one transaction): what it reads is the latest,
   * and what it sets is committed before any other process reads or writes. The store's constraints
   * take part: what other processes wrote before the lock is read (and handed to the subscribers)
   * before `work` runs, and what the store was given by the end of `work` is written before the lock
   * goes, so a process that learns in its turn adds to what the last one learned instead of writing
   * over it. Calls in one process take turns. Keep the work short: the other processes' writes wait for it.
   * Another process holding the lock past the busy timeout: rejects with code `ELOCKED`, as a session
   * file's lock does.
   */
  transaction<T>(work: () => Promise<T> | T): Promise<T>;
}

export interface SqliteStore extends StateStore {
  readonly path: string;
  readonly sessions: SessionTable;
  subscribe(listener: (changes: PersistedState) => void): () => void;
}

const SCHEMA_VERSION = '1';
const DEFAULT_DEBOUNCE_MS = 25;
const DEFAULT_POLL_MS = 100;
const RETRY_MS = 1_000;
const LIFTED_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
const LIFTED_MAX_MARKS = 10_000;
/** A session value longer than this is not read: run state is bounded far below it. */
const MAX_SESSION_VALUE_CHARS = 8 * 1024 * 1024;

/** The tables and indexes of `SCHEMA`: a database that has them all and its meta rows needs no write to open. */
const SCHEMA_OBJECTS = ['meta', 'constraints', 'constraints_by_seq', 'lifted', 'lifted_by_seq', 'sessions'];

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS constraints (
  id TEXT PRIMARY KEY, last_at REAL NOT NULL, created_at REAL NOT NULL, body TEXT NOT NULL, seq INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS constraints_by_seq ON constraints (seq);
CREATE TABLE IF NOT EXISTS lifted (id TEXT PRIMARY KEY, at REAL NOT NULL, seq INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS lifted_by_seq ON lifted (seq);
CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at INTEGER NOT NULL);
INSERT OR IGNORE INTO meta (key, value) VALUES ('schema', '${SCHEMA_VERSION}'), ('seq', '0');
`;

// The same order as the merge of the file store: fresher evidence, then the later creation, then
// the text (any fixed choice keeps concurrent writers in agreement).
const UPSERT_CONSTRAINT = `
INSERT INTO constraints (id, last_at, created_at, body, seq) VALUES (?, ?, ?, ?, ?)
ON CONFLICT (id) DO UPDATE SET
  last_at = excluded.last_at, created_at = excluded.created_at, body = excluded.body, seq = excluded.seq
WHERE excluded.last_at > constraints.last_at
   OR (excluded.last_at = constraints.last_at AND excluded.created_at > constraints.created_at)
   OR (excluded.last_at = constraints.last_at AND excluded.created_at = constraints.created_at
       AND excluded.body > constraints.body)`;

type Database = BetterSqlite3.Database;

/**
 * Rewrites the rows an older state format wrote (see `state-format.ts`) in this one's, on opening:
 * the table's layout is unchanged, so builds of both versions share one database, and rows a build
 * of the older version writes later are read in the new format and rewritten at the next open.
 */
function migrateOlderRows(db: Database): void {
  const older = db.prepare('SELECT id, body FROM constraints WHERE instr(body, \'"needle":\') > 0').all() as {
    id: string;
    body: string;
  }[];
  if (older.length === 0) return;
  const update = db.prepare('UPDATE constraints SET body = ? WHERE id = ? AND body = ?');
  db.transaction(() => {
    for (const row of older) {
      if (!isOlderStoredText(row.body)) continue;
      const constraint = parseConstraintText(row.body);
      if (constraint !== undefined) update.run(constraintToText(constraint), row.id, row.body);
    }
  }).immediate();
}
type Statement = BetterSqlite3.Statement;

/**
 * Creates what is missing of the schema. A database that has it all is opened by reads alone: the
 * writes of other processes' turns, which hold the write lock, never keep an opening waiting. A
 * process that found the schema missing and then waited past the busy timeout goes on when another
 * process created it meanwhile.
 */
function ensureSchema(db: Database): void {
  if (hasSchema(db)) return;
  try {
    db.exec(SCHEMA);
  } catch (error) {
    if (!isBusy(error) || !hasSchema(db)) throw error;
  }
}

/**
 * The driver's error for a lock another connection held past the busy timeout, or one SQLite refused
 * at once (`SQLITE_BUSY_RECOVERY`, `SQLITE_BUSY_SNAPSHOT`: the extended codes the driver reports).
 */
function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

function hasSchema(db: Database): boolean {
  const names = new Set(
    db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'index')").pluck().all(),
  );
  if (!SCHEMA_OBJECTS.every((name) => names.has(name))) return false;
  return db.prepare("SELECT count(*) FROM meta WHERE key IN ('schema', 'seq')").pluck().get() === 2;
}

/**
 * The better-sqlite3 to install on a Node version: 13 from Node 22 on (12 aborts at exit on Node 24),
 * 12 on Node 20 (13 does not run there).
 */
export function betterSqliteRange(nodeVersion: string = process.versions.node): string {
  return Number(nodeVersion.split('.')[0]) >= 22 ? '^13.2.0' : '^12.11.1';
}

/** Opens (and creates) the database. Needs the optional peer `better-sqlite3`. */
export async function openSqliteStore(options: SqliteStoreOptions): Promise<SqliteStore> {
  const driver = await importOptionalPeer<{ default: typeof BetterSqlite3 }>(
    'better-sqlite3',
    'sqlite',
    betterSqliteRange(),
  );
  prepareFolderFor(options.path);
  ensurePrivateFile(options.path);
  const busyTimeoutMs = options.busyTimeoutMs ?? 5_000;
  const db = new driver.default(options.path, { fileMustExist: true, timeout: busyTimeoutMs });
  try {
    await retriedWhileBusy(busyTimeoutMs, () => setUp(db, options.path));
  } catch (error) {
    db.close();
    throw error;
  }
  return new SqliteStateStore(db, options);
}

/** Puts a database in WAL mode and gives it the schema this build reads, rows of an older format rewritten. */
function setUp(db: Database, path: string): void {
  // WAL mode is kept in the file: a database opened before is in it already and needs no lock for it.
  if (db.pragma('journal_mode', { simple: true }) !== 'wal') db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  ensureSchema(db);
  const schema = db.prepare("SELECT value FROM meta WHERE key = 'schema'").pluck().get();
  if (schema !== SCHEMA_VERSION) {
    throw new Error(`${path} has schema ${String(schema)}; this build reads ${SCHEMA_VERSION}`);
  }
  migrateOlderRows(db);
}

/** The first pause before an opening refused as busy is tried again, and the longest. */
const FIRST_RETRY_MS = 10;
const LONGEST_RETRY_MS = 200;

/**
 * Runs `step` again while SQLite refuses it as busy, until `timeoutMs` have passed. Where waiting
 * could deadlock, SQLite refuses at once instead of waiting out the busy timeout: several processes
 * opening a new database together (a burst of hook processes in a new project) each ask for the
 * lock that turns WAL on, or read while another is turning it on, and all but one are refused.
 */
async function retriedWhileBusy(timeoutMs: number, step: () => void): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let pause = FIRST_RETRY_MS; ; pause = Math.min(2 * pause, LONGEST_RETRY_MS)) {
    try {
      step();
      return;
    } catch (error) {
      if (!isBusy(error) || Date.now() + pause > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

class SqliteStateStore implements SqliteStore {
  readonly path: string;
  readonly sessions: SessionTable;
  private readonly db: Database;
  private readonly copy = new LocalCopy();
  private readonly statements: ReturnType<typeof prepare>;
  private readonly debounceMs: number;
  private readonly pollMs: number;
  private readonly now: () => number;
  private readonly report: (problem: StoreProblem) => void;
  private readonly listeners = new Set<(changes: PersistedState) => void>();
  private readonly stopExitHook: () => void;
  /** The latest state given as a function: exported only when it is written. */
  private source: (() => PersistedState) | undefined;
  /** Changes taken from the engine and not yet in the database. */
  private unwritten: PersistedState[] = [];
  /** What was read from the database and not yet handed to `flush`'s caller. */
  private unreported: PersistedState[] = [];
  private seenSeq = 0;
  private timer: NodeJS.Timeout | undefined;
  private poller: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(db: Database, options: SqliteStoreOptions) {
    this.db = db;
    this.path = options.path;
    this.debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
    this.pollMs = options.pollMs ?? DEFAULT_POLL_MS;
    this.now = options.now ?? Date.now;
    this.report = options.onProblem ?? warn;
    this.statements = prepare(db);
    // A session's turn reads the others' constraints first and writes its own before it ends.
    this.sessions = sessionTable(db, this.now, {
      begun: () => this.pull(),
      ending: () => {
        this.cancelTimer();
        this.write();
      },
    });
    this.pruneLifted();
    this.pull();
    this.unreported = [];
    this.stopExitHook = onProcessExit(() => this.write());
  }

  load(): PersistedState | undefined {
    this.write();
    this.pull();
    const state = this.copy.state();
    return state.constraints.length === 0 && state.lifted.length === 0 ? undefined : state;
  }

  save(state: PersistedState | (() => PersistedState)): void {
    if (this.closed) throw new Error(`The state store ${this.path} is closed; open a new one to save.`);
    if (typeof state === 'function') this.source = state;
    else this.take(state);
    this.schedule(this.debounceMs);
  }

  async flush(): Promise<PersistedState | undefined> {
    this.cancelTimer();
    this.write();
    this.pull();
    const changes = combineChanges(this.unreported);
    this.unreported = [];
    return changes;
  }

  subscribe(listener: (changes: PersistedState) => void): () => void {
    this.listeners.add(listener);
    if (this.poller === undefined && !this.closed) {
      this.poller = setInterval(() => this.pull(), this.pollMs);
      this.poller.unref();
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0 && this.poller !== undefined) {
        clearInterval(this.poller);
        this.poller = undefined;
      }
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.cancelTimer();
    this.write();
    this.closed = true;
    if (this.poller !== undefined) clearInterval(this.poller);
    this.poller = undefined;
    this.listeners.clear();
    this.stopExitHook();
    if (this.unwritten.length === 0) this.db.close();
    else
      this.report({ kind: 'write-failed', path: this.path, reason: 'the store closed with unsaved changes' });
  }

  private take(state: PersistedState): void {
    const changes = this.copy.absorb(state);
    if (changes) this.unwritten.push(changes);
  }

  private schedule(delay: number): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.write();
    }, delay);
    this.timer.unref();
  }

  private cancelTimer(): void {
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Writes what changed since the last write, in one transaction. Sync: the driver is. */
  private write(): void {
    if (this.closed) return;
    const source = this.source;
    this.source = undefined;
    if (source) this.take(source());
    const changes = combineChanges(this.unwritten);
    if (changes === undefined) return;
    try {
      this.statements.write(changes);
      this.unwritten = [];
    } catch (error) {
      this.unwritten = [changes];
      this.report({ kind: 'write-failed', path: this.path, reason: (error as Error).message });
      this.schedule(RETRY_MS);
    }
  }

  /** Reads what was written since the last read (by anyone) and tells the listeners what was new. */
  private pull(): void {
    if (this.closed) return;
    let read: { seq: number; state: PersistedState } | undefined;
    try {
      read = this.statements.readSince(this.seenSeq, this.now());
    } catch (error) {
      this.report({ kind: 'unreadable', path: this.path, reason: (error as Error).message });
      return;
    }
    if (read === undefined) return;
    this.seenSeq = read.seq;
    const changes = this.copy.absorb(read.state);
    if (changes === undefined) return;
    this.unreported.push(changes);
    for (const listener of this.listeners) listener(changes);
  }

  /** Forgets old lifted marks; writes (and so waits for the write lock) only when there are some. */
  private pruneLifted(): void {
    const oldest = this.now() - LIFTED_MAX_AGE_MS;
    const due = this.db
      .prepare('SELECT EXISTS (SELECT 1 FROM lifted WHERE at < ?) OR (SELECT count(*) FROM lifted) > ?')
      .pluck()
      .get(oldest, LIFTED_MAX_MARKS);
    if (due !== 1) return;
    this.db
      .prepare(
        'DELETE FROM lifted WHERE at < ? OR id NOT IN (SELECT id FROM lifted ORDER BY at DESC LIMIT ?)',
      )
      .run(oldest, LIFTED_MAX_MARKS);
  }
}

function prepare(db: Database) {
  const nextSeq: Statement = db.prepare(
    "UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'seq' RETURNING CAST(value AS INTEGER)",
  );
  const currentSeq: Statement = db.prepare("SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'seq'");
  const liftedAt: Statement = db.prepare('SELECT at FROM lifted WHERE id = ?');
  const upsertConstraint: Statement = db.prepare(UPSERT_CONSTRAINT);
  const upsertLifted: Statement = db.prepare(
    `INSERT INTO lifted (id, at, seq) VALUES (?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET at = excluded.at, seq = excluded.seq WHERE excluded.at > lifted.at`,
  );
  const dropLifted: Statement = db.prepare('DELETE FROM constraints WHERE id = ? AND last_at <= ?');
  const constraintsSince: Statement = db.prepare('SELECT body FROM constraints WHERE seq > ?');
  const liftedSince: Statement = db.prepare('SELECT id, at FROM lifted WHERE seq > ?');

  const write = db.transaction((changes: PersistedState) => {
    const seq = nextSeq.pluck().get() as number;
    for (const mark of changes.lifted) {
      upsertLifted.run(mark.id, mark.at, seq);
      dropLifted.run(mark.id, mark.at);
    }
    for (const constraint of changes.constraints) {
      const lifted = liftedAt.pluck().get(constraint.id) as number | undefined;
      if (lifted !== undefined && lifted >= constraint.evidence.lastAt) continue;
      upsertConstraint.run(
        constraint.id,
        constraint.evidence.lastAt,
        constraint.createdAt,
        constraintToText(constraint),
        seq,
      );
    }
  });

  const readSince = db.transaction((since: number, now: number) => {
    const seq = currentSeq.pluck().get() as number;
    if (seq <= since) return undefined;
    const constraints = [];
    for (const body of constraintsSince.pluck().iterate(since) as Iterable<string>) {
      const constraint = parseConstraintText(body);
      if (constraint) constraints.push(constraint);
    }
    const lifted = liftedSince.all(since) as { id: string; at: number }[];
    return { seq, state: { version: 1 as const, savedAt: now, constraints, lifted } };
  });

  return {
    write: (changes: PersistedState) => write.immediate(changes),
    readSince: (since: number, now: number) => readSince(since, now),
  };
}

/** What the store does at the edges of a session's transaction (see `SessionTable.transaction`). */
interface TurnEdges {
  /** The write lock is held: read what others wrote. */
  readonly begun: () => void;
  /** Before the commit: write what this process learned. */
  readonly ending: () => void;
}

function sessionTable(db: Database, now: () => number, edges: TurnEdges): SessionTable {
  const get = db.prepare('SELECT value FROM sessions WHERE id = ?').pluck();
  const set = db.prepare(
    `INSERT INTO sessions (id, value, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  );
  const remove = db.prepare('DELETE FROM sessions WHERE id = ?');
  const prune = db.prepare('DELETE FROM sessions WHERE updated_at < ?');
  let turn: Promise<unknown> = Promise.resolve();
  return {
    get(sessionId) {
      const text = get.get(sessionId) as string | undefined;
      if (text === undefined) return undefined;
      if (text.length > MAX_SESSION_VALUE_CHARS) {
        throw new Error(
          `the value of session ${sessionId.slice(0, 64)} is larger than ${MAX_SESSION_VALUE_CHARS} characters`,
        );
      }
      return JSON.parse(text);
    },
    set(sessionId, value) {
      set.run(sessionId, JSON.stringify(value), now());
    },
    delete: (sessionId) => remove.run(sessionId).changes > 0,
    prune: (maxAgeMs) => prune.run(now() - maxAgeMs).changes,
    transaction<T>(work: () => Promise<T> | T): Promise<T> {
      const run = async () => {
        // IMMEDIATE takes the write lock now (waiting up to the busy timeout), not at the first write.
        beginImmediate(db);
        try {
          edges.begun();
          return await work();
        } finally {
          // Writes the store made meanwhile on this connection joined the transaction: commit them too.
          if (db.inTransaction) {
            edges.ending();
            db.exec('COMMIT');
          }
        }
      };
      const result = turn.then(run, run);
      turn = result.catch(() => undefined);
      return result;
    },
  };
}

/**
 * Takes the write lock. Still held by another process after the busy timeout, it throws as a file
 * lock held elsewhere does (`ELOCKED`), so a caller with time left waits another round.
 */
function beginImmediate(db: Database): void {
  try {
    db.exec('BEGIN IMMEDIATE');
  } catch (error) {
    if (!isBusy(error)) throw error;
    const held = new Error('another process holds the state database for its turn', { cause: error });
    throw Object.assign(held, { code: 'ELOCKED' });
  }
}

function warn(problem: StoreProblem): void {
  const what = problem.kind === 'write-failed' ? 'Saving to' : 'Reading';
  process.emitWarning(
    `${what} the state database ${problem.path} failed: ${problem.reason}`,
    'NarrowingWarning',
  );
}
