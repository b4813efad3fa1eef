import { Buffer } from 'node:buffer';
import { createReadStream, readSync } from 'node:fs';
import { NarrowingError } from '../core/errors.js';
import { TraceError } from './errors.js';
import { TraceLineParser, type TraceReadOptions } from './parse.js';
import type { TraceEvent } from './types.js';

/**
 * Streams the events of a trace file without holding it in memory. Lines are split on `\n`
 * only, exactly as `parseTrace` splits them, so both report the same line numbers.
 */
export async function* readTraceFile(
  path: string,
  options: TraceReadOptions = {},
): AsyncGenerator<TraceEvent, void, undefined> {
  const parser = new TraceLineParser(path, options);
  for await (const lines of linesByChunk(path, options)) {
    for (const line of lines) {
      const event = parser.next(line);
      if (event) yield event;
    }
  }
}

/**
 * Every event of a trace file, parsed as each chunk of it arrives: what `readTraceFile` yields,
 * without a wait between one event and the next. For readers that keep the whole trace anyway,
 * such as replay.
 */
export async function readTraceEvents(path: string, options: TraceReadOptions = {}): Promise<TraceEvent[]> {
  const parser = new TraceLineParser(path, options);
  const events: TraceEvent[] = [];
  for await (const lines of linesByChunk(path, options)) {
    for (const line of lines) {
      const event = parser.next(line);
      if (event) events.push(event);
    }
  }
  return events;
}

/**
 * Bytes read at a time. Each read is decoded in one piece, so larger reads cost fewer decodes and
 * system calls; a line that spans reads is held as bytes until it ends.
 */
const READ_BYTES = 1 << 20;

/** The longest trace line read unless the caller says otherwise: a tool result of tens of megabytes. */
export const MAX_TRACE_LINE_BYTES = 64 * 1024 * 1024;

/** The lines each chunk of the file completes, the last line (even when empty) at the end. */
function linesByChunk(path: string, options: TraceReadOptions): AsyncGenerator<string[], void, undefined> {
  const maxLineBytes = options.maxLineBytes ?? MAX_TRACE_LINE_BYTES;
  if (!Number.isSafeInteger(maxLineBytes) || maxLineBytes < 1)
    throw new NarrowingError(
      'USAGE',
      `maxLineBytes must be a whole number of bytes above 0 (got ${String(maxLineBytes)})`,
    );
  return linesOfChunks(createReadStream(path, { highWaterMark: READ_BYTES }), { maxLineBytes, source: path });
}

export interface LineBound {
  /** The longest line read, in bytes, newline excluded. */
  readonly maxLineBytes: number;
  /** Named in the error, as the trace's lines are named. */
  readonly source?: string;
}

/**
 * The UTF-8 lines of a stream of bytes, split on `\n`, as `Buffer.concat(chunks).toString('utf8')
 * .split('\n')` would give them: the lines each chunk completes, then the last line (even when empty).
 * Each line is decoded on its own: a newline byte is never part of a multi-byte character, so a line
 * decodes as it would within the whole file, and a line of ASCII stays a string of one byte a
 * character (and parses faster) even when a line near it holds other characters. The bytes of a line
 * that spans chunks wait for its end and are joined once, so reading stays linear however long a line
 * is. A line longer than `bound.maxLineBytes` is a `TraceError` naming it, thrown as soon as that
 * many of its bytes have arrived, so a file with no end of line costs one bound of memory, not the
 * whole file. The stream is destroyed at the end.
 */
export async function* linesOfChunks(
  chunks: AsyncIterable<Uint8Array> & { destroy?: () => void },
  bound: LineBound = { maxLineBytes: MAX_TRACE_LINE_BYTES },
): AsyncGenerator<string[], void, undefined> {
  const splitter = new LineSplitter(bound);
  try {
    for await (const chunk of chunks) {
      const lines = splitter.linesOf(chunk);
      if (lines !== undefined) yield lines;
    }
    yield [splitter.last()];
  } finally {
    chunks.destroy?.();
  }
}

/**
 * The lines of an open file, read synchronously a megabyte at a time and split as `linesOfChunks`
 * splits a stream's (the same lines, the same errors), for a reader that takes the whole file at
 * once anyway: no stream, no promise per read. The descriptor stays open; the caller closes it.
 */
export function* linesOfFile(
  fd: number,
  bound: LineBound = { maxLineBytes: MAX_TRACE_LINE_BYTES },
): Generator<string[], void, undefined> {
  const splitter = new LineSplitter(bound);
  for (;;) {
    // A buffer of its own for each read: the splitter may keep the end of one, a line not yet ended.
    const bytes = Buffer.allocUnsafe(READ_BYTES);
    const count = readSync(fd, bytes, 0, READ_BYTES, null);
    if (count === 0) break;
    const lines = splitter.linesOf(bytes.subarray(0, count));
    if (lines !== undefined) yield lines;
  }
  yield [splitter.last()];
}

/** Splits chunks of bytes into lines, for `linesOfChunks` and `linesOfFile`. */
class LineSplitter {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  /** Lines given before the current chunk's: the next line's number is one more. */
  private linesBefore = 0;

  constructor(private readonly bound: LineBound) {}

  /** The lines `chunk` completes; undefined when it completes none. */
  linesOf(chunk: Uint8Array): string[] | undefined {
    const { maxLineBytes } = this.bound;
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    let newline = bytes.indexOf(NEWLINE);
    if (newline === -1) {
      if (this.pendingBytes + bytes.length > maxLineBytes)
        throw this.tooLong(this.linesBefore + 1, this.pendingBytes + bytes.length);
      if (bytes.length > 0) this.pending.push(bytes);
      this.pendingBytes += bytes.length;
      return undefined;
    }
    if (this.pendingBytes + newline > maxLineBytes)
      throw this.tooLong(this.linesBefore + 1, this.pendingBytes + newline);
    const lines: string[] = [];
    lines.push(
      this.pending.length === 0
        ? bytes.toString('utf8', 0, newline)
        : Buffer.concat([...this.pending, bytes.subarray(0, newline)]).toString('utf8'),
    );
    let start = newline + 1;
    newline = bytes.indexOf(NEWLINE, start);
    while (newline !== -1) {
      if (newline - start > maxLineBytes)
        throw this.tooLong(this.linesBefore + lines.length + 1, newline - start);
      lines.push(bytes.toString('utf8', start, newline));
      start = newline + 1;
      newline = bytes.indexOf(NEWLINE, start);
    }
    this.pendingBytes = bytes.length - start;
    if (this.pendingBytes > maxLineBytes)
      throw this.tooLong(this.linesBefore + lines.length + 1, this.pendingBytes);
    this.pending = this.pendingBytes > 0 ? [bytes.subarray(start)] : [];
    this.linesBefore += lines.length;
    return lines;
  }

  /** The last line, after the last newline (empty when the bytes end with one). */
  last(): string {
    return Buffer.concat(this.pending).toString('utf8');
  }

  private tooLong(line: number, bytes: number): TraceError {
    return new TraceError(
      `the line is longer than ${describeBytes(this.bound.maxLineBytes)} (${bytes.toLocaleString('en-US')} bytes ` +
        'read of it so far): a trace holds one event a line, so shorten the result this event holds ' +
        '(keep the start and the end of a long output) or raise maxLineBytes',
      line,
      this.bound.source,
    );
  }
}

const NEWLINE = 0x0a;

function describeBytes(bytes: number): string {
  const mebibytes = bytes / (1024 * 1024);
  return Number.isInteger(mebibytes) ? `${mebibytes} MiB` : `${bytes.toLocaleString('en-US')} bytes`;
}
