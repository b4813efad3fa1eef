/**
 * One hook event through the guard: open the guard of the project the payload names, take the
 * session's turn (its run state restored from the last hook process of the same session), check or
 * record, save, close.
 */
import { hostToolAnnotations } from '../adapters/tool-call/host-tools.js';
import { createToolCallAdapter, toolCallToOutcome, toolCallToProposal } from '../adapters/tool-call/index.js';
import { NarrowingError } from '../core/errors.js';
import type { PresetName } from '../core/policy.js';
import type { Clock } from '../core/types.js';
import { checkSafely, recordSafely } from '../guard/guarded-call.js';
import type { StoreOption } from '../guard/open.js';
import { openGuard, resolveGuardPolicy } from '../guard/open.js';
import type { GuardSession } from '../guard/session.js';
import {
  pruneGuardSessionStates,
  type SessionStateContext,
  withSessionState,
} from '../guard/session-state.js';
import { verdictMeta, verdictText } from '../guard/verdict.js';
import { defaultStateDir, hostProjectDir, stateLayout } from '../node/state-dir.js';
import { createFileStore, describeStoreProblem, type FileStore } from '../stores/file-store.js';
import { withCodexRollout } from './codex-rollout.js';
import type { HookEvent, HookToolCall, HookVerdict } from './event.js';
import { stateSelectionFor } from './state-selection.js';

export interface HookOptions {
  /** A policy file (JSON or YAML); the `precise` preset when absent. */
  readonly policy?: string;
  readonly preset?: PresetName;
  /** The state directory; default `.narrowing` at the root of the payload's project. */
  readonly stateDir?: string;
  /**
   * Where learned constraints are kept; default: the policy's `store`, else `file`. With `sqlite`
   * the sessions' run state is kept in the same database.
   */
  readonly store?: StoreOption;
  /** Refuse a call the guard could not check (default: let it run). */
  readonly failClosed?: boolean;
  /** Where problems that do not stop the hook are reported. Default: stderr. */
  readonly onProblem?: (message: string) => void;
  readonly clock?: Clock;
  /** Emit OpenTelemetry spans for each verdict (the policy's `otel` otherwise). */
  readonly otel?: boolean;
}

const NONE: HookVerdict = { type: 'none' };
/** Session files of sessions not seen for this long are removed when a new session starts. */
const SESSION_RETENTION_MS = 14 * 24 * 60 * 60 * 1000;

/** Handles one event in this process: opens the guard, takes the session's turn, closes. */
export async function handleHookEvent(received: HookEvent, options: HookOptions = {}): Promise<HookVerdict> {
  if (received.action.type === 'ignored') return NONE;
  // What the agent's session log adds, read once: the failures the agent reported to no hook
  // (Codex's MCP errors, refused patches), learned before the call is checked, or the exit status
  // the payload left out (Codex's commands).
  const { earlier, event } = await withCodexRollout(received);
  for (const failure of earlier) await handleReadEvent(failure, options);
  return handleReadEvent(event, options);
}

/** Handles one event whose session log has been read. */
async function handleReadEvent(event: HookEvent, options: HookOptions): Promise<HookVerdict> {
  const report =
    options.onProblem ?? ((message: string) => process.stderr.write(`narrowing-guard: ${message}\n`));
  const store =
    options.store === undefined || options.store === 'file'
      ? (selectiveFileStore(event, options, report) ?? options.store)
      : options.store;
  const guard = await openGuard({
    ...(options.policy !== undefined && { policy: options.policy }),
    ...(options.preset !== undefined && { preset: options.preset }),
    ...(options.stateDir !== undefined && { stateDir: options.stateDir }),
    ...(store !== undefined && { store }),
    ...(options.clock !== undefined && { clock: options.clock }),
    ...(options.otel && { otel: true }),
    workspaceRoot: event.workspace ?? process.cwd(),
    ...(hostProjectDir() !== undefined && { projectDir: hostProjectDir() }),
    // Whatever the store, the project's state directory holds the journal (and the run state of a
    // session, unless the store keeps it).
    journal: true,
    sessionId: event.sessionId,
    onProblem: report,
  });
  try {
    return await inSessionTurn(
      guard,
      event,
      (session) => applyHookEvent(guard, event, session, options, report),
      report,
    );
  } finally {
    await guard.close();
  }
}

/** A session's turn when nothing is kept between processes (state in memory only): this event's alone. */
const MEMORY_ONLY_TURN: SessionStateContext = {
  resumed: false,
  restart: () => undefined,
  firstTime: () => true,
};
/**
 * Rounds of waiting for a session's turn an outcome gets, each up to the lock's own wait: 11 s for a
 * session file, the busy timeout (5 s) for the SQLite store's table.
 */
const RECORD_LOCK_ROUNDS = 3;

/**
 * Runs `work` in the session's turn (see `withSessionState`). An outcome is not given up because
 * many processes of the session queue for its lock: it waits more rounds, within the hook's limit
 * to save. With the state in memory only (no folder could be made), the event is handled alone.
 */
export async function inSessionTurn<T>(
  guard: GuardSession,
  event: HookEvent,
  work: (session: SessionStateContext) => T | Promise<T>,
  report: (message: string) => void,
  /**
   * The helper's way: the session's run state saved by an append to its log, and the locks kept
   * between events (see `withSessionState`).
   */
  helper: { readonly appendToLog?: boolean; readonly keepLocks?: boolean } = {},
): Promise<T> {
  const rounds = event.action.type === 'before-call' ? 1 : RECORD_LOCK_ROUNDS;
  for (let round = 1; ; round += 1) {
    try {
      return await withSessionState(guard, work, {
        sessionId: event.sessionId,
        onProblem: report,
        // A check learns nothing: it takes no turn of the store, only the session's lock.
        storeTurn: event.action.type !== 'before-call',
        ...(helper.appendToLog === true && { appendToLog: true }),
        ...(helper.keepLocks === true && { keepLocks: true }),
      });
    } catch (error) {
      // Refused before `work` ran: the guard keeps its sessions nowhere (no folder, no table).
      if (guard.stateDir === undefined && error instanceof NarrowingError && error.code === 'USAGE')
        return work(MEMORY_ONLY_TURN);
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED' || round >= rounds) throw error;
    }
  }
}

/**
 * The file store, reading only the constraints this event needs through the state file's index
 * (see `state-selection.ts`), when the state is the project's file; undefined otherwise (another
 * store, or an event that may need any constraint), for `openGuard` to open as it would.
 */
function selectiveFileStore(
  event: HookEvent,
  options: HookOptions,
  report: (message: string) => void,
): FileStore | undefined {
  const policy = resolveGuardPolicy({
    ...(options.policy !== undefined && { policy: options.policy }),
    ...(options.preset !== undefined && { preset: options.preset }),
  });
  if ((options.store ?? policy.store ?? 'file') !== 'file') return undefined;
  const selection = stateSelectionFor(event, createToolCallAdapter(), policy);
  if (selection === 'all') return undefined;
  const projectDir = hostProjectDir();
  const stateDir =
    options.stateDir ??
    defaultStateDir(event.workspace ?? process.cwd(), projectDir === undefined ? {} : { projectDir });
  return createFileStore({
    path: stateLayout(stateDir).state,
    select: selection,
    onProblem: (problem) => report(describeStoreProblem(problem)),
  });
}

/** The event's effect on a guard whose session's turn it is (see `withSessionState`). */
export function applyHookEvent(
  guard: GuardSession,
  event: HookEvent,
  session: SessionStateContext,
  options: HookOptions,
  report: (message: string) => void,
): HookVerdict {
  const { action } = event;
  const reportFault = (fault: NarrowingError) => report(fault.message);
  switch (action.type) {
    case 'before-call': {
      const proposal = toolCallToProposal(action.call.tool, action.call.input, extras(event, action.call));
      const verdict = checkSafely(guard, proposal, {
        onFault: options.failClosed ? 'closed' : 'open',
        reportFault,
      });
      if (!verdict.ok) {
        return options.failClosed
          ? {
              type: 'deny',
              text: `narrowing-guard could not check this call and is set to refuse calls it cannot check: ${verdict.fault.message}`,
            }
          : NONE;
      }
      const { check } = verdict;
      if (check.verdict === 'block' || check.verdict === 'halt') {
        return { type: 'deny', text: verdictText(check), meta: verdictMeta(check) };
      }
      if (check.verdict === 'warn')
        return { type: 'warn', text: verdictText(check), meta: verdictMeta(check) };
      return NONE;
    }
    case 'after-call': {
      // Reported twice (Cursor's `postToolUse` and `postToolUseFailure`): learned once.
      if (action.call.id !== undefined && !session.firstTime(`after:${action.call.id}`)) return NONE;
      const { call, result } = action;
      const outcome = toolCallToOutcome(
        call.tool,
        call.input,
        result.ok
          ? result.content
          : { error: result.error, ...(result.content !== undefined && { content: result.content }) },
        { ...extras(event, call), ...(result.exitCode !== undefined && { exitCode: result.exitCode }) },
      );
      // Stopped by the agent's own time limit: read as the timeout it is, whatever its words.
      const timedOut = !result.ok && result.timedOut === true;
      recordSafely(guard, timedOut ? { ...outcome, errorCode: 'ETIMEDOUT' } : outcome, { reportFault });
      return NONE;
    }
    case 'prompt':
      guard.newRun('user');
      return NONE;
    case 'compact':
      guard.newRun('compact');
      return NONE;
    case 'session-start':
      if (action.source !== 'resume') {
        if (session.resumed) session.restart();
        pruneGuardSessionStates(guard, SESSION_RETENTION_MS);
      }
      return NONE;
    case 'stop':
    case 'ignored':
      return NONE;
  }
}

function extras(event: HookEvent, call: HookToolCall) {
  const annotations = hostToolAnnotations(event.agent, call.tool);
  return { ...(annotations && { annotations }), ...(call.id !== undefined && { callId: call.id }) };
}
