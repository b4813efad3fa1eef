import type { Readable, Writable } from 'node:stream';
import { type JSONRPCMessage, serializeMessage, type Transport } from '@modelcontextprotocol/server';
import { parseMessageLine } from './json-rpc-line.js';

/** A larger line is not a message anyone meant to send; the connection is closed rather than buffering on. */
const MAX_LINE_BYTES = 64 * 1024 * 1024;
const SHOWN_CHARS = 120;
const CR = 13;

/**
 * Whether a line starting with this character may be blank: every character `trim` removes is a
 * space, a control character or above U+007E, so a line starting with `{` (every message) is not.
 */
function mayBeBlank(first: number): boolean {
  return first <= 32 || first > 126;
}

/**
 * The text of the line in `bytes` from `start` up to the newline at `end`. A CR before the newline
 * (CRLF) is dropped: a byte that UTF-8 never uses inside a character.
 */
function lineText(bytes: Buffer, start: number, end: number): string {
  return bytes.toString('utf8', start, end > start && bytes[end - 1] === CR ? end - 1 : end);
}

/** The text of a line that arrived in several chunks. */
function joinedLineText(pieces: readonly Buffer[]): string {
  const line = Buffer.concat(pieces);
  return lineText(line, 0, line.length);
}

/** A problem on the wire, described from the proxy's side: the message names the peer already. */
export class WireError extends Error {
  override readonly name = 'WireError';
}

/**
 * Newline-delimited JSON-RPC over a pair of streams: the stdio binding, on either side of the
 * proxy. Unlike the SDK's stdio transports, which skip a line that is not JSON without a word,
 * it reports every malformed line through `onerror` (and goes on), so that a server that prints
 * its logs to stdout, or a confused client, shows up on stderr instead of as a silent hang.
 */
export class JsonLineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private closed = false;
  private batch: OutgoingBatch | undefined;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    /** Who is on the other end, for the messages: "the client", "the MCP server". */
    private readonly peer: string,
    /**
     * Answer a line that is not a valid request with the JSON-RPC error for it (-32700 when it is
     * not JSON, -32600 when it is not a request), as a server must; on the side facing a client.
     */
    private readonly answerInvalid = false,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onStreamError);
    this.input.on('end', this.onEnd);
    this.input.on('close', this.onEnd);
    this.output.on('error', this.onOutputError);
  }

  /**
   * Queues the message; every message sent in the same tick goes out in one write (under load, many
   * answers are ready at once, and each write to a pipe costs a system call and a wake-up of the
   * reader). Resolves once the write is handed to the stream, or once the stream drains.
   */
  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`the connection to ${this.peer} is closed`));
    if (!this.batch) {
      this.batch = new OutgoingBatch();
      process.nextTick(this.flush);
    }
    return this.batch.add(serializeMessage(message));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('close', this.onEnd);
    // A stream still flowing would keep the process alive after everything else has stopped.
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.pending = [];
    this.onclose?.();
  }

  private readonly flush = () => {
    const batch = this.batch;
    this.batch = undefined;
    batch?.writeTo(this.output);
  };

  private readonly onData = (chunk: Buffer) => {
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      // A line whole in this chunk is decoded where it lies, without a view of it made first.
      const text =
        this.pending.length === 0
          ? lineText(chunk, start, newline)
          : joinedLineText([...this.pending, chunk.subarray(start, newline)]);
      this.pending = [];
      this.pendingBytes = 0;
      start = newline + 1;
      this.deliver(text);
      if (this.closed) return;
    }
    if (start < chunk.length) {
      this.pending.push(chunk.subarray(start));
      this.pendingBytes += chunk.length - start;
      if (this.pendingBytes > MAX_LINE_BYTES) {
        this.onerror?.(
          new WireError(`${this.peer} sent a line longer than ${MAX_LINE_BYTES} bytes; closing`),
        );
        void this.close();
      }
    }
  };

  private deliver(line: string): void {
    if (line.length === 0 || (mayBeBlank(line.charCodeAt(0)) && line.trim() === '')) return;
    let message: JSONRPCMessage;
    try {
      message = parseMessageLine(line);
    } catch (error) {
      const why = error instanceof SyntaxError ? 'is not JSON' : 'is not a JSON-RPC message';
      const shown = line.length > SHOWN_CHARS ? `${line.slice(0, SHOWN_CHARS)}…` : line;
      this.onerror?.(new WireError(`${this.peer} sent a line that ${why} (ignored): ${shown}`));
      if (this.answerInvalid) this.answerInvalidLine(line, error instanceof SyntaxError);
      return;
    }
    this.onmessage?.(message);
  }

  /** JSON-RPC 2.0 §5.1: a parse error, or an invalid request, is answered; with `id: null` when none is readable. */
  private answerInvalidLine(line: string, notJson: boolean): void {
    let id: string | number | null = null;
    if (!notJson) {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        value = undefined;
      }
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
        const record = value as Record<string, unknown>;
        // A malformed response is the other side's problem to notice: it gets no answer.
        if ('result' in record || 'error' in record) return;
        if (typeof record.id === 'string' || Number.isSafeInteger(record.id))
          id = record.id as string | number;
      }
    }
    const error = notJson
      ? { code: -32700, message: 'Parse error: the line is not JSON' }
      : { code: -32600, message: 'Invalid Request: the line is not a JSON-RPC 2.0 request' };
    this.send({ jsonrpc: '2.0', id, error } as unknown as JSONRPCMessage).catch(() => undefined);
  }

  private readonly onEnd = () => {
    void this.close();
  };

  private readonly onStreamError = (error: Error) => {
    this.onerror?.(error);
  };

  private readonly onOutputError = (error: NodeJS.ErrnoException) => {
    if (this.closed) return;
    // EPIPE: the other end has gone, which `end` or `close` on the input reports on its own.
    if (error.code !== 'EPIPE') this.onerror?.(error);
    void this.close();
  };
}

/** The lines sent during one tick, and the one promise their senders wait on. */
class OutgoingBatch {
  private readonly lines: string[] = [];
  private settle!: (error?: Error) => void;
  private readonly written = new Promise<void>((resolve, reject) => {
    this.settle = (error) => (error ? reject(error) : resolve());
  });

  add(line: string): Promise<void> {
    this.lines.push(line);
    return this.written;
  }

  writeTo(output: Writable): void {
    const flushed = output.write(this.lines.join(''), (error) => {
      if (error) this.settle(error);
    });
    if (flushed) this.settle();
    else output.once('drain', () => this.settle());
  }
}
