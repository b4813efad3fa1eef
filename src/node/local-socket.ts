/**
 * One question and its answer over a local socket, for a process that starts on every tool call (the
 * hook): a line is sent, the answer's first line comes back. `node:net` costs such a process more
 * CPU to load than everything else it does (its sockets are streams, and loading it loads Node's
 * whole stream machinery), so the socket is driven through the handle `node:net` itself wraps (the
 * libuv pipe Node exposes as `process.binding('pipe_wrap')`), on the versions of Node this was tried
 * on. Anywhere else, or when Node would warn about that use (`--pending-deprecation`), `node:net` does
 * the same work.
 */

import { elapsed } from './elapsed.js';

/** The Node majors whose pipe handle is driven directly (see `rawPipeFor`); `node:net` on the others. */
const RAW_PIPE_MAJORS: readonly number[] = [20, 22, 24];

export interface LineExchange {
  /** The socket's path. */
  readonly path: string;
  /** What is sent, newline included. */
  readonly line: string;
  readonly timeoutMs: number;
  /**
   * Rejects once the answer grows past this many characters without a newline (counted in bytes
   * where the pipe handle is driven directly: never fewer than the characters they hold).
   */
  readonly maxAnswerChars: number;
  /**
   * The process exits right after the answer: the connection is left to close with it rather than
   * closed (closing a `node:net` socket makes the process's stderr stream, a cost on every event).
   */
  readonly leftToExit?: boolean;
  /** Always through `node:net` (the way every Node without the pipe handle goes). */
  readonly throughNet?: boolean;
}

/** Why an exchange failed: `code` is the system's (`ENOENT`, `ECONNREFUSED`…) or one of these. */
export class LocalSocketError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** Resolves with the answer's first line (without its newline). */
export function exchangeLine(exchange: LineExchange): Promise<string> {
  const raw = exchange.throughNet ? undefined : rawPipe();
  return raw === undefined ? exchangeWithNet(exchange) : exchangeWithPipe(raw, exchange);
}

/** The pieces of Node's pipe bindings used here, as Node 20 to 24 shape them. */
interface RawPipe {
  readonly Pipe: new (type: number) => PipeHandle;
  readonly PipeConnectWrap: new () => { oncomplete?: (status: number) => void; address?: string };
  readonly socketType: number;
  readonly WriteWrap: new () => WriteRequest;
  readonly streamBaseState: Int32Array;
  readonly kReadBytesOrError: number;
  readonly kArrayBufferOffset: number;
}

interface PipeHandle {
  connect(request: object, path: string): number;
  writeUtf8String(request: WriteRequest, text: string): number;
  readStart(): number;
  close(): void;
  unref(): void;
  onread: (buffer: ArrayBuffer | undefined) => void;
}

interface WriteRequest {
  handle?: PipeHandle;
  oncomplete?: (status: number) => void;
  async?: boolean;
}

/** The pipe bindings when they are to be used here, else undefined (then `node:net` is). */
function rawPipe(): RawPipe | undefined {
  const major = Number(process.versions.node.split('.')[0]);
  if (!RAW_PIPE_MAJORS.includes(major) || process.platform === 'win32') return undefined;
  // Node warns about `process.binding` under this flag (or its variable): the public module is used instead.
  const flags = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
  if (flags.includes('--pending-deprecation') || process.env.NODE_PENDING_DEPRECATION === '1')
    return undefined;
  const binding = (process as unknown as { binding?: (name: string) => Record<string, unknown> }).binding;
  if (typeof binding !== 'function') return undefined;
  try {
    const pipe = binding.call(process, 'pipe_wrap');
    const stream = binding.call(process, 'stream_wrap');
    const constants = pipe.constants as { SOCKET?: unknown } | undefined;
    const raw = {
      Pipe: pipe.Pipe,
      PipeConnectWrap: pipe.PipeConnectWrap,
      socketType: constants?.SOCKET,
      WriteWrap: stream.WriteWrap,
      streamBaseState: stream.streamBaseState,
      kReadBytesOrError: stream.kReadBytesOrError,
      kArrayBufferOffset: stream.kArrayBufferOffset,
    };
    const shaped =
      typeof raw.Pipe === 'function' &&
      typeof raw.PipeConnectWrap === 'function' &&
      typeof raw.WriteWrap === 'function' &&
      typeof raw.socketType === 'number' &&
      raw.streamBaseState instanceof Int32Array &&
      typeof raw.kReadBytesOrError === 'number' &&
      typeof raw.kArrayBufferOffset === 'number';
    return shaped ? (raw as RawPipe) : undefined;
  } catch {
    return undefined;
  }
}

const ignoreRead = (): void => undefined;

const NEWLINE = 0x0a;

/** libuv's code for the end of a stream, as Node reports it on every Unix (`UV_EOF`). */
const UV_EOF = -4095;

function exchangeWithPipe(raw: RawPipe, exchange: LineExchange): Promise<string> {
  return new Promise((resolve, reject) => {
    const handle = new raw.Pipe(raw.socketType);
    // The answer's bytes, decoded once its line is whole: a character may arrive split over two
    // reads, and a newline byte is never part of another character. (A `TextDecoder` would cost the
    // process its set-up on every event.)
    const parts: Uint8Array[] = [];
    let size = 0;
    let settled = false;
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      // Node's handle takes a function only (anything else aborts the process).
      handle.onread = ignoreRead;
      if (exchange.leftToExit) handle.unref();
      else handle.close();
      settle();
    };
    const fail = (status: number, doing: string) =>
      finish(() => reject(systemError(status, doing, exchange.path)));
    // Ended by the answer, or by the time: whichever comes second changes nothing (see `elapsed`).
    void elapsed(exchange.timeoutMs).then(() => finish(() => reject(timedOut(exchange.timeoutMs))));
    const connecting = new raw.PipeConnectWrap();
    connecting.address = exchange.path;
    connecting.oncomplete = (status: number) => {
      if (settled) return;
      if (status < 0) return fail(status, 'connect');
      handle.onread = (buffer) => {
        const count = raw.streamBaseState[raw.kReadBytesOrError] ?? 0;
        if (count === 0 || settled) return;
        if (count < 0) {
          if (count === UV_EOF) finish(() => reject(closedEarly()));
          else fail(count, 'read');
          return;
        }
        if (buffer === undefined) return;
        const offset = raw.streamBaseState[raw.kArrayBufferOffset] ?? 0;
        const bytes = new Uint8Array(buffer, offset, count);
        const end = bytes.indexOf(NEWLINE);
        if (end !== -1) {
          parts.push(bytes.subarray(0, end));
          const line = Buffer.concat(parts, size + end).toString('utf8');
          return finish(() => resolve(line));
        }
        parts.push(bytes);
        size += count;
        if (size > exchange.maxAnswerChars) finish(() => reject(tooLong()));
      };
      const reading = handle.readStart();
      if (reading < 0) return fail(reading, 'read');
      const writing = new raw.WriteWrap();
      writing.handle = handle;
      writing.async = false;
      // A write libuv finishes later reports here; one that failed at once, by its return.
      writing.oncomplete = (written: number) => {
        if (written < 0) fail(written, 'write');
      };
      const sent = handle.writeUtf8String(writing, exchange.line);
      if (sent < 0) fail(sent, 'write');
    };
    const status = handle.connect(connecting, exchange.path);
    if (status < 0) fail(status, 'connect');
  });
}

function exchangeWithNet(exchange: LineExchange): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = process.getBuiltinModule('node:net').connect(exchange.path);
    let text = '';
    let settled = false;
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      if (exchange.leftToExit) socket.unref();
      else socket.destroy();
      settle();
    };
    void elapsed(exchange.timeoutMs).then(() => finish(() => reject(timedOut(exchange.timeoutMs))));
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(exchange.line));
    socket.on('data', (chunk: string) => {
      text += chunk;
      answered(text, exchange.maxAnswerChars, (line) => finish(() => resolve(line)), finish, reject);
    });
    socket.on('error', (error: NodeJS.ErrnoException) =>
      finish(() => reject(new LocalSocketError(error.message, error.code ?? 'EIO'))),
    );
    socket.on('close', () => finish(() => reject(closedEarly())));
  });
}

/** Settles once `text` holds a whole line, or has grown too long without one. */
function answered(
  text: string,
  maxChars: number,
  resolveLine: (line: string) => void,
  finish: (settle: () => void) => void,
  reject: (error: Error) => void,
): void {
  const end = text.indexOf('\n');
  if (end !== -1) resolveLine(text.slice(0, end));
  else if (text.length > maxChars) finish(() => reject(tooLong()));
}

function tooLong(): LocalSocketError {
  return new LocalSocketError('the answer is too long', 'ETOOLONG');
}

function timedOut(ms: number): LocalSocketError {
  return new LocalSocketError(`no answer within ${ms} ms`, 'ETIMEDOUT');
}

function closedEarly(): LocalSocketError {
  return new LocalSocketError('the connection was closed before an answer', 'ECLOSED');
}

function systemError(status: number, doing: string, path: string): LocalSocketError {
  let name: string;
  try {
    name = process.getBuiltinModule('node:util').getSystemErrorName(status);
  } catch {
    name = `E${-status}`;
  }
  return new LocalSocketError(`${doing} ${name} ${path}`, name);
}
