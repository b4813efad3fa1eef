/**
 * `openGuard()`: the one place where a guard is put together. A policy (object or file) with the
 * caller's overrides, the project's state directory, a store, a journal, the world probe with the
 * folder it resolves relative paths against, the clock and the session id: every face opens its
 * guard here, so each of them behaves the same way for the same options.
 */
import { dirname, join } from 'node:path';
import { createToolCallAdapter } from '../adapters/tool-call/index.js';
import { createJournal, describeJournalProblem, type Journal, openJournalSlot } from '../audit/index.js';
import type { Detector } from '../core/detectors/types.js';
import { NarrowingError } from '../core/errors.js';
import { NarrowingEngine } from '../core/loop.js';
import type { Enforcement, Policy, PolicyInput, PresetName } from '../core/policy.js';
import type { AuditSink, Clock, DomainAdapter, StateStore, WorldProbe } from '../core/types.js';
import { createFileProbe, defaultStateDir, installNativeHash, stateLayout } from '../node/index.js';
import { detectProjectContext } from '../node/project-context.js';
import { loadPolicyFile, parsePolicy } from '../policy-file/index.js';
import { createFileStore, createMemoryStore, describeStoreProblem } from '../stores/index.js';
import { isRedisUrl, redactRedisUrl } from '../stores/redis-url.js';
import { type OtelOption, telemetryObserver } from '../telemetry/index.js';
import type { GuardObserver } from './observer.js';
import { createScopes, SCOPE_DIMENSION, type Scopes, scopeId } from './scopes.js';
import { createGuardSession, type GuardSession } from './session.js';
import { hasSessionTable, hasTurns, keepSessionStateIn, takeTurnsOf } from './session-state.js';
import { shareStore } from './store-views.js';

/**
 * Where learned constraints are kept: in this process only, in the project's state file, in a
 * SQLite database shared by the machine's processes, on a Redis server shared by a fleet, or a
 * store of your own.
 */
export type StoreOption =
  | 'memory'
  | 'file'
  | 'sqlite'
  | `redis://${string}`
  | `rediss://${string}`
  | URL
  | StateStore;

/** The SQLite database in a state directory. */
export const SQLITE_FILE = 'state.db';

export interface OpenGuardOptions {
  /** A policy object, or the path of a JSON or YAML policy file. The `precise` preset when absent. */
  readonly policy?: Policy | PolicyInput | string;
  /** Replaces the policy's preset (the rest of the policy is kept). */
  readonly preset?: PresetName;
  /** Replaces the policy's enforcement. */
  readonly enforcement?: Enforcement;
  /** The domain adapter; the tool-call adapter when absent. */
  readonly adapter?: DomainAdapter;
  /** Replaces the default loop detectors (for custom domains). */
  readonly detectors?: readonly Detector[];
  /**
   * The folder the agent works in: relative paths in its calls are resolved against it when the
   * world is probed, and the state directory is found from it. Default: the current directory.
   */
  readonly workspaceRoot?: string;
  /**
   * The project's folder when the host names it (`CLAUDE_PROJECT_DIR`): the state directory is never
   * looked for above it, and it is the project when `workspaceRoot` is not inside it.
   */
  readonly projectDir?: string;
  /** Holds the state file and the journal. Default: `.narrowing` at the root of the workspace's project. */
  readonly stateDir?: string;
  /** Default: the policy's `store`, else `file`. `sqlite` and Redis need `openGuard` (they connect). */
  readonly store?: StoreOption;
  /** The state file of the `file` store (or the database of `sqlite`), when not in the state directory. */
  readonly statePath?: string;
  /**
   * Where what is learned holds, added under the policy's own `context`: `auto` fills `repository`
   * (the git remote, or the checkout's folder) and `host`. Default: `auto` with a shared store
   * (`sqlite`, Redis), none otherwise.
   */
  readonly context?: Readonly<Record<string, string>> | 'auto' | false;
  /**
   * `true`: a journal in the state directory (one per process: a second process on the same
   * directory writes `journal.2.jsonl`, and so on); a path: that journal; `false`: none.
   * Default: `true` with the `file` store, `false` otherwise. A journal already open (one several
   * guards of this process share) is used as it is.
   */
  readonly journal?: boolean | string | Journal;
  /** Chain journal entries into verifiable receipts. Default true. */
  readonly receipts?: boolean;
  /**
   * Whether the guard's `flush()` also syncs the journal and rewrites its head (default true). False:
   * a flush hands the lines to the operating system, and the sync and the head follow within the
   * journal's durability window, and at close (see `JournalOptions.syncOnFlush`).
   */
  readonly syncJournalOnFlush?: boolean;
  /** How bans on files are checked against the world (is it there, what does it hold); `false` for none. Default: the file system. */
  readonly probe?: WorldProbe | false;
  /** Whether the model reads the guard's refusals; false only for a replay of a recorded run. Default true. */
  readonly modelSeesRefusals?: boolean;
  readonly clock?: Clock;
  readonly sessionId?: string;
  /** Where problems with the state file or the journal are reported. Default: stderr. */
  readonly onProblem?: (message: string) => void;
  /**
   * When the state cannot be kept where it should (a read-only or full disk, a file in the state
   * directory's place, an unreachable store): `memory` (default) goes on with state in memory and
   * no journal, and says so through `onProblem`, so that the agent's tools stay available;
   * `throw` refuses to open.
   */
  readonly whenStateUnavailable?: 'memory' | 'throw';
  /**
   * OpenTelemetry spans for every verdict: `true` uses the tracer provider an SDK registered, or
   * give a tracer. Default: the policy's `otel`, else off. Needs `@opentelemetry/api` installed.
   */
  readonly otel?: OtelOption;
  /** Told about every check and record (telemetry of your own). Replaces `otel`'s observer. */
  readonly observer?: GuardObserver;
  /**
   * One user or tenant of a server: what this guard learns holds for that scope only (its
   * constraints carry `scope: <id>` in their context). To serve many users from one guard, use
   * `guard.scope(id)` instead.
   */
  readonly scope?: string;
}

/** Opens a guard. Asynchronous because some stores connect before they can answer. */
export async function openGuard(options: OpenGuardOptions = {}): Promise<GuardSession> {
  const report = options.onProblem ?? reportToStderr;
  const policy = resolveGuardPolicy(options);
  options = withObserver(options, policy);
  const choice = storeChoice(options, policy);
  const workspaceRoot = options.workspaceRoot ?? process.cwd();
  const stateDir = resolveStateDir(options, choice, workspaceRoot);
  if (choice === 'sqlite' || isRedisChoice(choice)) {
    let store: StateStore;
    try {
      store = await openSharedStore(
        choice,
        options,
        stateDir,
        report,
        repositoryOf(options, policy, workspaceRoot),
      );
    } catch (error) {
      if (!keepsGoingInMemory(options, error)) throw error;
      return composeInMemory(options, policy, choice, workspaceRoot, stateDir, report, error);
    }
    return compose(options, policy, choice, store, workspaceRoot, stateDir, report);
  }
  return openLocal(options, policy, choice, workspaceRoot, stateDir, report);
}

/** Opens a guard whose store opens without waiting (`memory`, `file`, or an instance). */
export function openGuardSync(options: OpenGuardOptions = {}): GuardSession {
  const report = options.onProblem ?? reportToStderr;
  const policy = resolveGuardPolicy(options);
  options = withObserver(options, policy);
  const choice = storeChoice(options, policy);
  if (choice === 'sqlite' || isRedisChoice(choice)) {
    throw usage('the sqlite and redis stores connect before they answer: open them with `await openGuard()`');
  }
  const workspaceRoot = options.workspaceRoot ?? process.cwd();
  const stateDir = resolveStateDir(options, choice, workspaceRoot);
  return openLocal(options, policy, choice, workspaceRoot, stateDir, report);
}

/** A guard on a store that opens without waiting, the policy and the state directory already found. */
function openLocal(
  options: OpenGuardOptions,
  policy: Policy,
  choice: StoreOption,
  workspaceRoot: string,
  stateDir: string | undefined,
  report: (message: string) => void,
): GuardSession {
  let store: StateStore | undefined;
  try {
    store = openStore(choice, options, stateDir, report);
    return compose(options, policy, choice, store, workspaceRoot, stateDir, report);
  } catch (error) {
    if (!keepsGoingInMemory(options, error)) throw error;
    void store?.close();
    return composeInMemory(options, policy, choice, workspaceRoot, stateDir, report, error);
  }
}

/**
 * The guard in memory, after `choice` could not be opened: with its journal in the state directory
 * if one was wanted and the directory takes it (a store that is down leaves the directory usable),
 * without one otherwise. One warning says which.
 */
function composeInMemory(
  options: OpenGuardOptions,
  policy: Policy,
  choice: StoreOption,
  workspaceRoot: string,
  stateDir: string | undefined,
  report: (message: string) => void,
  error: unknown,
): GuardSession {
  const where = describeStore(choice, isRedisChoice(choice) ? undefined : (stateDir ?? options.statePath));
  const journal = options.journal ?? (choice === 'file' || choice === 'sqlite');
  if (journal !== false && (typeof journal !== 'boolean' || stateDir !== undefined)) {
    try {
      const session = compose(
        { ...options, journal },
        policy,
        'memory',
        createMemoryStore(),
        workspaceRoot,
        stateDir,
        report,
      );
      reportInMemory(report, where, error, true);
      return session;
    } catch {
      // The journal cannot be kept either: go on without it.
    }
  }
  reportInMemory(report, where, error, false);
  const withoutJournal = { ...options, journal: false };
  return compose(withoutJournal, policy, 'memory', createMemoryStore(), workspaceRoot, undefined, report);
}

async function openSharedStore(
  choice: 'sqlite' | `redis://${string}` | `rediss://${string}` | URL,
  options: OpenGuardOptions,
  stateDir: string | undefined,
  report: (message: string) => void,
  repository: string | undefined,
): Promise<StateStore> {
  if (choice === 'sqlite') {
    const { openSqliteStore } = await import('../stores/sqlite-store.js');
    const path = options.statePath ?? join(requireStateDir(stateDir, 'sqlite'), SQLITE_FILE);
    return openSqliteStore({ path, onProblem: (problem) => report(describeStoreProblem(problem)) });
  }
  const { openRedisStore } = await import('../stores/redis-store.js');
  return openRedisStore({ url: choice, onProblem: report, ...(repository !== undefined && { repository }) });
}

/** Whether a failure to open the store or the journal leaves the guard running in memory. */
function keepsGoingInMemory(options: OpenGuardOptions, error: unknown): boolean {
  if (options.whenStateUnavailable === 'throw') return false;
  // A mistake in the call itself is the caller's to fix, not the disk's.
  return !(error instanceof NarrowingError && error.code === 'USAGE');
}

function describeStore(choice: StoreOption, where: string | undefined): string {
  if (isRedisChoice(choice)) return redactRedisUrl(String(choice));
  return where ?? 'the state directory';
}

function reportInMemory(
  report: (message: string) => void,
  where: string,
  error: unknown,
  journaled: boolean,
): void {
  const why = error instanceof Error ? error.message : String(error);
  report(
    `cannot keep state in ${where} (${why}). Running with state in memory only and ` +
      `${journaled ? 'the journal kept' : 'no journal'}: the ` +
      'tools stay available, but what is learned now is lost when this process exits. Fix the ' +
      'directory or the store, or point --state-dir elsewhere.',
  );
}

function compose(
  options: OpenGuardOptions,
  basePolicy: Policy,
  choice: StoreOption,
  store: StateStore | undefined,
  workspaceRoot: string,
  stateDir: string | undefined,
  report: (message: string) => void,
): GuardSession {
  // The engine hashes long texts with Node's SHA-256: the keys its own would give, sooner.
  installNativeHash();
  const policy = withContext(basePolicy, options, choice, workspaceRoot);
  const journal = openJournal(options, choice, stateDir, report);
  const probe = options.probe === false ? undefined : (options.probe ?? createFileProbe(workspaceRoot));
  // The guard's engine and its scopes' engines write through views of the one store.
  const shared = store === undefined ? undefined : shareStore(store);
  const engineFor = (enginePolicy: Policy, sessionId: string | undefined, audit: AuditSink | undefined) =>
    new NarrowingEngine({
      adapter: options.adapter ?? createToolCallAdapter(),
      policy: enginePolicy,
      ...(shared && { store: shared.view() }),
      ...(audit && { audit }),
      ...(probe && { probe }),
      ...(options.clock && { clock: options.clock }),
      ...(sessionId !== undefined && { sessionId }),
      ...(options.detectors && { detectors: options.detectors }),
      ...(options.modelSeesRefusals === false && { modelSeesRefusals: false }),
    });
  const engine = engineFor(policy, options.sessionId, journal);
  // What other processes or agents learn reaches this engine as it arrives.
  const stopListening = store?.subscribe?.((changes) => engine.restore(changes, { scope: 'persistent' }));
  const sessionStateDir =
    (store && choice !== 'memory' && !isRedisChoice(choice)) || journal ? stateDir : undefined;
  // A scope's journal is the guard's, closed with the guard's session.
  const scopeJournal: AuditSink | undefined = journal && {
    record: (event) => journal.record(event),
    receiptHash: (sequence) => journal.receiptHash?.(sequence),
    verify: () => journal.verify(),
    flush: () => journal.flush(),
  };
  const scopes: Scopes<GuardSession> = createScopes((id, forget): GuardSession => {
    const scoped = engineFor(
      { ...policy, context: { ...policy.context, [SCOPE_DIMENSION]: id } },
      undefined,
      scopeJournal,
    );
    const unsubscribe = store?.subscribe?.((changes) => scoped.restore(changes, { scope: 'persistent' }));
    return createGuardSession({
      engine: scoped,
      stateDir: sessionStateDir,
      journalPath: journal?.path,
      workspaceRoot,
      ...(scopeJournal && { journal: scopeJournal }),
      release: async () => {
        unsubscribe?.();
        forget();
      },
      ...(options.observer && { observer: options.observer }),
      report,
      scopes,
      scoped: true,
    });
  });
  const session = createGuardSession({
    engine,
    stateDir: sessionStateDir,
    journalPath: journal?.path,
    workspaceRoot,
    ...(journal && { journal }),
    release: async () => {
      stopListening?.();
      await store?.close();
    },
    ...(options.observer && { observer: options.observer }),
    report,
    scopes,
  });
  // A store with a table of its own (SQLite) keeps the sessions' run state beside what they learned.
  if (hasSessionTable(store)) keepSessionStateIn(session, store.sessions);
  // The file store's turns hold its lock around a session's turn: what it learns adds to the others'.
  else if (hasTurns(store)) takeTurnsOf(session, store);
  return session;
}

/**
 * The options with the observer telemetry asks for (`otel`, else the policy's), resolved before
 * anything is opened: a missing `@opentelemetry/api` is the caller's to fix, not a reason to run in memory.
 */
function withObserver(options: OpenGuardOptions, policy: Policy): OpenGuardOptions {
  if (options.observer !== undefined) return options;
  const observer = telemetryObserver(options.otel ?? policy.otel, policy.preset);
  return observer === undefined ? options : { ...options, observer };
}

function storeChoice(options: OpenGuardOptions, policy: Policy): StoreOption {
  return options.store ?? (policy.store as StoreOption | undefined) ?? 'file';
}

function isRedisChoice(choice: StoreOption): choice is `redis://${string}` | URL {
  if (choice instanceof URL) return true;
  return typeof choice === 'string' && isRedisUrl(choice);
}

/** The policy with the caller's context (or the detected one) under its own. */
function withContext(
  policy: Policy,
  options: OpenGuardOptions,
  choice: StoreOption,
  workspaceRoot: string,
): Policy {
  const shared = choice === 'sqlite' || isRedisChoice(choice);
  const wanted = options.context ?? (shared ? 'auto' : false);
  const scope: Record<string, string> =
    options.scope === undefined ? {} : { [SCOPE_DIMENSION]: scopeId(options.scope) };
  if (wanted === false)
    return options.scope === undefined ? policy : { ...policy, context: { ...policy.context, ...scope } };
  const extra = wanted === 'auto' ? detectProjectContext(workspaceRoot) : wanted;
  return { ...policy, context: { ...extra, ...policy.context, ...scope } };
}

/**
 * The repository the guard works in, for a Redis store's default prefix: the policy's or the
 * caller's context names it, else it is detected (also when constraints carry no context).
 */
function repositoryOf(options: OpenGuardOptions, policy: Policy, workspaceRoot: string): string | undefined {
  const given = typeof options.context === 'object' ? options.context.repository : undefined;
  return policy.context.repository ?? given ?? detectProjectContext(workspaceRoot).repository;
}

function requireStateDir(stateDir: string | undefined, store: string): string {
  if (stateDir === undefined) throw usage(`the ${store} store needs a stateDir or a statePath`);
  return stateDir;
}

/** Policies resolved once by `resolvedForReuse`, which opening a guard takes as they are. */
const reusable = new WeakSet<Policy>();

/**
 * The policy (an object, or the path of a policy file) resolved as opening a guard resolves it,
 * with the caller's preset if given, to pass to several guards opened in turn (a replay opens one
 * per subagent): they take it as it is rather than validating it again. Not for a policy that
 * changes after this call.
 */
export function resolvedForReuse(policy?: Policy | PolicyInput | string, preset?: PresetName): Policy {
  const resolved = resolveGuardPolicy({
    ...(policy !== undefined && { policy }),
    ...(preset !== undefined && { preset }),
  });
  reusable.add(resolved);
  return resolved;
}

/** The policy (validated, with readable errors), then the caller's preset and enforcement. */
export function resolveGuardPolicy(
  options: Pick<OpenGuardOptions, 'policy' | 'preset' | 'enforcement'> = {},
): Policy {
  const given = options.policy;
  if (
    typeof given === 'object' &&
    reusable.has(given as Policy) &&
    options.preset === undefined &&
    options.enforcement === undefined
  )
    return given as Policy;
  const overrides = options.preset ? { preset: options.preset } : {};
  const policy =
    typeof options.policy === 'string'
      ? loadPolicyFile(options.policy, overrides)
      : parsePolicy(options.policy ?? {}, undefined, overrides);
  return options.enforcement ? { ...policy, enforcement: options.enforcement } : policy;
}

/** The state directory, found only when something will be kept there. */
function resolveStateDir(
  options: OpenGuardOptions,
  store: StoreOption,
  workspaceRoot: string,
): string | undefined {
  if (options.stateDir !== undefined) return options.stateDir;
  if (options.statePath !== undefined) return dirname(options.statePath);
  if (store === 'file' || store === 'sqlite' || options.journal === true)
    return defaultStateDir(
      workspaceRoot,
      options.projectDir === undefined ? {} : { projectDir: options.projectDir },
    );
  return undefined;
}

function openStore(
  choice: StoreOption,
  options: OpenGuardOptions,
  stateDir: string | undefined,
  report: (message: string) => void,
): StateStore | undefined {
  if (typeof choice === 'object' && !(choice instanceof URL)) return choice;
  if (choice === 'memory') return createMemoryStore();
  if (choice === 'file') {
    const path = options.statePath ?? (stateDir === undefined ? undefined : stateLayout(stateDir).state);
    if (path === undefined) throw usage('the file store needs a stateDir or a statePath');
    return createFileStore({ path, onProblem: (problem) => report(describeStoreProblem(problem)) });
  }
  throw usage(
    `unknown store "${redactRedisUrl(String(choice))}": use "memory", "file", "sqlite", a redis:// URL or a store instance`,
  );
}

function openJournal(
  options: OpenGuardOptions,
  store: StoreOption,
  stateDir: string | undefined,
  report: (message: string) => void,
): Journal | undefined {
  const wanted = options.journal ?? (store === 'file' || store === 'sqlite');
  if (wanted === false) return undefined;
  if (typeof wanted === 'object') return wanted;
  const settings = {
    receipts: options.receipts ?? true,
    ...(options.syncJournalOnFlush === false && { syncOnFlush: false }),
    ...(options.sessionId !== undefined && { sessionId: options.sessionId }),
    onProblem: (problem: Parameters<typeof describeJournalProblem>[0]) =>
      report(describeJournalProblem(problem)),
  };
  if (typeof wanted === 'string') return createJournal({ path: wanted, ...settings });
  if (stateDir === undefined) throw usage('a journal in the state directory needs a stateDir');
  const path = stateLayout(stateDir).journal;
  try {
    return openJournalSlot({
      path,
      ...settings,
      onSlot: (candidate, _slot, heldBy) =>
        report(
          `${path} is in use by ${heldBy === process.pid ? 'another guard of this process' : `process ${heldBy}`}; journaling to ${candidate}`,
        ),
    });
  } catch (error) {
    if (!(error instanceof NarrowingError && error.code === 'JOURNAL_IN_USE')) throw error;
    // What this process learns still reaches the store: only its journal lines are not kept.
    report(`${(error as Error).message}; this process keeps what it learns but journals nothing`);
    return undefined;
  }
}

function usage(message: string): NarrowingError {
  return new NarrowingError('USAGE', `openGuard: ${message}`);
}

function reportToStderr(message: string): void {
  process.stderr.write(`narrowing: ${message}\n`);
}
