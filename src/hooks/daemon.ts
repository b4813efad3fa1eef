/**
 * The hook helper's side: one guard, open for as long as events keep coming, that answers hook
 * processes over a local socket. Events are handled one at a time, each in its session's turn (the
 * same session files and locks a hook process without the helper uses), so the helper and such
 * processes can run side by side. It exits after `idleMs` without an event.
 */
import { rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { dirname } from 'node:path';
import type { PresetName } from '../core/policy.js';
import { openGuard, type StoreOption } from '../guard/open.js';
import type { GuardSession } from '../guard/session.js';
import { withSessionState } from '../guard/session-state.js';
import type { DaemonRequest } from './daemon-client.js';
import type { HookVerdict } from './event.js';
import { applyHookEvent } from './handle.js';
import { MAX_PAYLOAD_BYTES } from './payload.js';

export interface DaemonOptions {
  readonly socketPath: string;
  readonly stateDir: string;
  readonly policy?: string;
  readonly preset?: PresetName;
  /** Default: the policy's `store`, else `file`. */
  readonly store?: StoreOption;
  /** Default 10 minutes. */
  readonly idleMs?: number;
}

const DEFAULT_IDLE_MS = 10 * 60 * 1000;
const MAX_REQUEST_CHARS = 2 * MAX_PAYLOAD_BYTES;
/** The request that stops the helper at once (what `stopDaemons` sends). */
const STOP = '{"stop":true}';

/** Serves until idle; resolves when the helper has stopped. */
export async function serveHooks(options: DaemonOptions): Promise<void> {
  const server = createServer();
  if (!(await listen(server, options.socketPath))) return;
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  let guard: GuardSession | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  let lastEvent = Date.now();
  const quiet = () => undefined;

  const handle = async (request: DaemonRequest): Promise<HookVerdict> => {
    guard ??= await openGuard({
      ...(options.policy !== undefined && { policy: options.policy }),
      ...(options.preset !== undefined && { preset: options.preset }),
      ...(options.store !== undefined && { store: options.store }),
      stateDir: options.stateDir,
      journal: true,
      workspaceRoot: request.event.workspace ?? dirname(options.stateDir),
      sessionId: request.event.sessionId,
      onProblem: quiet,
    });
    const open = guard;
    return withSessionState(
      open,
      (session) =>
        applyHookEvent(open, request.event, session, { failClosed: request.failClosed === true }, quiet),
      { sessionId: request.event.sessionId, onProblem: quiet },
    );
  };

  server.on('connection', (socket: Socket) => {
    lastEvent = Date.now();
    let text = '';
    socket.setEncoding('utf8');
    socket.on('error', quiet);
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (text.length > MAX_REQUEST_CHARS) return void socket.destroy();
      const end = text.indexOf('\n');
      if (end === -1) return;
      const line = text.slice(0, end);
      const run = queue.then(async () => {
        if (line === STOP) {
          socket.end('{"stopped":true}\n');
          lastEvent = 0;
          return;
        }
        try {
          const verdict = await handle(JSON.parse(line) as DaemonRequest);
          socket.end(`${JSON.stringify({ verdict })}\n`);
        } catch (error) {
          socket.end(
            `${JSON.stringify({ error: error instanceof Error ? error.message : String(error) })}\n`,
          );
        }
        lastEvent = Date.now();
      });
      queue = run;
    });
  });

  await new Promise<void>((resolve) => {
    const timer = setInterval(
      () => {
        if (Date.now() - lastEvent < idleMs) return;
        clearInterval(timer);
        resolve();
      },
      Math.min(idleMs, 250),
    );
  });
  // What the guard holds is written before the socket goes: a stopped helper has saved everything.
  await queue;
  await guard?.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Binds the socket; false when another helper already serves it. A stale socket is replaced. */
async function listen(server: Server, path: string): Promise<boolean> {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const error = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
      server.once('error', resolve);
      server.listen(path, () => resolve(undefined));
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
