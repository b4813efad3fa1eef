/**
 * The hook helper's side: one guard, open for as long as events keep coming, that answers hook
 * processes over a local socket. Events are handled one at a time, each in its session's turn (the
 * same session files and locks a hook process without the helper uses), so the helper and such
 * processes can run side by side. What an event changes is written before it is answered, so an
 * answer the agent acted on survives the helper being killed. The state file changed by another
 * process (`forget`, a hook without the helper) is read again before the next event; the store tells
 * its own writes from others', so an event that teaches nothing costs no read or write of the whole
 * file. The session's lock and the state file's are kept between events (no lock made or removed per
 * event): given back to another process that waits for one, after `FOLD_IDLE_MS` without an event,
 * and before the helper exits. It exits after
 * `idleMs` without an event, or at SIGTERM / SIGINT, having written everything and removed its socket.
 */
import { rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { basename, dirname } from 'node:path';
import { createToolCallAdapter } from '../adapters/tool-call/index.js';
import type { PresetName } from '../core/policy.js';
import { openGuard, resolveGuardPolicy, type StoreOption } from '../guard/open.js';
import type { GuardSession } from '../guard/session.js';
import { foldSessionLogs } from '../guard/session-state.js';
import { giveBackKeptLocks, giveBackWantedLocks, withFileLock } from '../node/lock.js';
import { writeTextNoFollowSync } from '../node/safe-fs.js';
import { stateLayout } from '../node/state-dir.js';
import { createFileStore, type FileStore } from '../stores/file-store.js';
import { withCodexRollout } from './codex-rollout.js';
import { type DaemonRequest, helperPointerPath, pointedSocket, startingMarkerPath } from './daemon-client.js';
import type { HookVerdict } from './event.js';
import { applyHookEvent, inSessionTurn } from './handle.js';
import { type HeldCall, ParallelCalls } from './parallel-calls.js';
import { MAX_PAYLOAD_BYTES } from './payload.js';
import { stateSelectionFor } from './state-selection.js';

export interface DaemonOptions {
  readonly socketPath: string;
  readonly stateDir: string;
  readonly policy?: string;
  readonly preset?: PresetName;
  /** Default: the policy's `store`, else `file`. */
  readonly store?: StoreOption;
  /** Default 10 minutes. */
  readonly idleMs?: number;
  /** Stop at SIGTERM and SIGINT, having written everything (default true; tests in one process say false). */
  readonly handleSignals?: boolean;
}

const DEFAULT_IDLE_MS = 10 * 60 * 1000;
const MAX_REQUEST_CHARS = 2 * MAX_PAYLOAD_BYTES;
/** The request that stops the helper at once (what `stopDaemons` sends). */
const STOP = '{"stop":true}';
/** How long a stopping helper waits for the event of a hook that has connected but not sent it yet. */
const STOP_GRACE_MS = 1_000;
/** A pause in events this long folds the sessions' logs into their files. */
const FOLD_IDLE_MS = 2_000;

/** Serves until idle or stopped; resolves when the helper has stopped. */
export async function serveHooks(options: DaemonOptions): Promise<void> {
  const server = createServer();
  // A hook can connect as soon as the socket is bound, before the helper is ready to read it below:
  // such a connection waits here (unread, so nothing it sends is lost) instead of going unheard.
  const early: Socket[] = [];
  const holdEarly = (socket: Socket) => {
    socket.on('error', () => undefined);
    early.push(socket);
  };
  server.on('connection', holdEarly);
  // Named before the socket exists, so that whoever finds the socket can find the helper to stop.
  const pointer = pointTo(options.stateDir, options.socketPath);
  if (!(await listenAlone(server, options.socketPath))) return;
  rmSync(startingMarkerPath(options.socketPath), { force: true });
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  let guard: GuardSession | undefined;
  /** The guard's store when it is the state file, which may change under the helper. */
  let fileStore: FileStore | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  let stopNow: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    stopNow = resolve;
  });
  let lastEvent = Date.now();
  /** Whether the sessions' logs were folded since the last event. */
  let folded = true;
  /** Set once the guard is closing: nothing is handled after it. */
  let closing = false;
  /** Set once asked to stop: the whole state is no longer read for events to come. */
  let stopping = false;
  const quiet = () => undefined;
  /** Identical calls the agent runs in parallel: a duplicate waits for the first's end. */
  const parallel = new ParallelCalls();

  const chosen = {
    ...(options.policy !== undefined && { policy: options.policy }),
    ...(options.preset !== undefined && { preset: options.preset }),
  };
  /** The store the guard keeps its state in, the helper's `file` store being the project's file. */
  const storeChoice = () =>
    options.store ?? (resolveGuardPolicy(chosen).store as StoreOption | undefined) ?? 'file';
  const openWith = (store: FileStore | StoreOption, request: DaemonRequest) =>
    openGuard({
      ...chosen,
      store,
      stateDir: options.stateDir,
      journal: true,
      // Each event's lines reach the journal before its answer; the sync and the head follow within a second.
      syncJournalOnFlush: false,
      workspaceRoot: request.event.workspace ?? dirname(options.stateDir),
      sessionId: request.event.sessionId,
      onProblem: quiet,
    });
  /** The event on `open`, written before the answer: the agent acts on it, so it must outlive this process. */
  const apply = async (open: GuardSession, request: DaemonRequest): Promise<HookVerdict> => {
    const { event } = request;
    const verdict = await inSessionTurn(
      open,
      event,
      (session) => applyHookEvent(open, event, session, { failClosed: request.failClosed === true }, quiet),
      quiet,
      // The guard that stays open appends each session's turn to the session's log (one write, no
      // rename, no sync), folded into the session's file when idle and before the guard closes.
      // The session's lock and the state file's are kept between events, given back when idle.
      { appendToLog: open === guard, keepLocks: true },
    );
    await open.flush();
    return verdict;
  };
  /**
   * The helper's first events, before it holds the whole state: answered from the constraints the
   * event needs, read through the state file's index as a hook without the helper reads them (see
   * `state-selection.ts`). Undefined when the event may need any constraint, or the store is not the file.
   */
  const quickly = async (request: DaemonRequest): Promise<HookVerdict | undefined> => {
    if (storeChoice() !== 'file') return undefined;
    const selection = stateSelectionFor(request.event, createToolCallAdapter(), resolveGuardPolicy(chosen));
    if (selection === 'all') return undefined;
    const store = createFileStore({
      path: stateLayout(options.stateDir).state,
      select: selection,
      onProblem: quiet,
    });
    const open = await openWith(store, request);
    try {
      return await apply(open, request);
    } finally {
      await open.close();
    }
  };
  /** Reads the whole state: after an answer given quickly, before the next event. */
  let wholeFor: DaemonRequest | undefined;

  const openWhole = async (request: DaemonRequest) => {
    const store = storeChoice();
    fileStore =
      store === 'file'
        ? createFileStore({ path: stateLayout(options.stateDir).state, onProblem: quiet })
        : undefined;
    guard = await openWith(fileStore ?? store, request);
    return guard;
  };

  const handle = async (received: DaemonRequest): Promise<HookVerdict> => {
    // What the agent's session log adds, read once: the failures the agent reported to no hook
    // (Codex's MCP errors, refused patches), learned before the call is checked, or the exit status
    // the payload left out (Codex's commands).
    const { earlier, event } = await withCodexRollout(received.event);
    for (const failure of earlier) await handleRead({ ...received, event: failure });
    return handleRead(event === received.event ? received : { ...received, event });
  };
  /** An event whose session log has been read. */
  const handleRead = async (request: DaemonRequest): Promise<HookVerdict> => {
    if (guard !== undefined && fileStore?.changedElsewhere() === true) {
      // Changed by someone else (`forget`, a hook without the helper): read it again.
      await foldSessionLogs(guard, quiet);
      await guard.close();
      guard = undefined;
    }
    if (guard === undefined) {
      const verdict = await quickly(request);
      if (verdict !== undefined) {
        wholeFor = request;
        return verdict;
      }
    }
    return apply(guard ?? (await openWhole(request)), request);
  };

  const connections = new Set<Socket>();
  /** Hooks waiting for an answer (a stop request excepted): a stopping helper answers them first. */
  const unanswered = new Set<Socket>();
  /** Who asked the helper to stop: told so, with its pid, once it has written everything. */
  const stopRequests: Socket[] = [];
  const onConnection = (socket: Socket) => {
    lastEvent = Date.now();
    connections.add(socket);
    unanswered.add(socket);
    socket.on('close', () => {
      connections.delete(socket);
      unanswered.delete(socket);
    });
    let text = '';
    socket.setEncoding('utf8');
    socket.on('error', quiet);
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (text.length > MAX_REQUEST_CHARS) return void socket.destroy();
      const end = text.indexOf('\n');
      if (end === -1) return;
      const line = text.slice(0, end);
      text = '';
      const request = line === STOP ? undefined : parseRequest(line);
      const answer = async (held: HeldCall | undefined) => {
        if (line === STOP) {
          // Answered once everything is written and the socket is gone (see below).
          stopRequests.push(socket);
          unanswered.delete(socket);
          stopNow();
          return;
        }
        // Received before the stop, so handled and written before the helper goes (see `drained`).
        if (closing) return void socket.destroy();
        let verdict: HookVerdict | undefined;
        try {
          const coalesced = held && parallel.answer(guard, held);
          // Journalled before the answer, as every event's effect is.
          if (coalesced) await guard?.flush();
          verdict = coalesced ?? (await handle(request ?? (JSON.parse(line) as DaemonRequest)));
          socket.end(`${JSON.stringify({ verdict })}\n`);
        } catch (error) {
          socket.end(
            `${JSON.stringify({ error: error instanceof Error ? error.message : String(error) })}\n`,
          );
        }
        unanswered.delete(socket);
        if (request && !held) parallel.checked(request.event, verdict);
        lastEvent = Date.now();
        folded = false;
        const whole = wholeFor;
        wholeFor = undefined;
        if (whole !== undefined && guard === undefined && !stopping) {
          // Answered quickly: the whole state is read now, ahead of the events still to come.
          queue = queue
            .then(() => (guard === undefined && !stopping ? openWhole(whole) : undefined))
            .catch(quiet);
        }
      };
      // A duplicate of a call in flight waits for it outside the queue, then takes its turn.
      const held = request && parallel.receive(request.event, request.holdMs ?? 0);
      if (held === undefined) queue = queue.then(() => answer(undefined));
      else
        void held.then((call) => {
          queue = queue.then(() => answer(call));
        });
    });
  };
  server.off('connection', holdEarly);
  server.on('connection', onConnection);
  for (const socket of early.splice(0)) if (!socket.destroyed) onConnection(socket);

  /**
   * Resolves once every event received is answered: the queue, and the requests of connections still
   * arriving (a hook that has connected but not yet sent its event gets `STOP_GRACE_MS` to send it).
   */
  const drained = async () => {
    const graceEnds = Date.now() + STOP_GRACE_MS;
    for (;;) {
      const last = queue;
      await last;
      if (last !== queue) continue;
      if (unanswered.size === 0 || Date.now() >= graceEnds) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  const onSignal = () => stopNow();
  if (options.handleSignals !== false) {
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
  }
  const timer = setInterval(
    () => {
      const quietFor = Date.now() - lastEvent;
      if (quietFor >= idleMs) stopNow();
      else if (!folded && quietFor >= FOLD_IDLE_MS && !stopping) {
        // A pause between events: the sessions' logs go into their files, in the queue's turn, and
        // the locks kept between events are given back.
        folded = true;
        const open = guard;
        if (open !== undefined) queue = queue.then(() => foldSessionLogs(open, quiet)).catch(quiet);
        queue = queue.then(giveBackKeptLocks).catch(quiet);
      } else {
        // Another process waits for a lock kept between events (a hook without the helper, `forget`).
        giveBackWantedLocks().catch(quiet);
      }
    },
    Math.min(idleMs, 250),
  );
  await stopped;
  stopping = true;
  clearInterval(timer);
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Every event received is handled and written before the helper goes, and what the guard holds
  // too: a hook waiting for its answer was not told to retry, so its outcome is this helper's to save.
  await drained();
  closing = true;
  if (guard !== undefined) await foldSessionLogs(guard, quiet);
  await guard?.close();
  await giveBackKeptLocks();
  // Nothing is written after this: the pid lets `stopDaemons` wait for the process to be gone.
  for (const socket of stopRequests) {
    socket.end(`${JSON.stringify({ stopped: true, pid: process.pid })}\n`);
    // One that asked and never reads its answer does not keep the helper from exiting.
    setTimeout(() => socket.destroy(), 1_000).unref();
  }
  for (const socket of connections) if (!stopRequests.includes(socket)) socket.destroy();
  // Node removes the socket file when the listener closes; removing it here could take a newer helper's.
  await closed;
  if (pointer !== undefined) unpoint(pointer, options.socketPath);
  process.removeListener('SIGTERM', onSignal);
  process.removeListener('SIGINT', onSignal);
}

/**
 * Writes the file that names a socket outside the state directory (see `helperPointerPath`), never
 * through a link planted in its place; returns its path, undefined when there is none to write.
 * Best effort: without it, such a helper still stops when idle.
 */
function pointTo(stateDir: string, socketPath: string): string | undefined {
  const pointer = helperPointerPath(stateDir, socketPath);
  if (pointer === undefined) return undefined;
  try {
    writeTextNoFollowSync(pointer, `${socketPath}\n`);
    return pointer;
  } catch {
    return undefined;
  }
}

/**
 * Removes the pointer file on the way out, unless it names another socket by now; read as
 * `stopDaemons` reads it (gone already, a link, too long: nothing of this helper's to remove).
 */
function unpoint(pointer: string, socketPath: string): void {
  if (pointedSocket(pointer, basename(socketPath)) === socketPath) rmSync(pointer, { force: true });
}

/** A request as sent, or undefined when it is not one (the answer then says why). */
function parseRequest(line: string): DaemonRequest | undefined {
  try {
    const request = JSON.parse(line) as DaemonRequest;
    return typeof request?.event?.action?.type === 'string' ? request : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Binds the socket; false when another helper already serves it. Helpers started at the same time
 * take turns under a lock, so a stale socket is replaced by one of them only: never two listeners
 * on one path, one of them unreachable.
 */
async function listenAlone(server: Server, path: string): Promise<boolean> {
  try {
    return await withFileLock(
      path,
      () => listen(server, path),
      () => undefined,
    );
  } catch {
    return false;
  }
}

async function listen(server: Server, path: string): Promise<boolean> {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const error = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
      server.once('error', resolve);
      server.listen(path, () => {
        server.removeListener('error', resolve);
        resolve(undefined);
      });
    });
    if (error === undefined) return true;
    if (error.code !== 'EADDRINUSE' || (await answers(path))) return false;
    rmSync(path, { force: true });
  }
  return false;
}

function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.on('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}
