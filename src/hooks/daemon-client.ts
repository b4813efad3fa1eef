/**
 * The hook's helper: a process per project that keeps the guard open between hook events, so a hook
 * process only parses its payload, asks, and answers. It starts itself on the first event, and goes
 * away after a while without events. Without it (it cannot start, Windows, `--no-daemon`) each hook
 * process handles its event itself, the same way, only slower.
 */
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  rmSync,
  statSync,
  utimesSync,
} from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve as resolvePath } from 'node:path';
import { exchangeLine, LocalSocketError } from '../node/local-socket.js';
import { isPrivateFolder, userTemporaryDir } from '../node/user-dirs.js';
import type { HookEvent, HookVerdict } from './event.js';
import { textKey } from './text-key.js';

/** Longest socket path that binds everywhere (Linux allows 107 bytes, macOS 103). */
const MAX_SOCKET_PATH = 100;
/** A helper's socket in the state directory, and the file there naming one that lives elsewhere. */
const SOCKET_NAME = /^hookd-[0-9a-f]{16}\.sock$/;
const POINTER_NAME = /^(hookd-[0-9a-f]{16}\.sock)\.where$/;
/** Longer than any socket path that binds: a pointer file this large names none. */
const MAX_POINTER_BYTES = 4096;
const MAX_RESPONSE_BYTES = 1024 * 1024;
/**
 * How long a helper being started is left to come up before another hook process starts one: past
 * a helper's start on a loaded machine. Hook processes of a burst of parallel calls that find no
 * helper handle their events themselves, and only the first of them starts one.
 */
const STARTING_MS = 10_000;

export interface DaemonIdentity {
  readonly stateDir: string;
  readonly policy?: string;
  readonly preset?: string;
  /** The store, as given on the command line (a Redis URL reaches the helper through its environment, never its arguments). */
  readonly store?: string;
}

/** The variable that hands the helper its store. */
export const DAEMON_STORE_VARIABLE = 'NARROWING_HOOK_STORE';

export interface DaemonRequest {
  readonly event: HookEvent;
  readonly failClosed?: boolean;
  /**
   * How long the helper may hold a duplicate of a call in flight for the first's end, in
   * milliseconds: what the hook can wait within its deadline. Absent or 0: nothing is held.
   */
  readonly holdMs?: number;
}

/** The helper's socket for this state directory, policy and build: a new build or policy gets a helper of its own. */
export function daemonSocketPath(identity: DaemonIdentity, build = buildStamp()): string {
  const key = textKey(
    JSON.stringify([
      identity.stateDir,
      identity.policy ?? '',
      identity.preset ?? '',
      identity.store ?? '',
      build,
    ]),
  );
  const inState = join(identity.stateDir, `hookd-${key}.sock`);
  if (Buffer.byteLength(inState) <= MAX_SOCKET_PATH) return inState;
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  const dir = userTemporaryDir(uid);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!isPrivateFolder(lstatSync(dir), uid)) {
    throw new Error(`${dir} is not a private directory of this user; the hook helper will not use it`);
  }
  return join(dir, `hookd-${key}.sock`);
}

function buildStamp(): string {
  const entry = process.argv[1] ?? '';
  try {
    return `${entry}@${statSync(entry).mtimeMs}`;
  } catch {
    return entry;
  }
}

/** The helper is not there (never started, exited, or its socket is stale). */
export class NoDaemonError extends Error {}

/**
 * Asks the helper for the verdict on one event. `leftToExit`: the caller is a hook process that exits
 * right after the answer, so the connection is left to close with the process.
 */
export async function askDaemon(
  socketPath: string,
  request: DaemonRequest,
  timeoutMs: number,
  leftToExit = false,
): Promise<HookVerdict> {
  let line: string;
  try {
    line = await exchangeLine({
      path: socketPath,
      line: `${JSON.stringify(request)}\n`,
      timeoutMs,
      maxAnswerChars: MAX_RESPONSE_BYTES,
      leftToExit,
    });
  } catch (error) {
    throw helperError(error, timeoutMs);
  }
  const answer = JSON.parse(line) as { verdict?: HookVerdict; error?: string };
  if (answer.verdict) return answer.verdict;
  throw new Error(answer.error ?? 'the hook helper gave no verdict');
}

/** Codes of a connection that found no helper listening. */
const ABSENT = ['ENOENT', 'ECONNREFUSED', 'ENOTDIR', 'ENOTSOCK', 'EACCES'];

function helperError(error: unknown, timeoutMs: number): Error {
  if (!(error instanceof LocalSocketError)) return error as Error;
  if (ABSENT.includes(error.code)) return new NoDaemonError(error.message);
  if (error.code === 'ETIMEDOUT') return new Error(`the hook helper did not answer within ${timeoutMs} ms`);
  if (error.code === 'ECLOSED') return new Error('the hook helper closed the connection');
  if (error.code === 'ETOOLONG') return new Error('the hook helper answered too much');
  return error;
}

/** The file that says a helper for `socketPath` is being started; the helper removes it once it listens. */
export function startingMarkerPath(socketPath: string): string {
  return `${socketPath}.starting`;
}

/**
 * True for the hook process that is to start the helper: the first to find none, or the first after
 * a start that did not come up within `STARTING_MS`.
 */
export function claimHelperStart(socketPath: string, now = Date.now()): boolean {
  const marker = startingMarkerPath(socketPath);
  try {
    // Exclusive creation never follows a link planted in its place.
    closeSync(openSync(marker, 'wx', 0o600));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return true;
  }
  try {
    const stat = lstatSync(marker);
    if (!stat.isFile() || now - stat.mtimeMs < STARTING_MS) return false;
    utimesSync(marker, new Date(now), new Date(now));
    return true;
  } catch {
    return true;
  }
}

/**
 * Starts the helper in the background; it outlives this process and stops by itself when idle. Not
 * when another hook process has just started one that is still coming up.
 */
export function startDaemon(socketPath: string, identity: DaemonIdentity, idleMs: number | undefined): void {
  const entry = process.argv[1];
  if (entry === undefined || !claimHelperStart(socketPath)) return;
  const args = [
    entry,
    'hook',
    'serve',
    '--socket',
    socketPath,
    '--state-dir',
    identity.stateDir,
    ...(identity.policy !== undefined ? ['--policy', identity.policy] : []),
    ...(identity.preset !== undefined ? ['--preset', identity.preset] : []),
    ...(idleMs !== undefined ? ['--idle-ms', String(idleMs)] : []),
  ];
  const env = { ...process.env };
  delete env[DAEMON_STORE_VARIABLE];
  if (identity.store !== undefined) env[DAEMON_STORE_VARIABLE] = identity.store;
  // Loaded here only: a hook process that finds the helper never starts one.
  const { spawn } = process.getBuiltinModule('node:child_process');
  const child = spawn(process.execPath, args, { detached: true, stdio: 'ignore', env });
  child.on('error', () => undefined);
  child.unref();
}

/**
 * The file in the state directory that names the helper's socket when the socket lives elsewhere
 * (the private folder under the system's temporary one, for a project path too long for a socket):
 * how `stopDaemons` finds that helper. Undefined when the socket is in the state directory itself.
 */
export function helperPointerPath(stateDir: string, socketPath: string): string | undefined {
  if (resolvePath(dirname(socketPath)) === resolvePath(stateDir)) return undefined;
  return join(stateDir, `${basename(socketPath)}.where`);
}

/**
 * Stops the helpers serving `stateDir` (every policy and build), and waits until each has written
 * what it holds and its process has exited (at most `timeoutMs`): the folder can be removed then.
 * For tests and benchmarks, and before deleting a state directory. A helper whose socket lives
 * outside the state directory is found by the file there that names it (see `helperPointerPath`).
 */
export async function stopDaemons(stateDir: string, timeoutMs = 10_000): Promise<void> {
  let names: string[];
  try {
    names = readdirSync(stateDir);
  } catch {
    return;
  }
  const sockets: { readonly path: string; readonly pointer?: string }[] = [];
  for (const name of names) {
    if (SOCKET_NAME.test(name)) sockets.push({ path: join(stateDir, name) });
    const pointed = POINTER_NAME.exec(name)?.[1];
    if (pointed === undefined) continue;
    const pointer = join(stateDir, name);
    const path = pointedSocket(pointer, pointed);
    if (path !== undefined) sockets.push({ path, pointer });
  }
  const deadline = Date.now() + timeoutMs;
  await Promise.all(
    sockets.map(async ({ path, pointer }) => {
      let pid = await askToStop(path, timeoutMs);
      // A helper between binding its socket and listening on it refuses a connection for a moment:
      // asked again while its socket is there (a socket no helper listens on is asked until the deadline).
      while (pid === undefined && existsSync(path) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        pid = await askToStop(path, Math.max(1, deadline - Date.now()));
      }
      // A helper that said it stopped is gone once its process is; one that did not answer, or that
      // serves from this very process, once its socket is.
      const running =
        pid === undefined || pid === process.pid ? () => existsSync(path) : () => processExists(pid);
      while (running() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      // The helper removes its own; this one was left by a helper that could not (killed).
      if (pointer !== undefined && !existsSync(path)) rmSync(pointer, { force: true });
    }),
  );
}

/**
 * The socket a pointer file names, read without following a link and no further than
 * `MAX_POINTER_BYTES`; undefined unless it is an absolute path to a socket of the pointer's own name.
 */
export function pointedSocket(pointer: string, socketName: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(pointer, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return undefined;
  }
  try {
    if (!fstatSync(fd).isFile()) return undefined;
    const buffer = Buffer.alloc(MAX_POINTER_BYTES);
    const count = readSync(fd, buffer, 0, buffer.length, 0);
    const path = buffer.toString('utf8', 0, count).trim();
    if (count === buffer.length || !isAbsolute(path) || basename(path) !== socketName) return undefined;
    return path;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Sends the stop request; resolves to the helper's pid once it has written everything, else undefined. */
function askToStop(path: string, timeoutMs: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    // Loaded here only: a hook process never stops helpers, and `node:net` costs it its start.
    const socket = process.getBuiltinModule('node:net').connect(path);
    let text = '';
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      try {
        const pid = (JSON.parse(text.slice(0, text.indexOf('\n'))) as { pid?: unknown }).pid;
        resolve(typeof pid === 'number' && Number.isSafeInteger(pid) && pid > 0 ? pid : undefined);
      } catch {
        resolve(undefined);
      }
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write('{"stop":true}\n'));
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (text.includes('\n') || text.length > 1024) finish();
    });
    socket.on('error', finish);
    socket.on('close', finish);
  });
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
