import { Buffer } from 'node:buffer';
import { createReadStream } from 'node:fs';
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
  for await (const lines of linesByChunk(path)) {
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
  for await (const lines of linesByChunk(path)) {
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

/** The lines each chunk of the file completes, the last line (even when empty) at the end. */
function linesByChunk(path: string): AsyncGenerator<string[], void, undefined> {
  return linesOfChunks(createReadStream(path, { highWaterMark: READ_BYTES }));
}

/**
 * The UTF-8 lines of a stream of bytes, split on `\n`, as `Buffer.concat(chunks).toString('utf8')
 * .split('\n')` would give them: the lines each chunk completes, then the last line (even when empty).
 * Each line is decoded on its own: a newline byte is never part of a multi-byte character, so a line
 * decodes as it would within the whole file, and a line of ASCII stays a string of one byte a
 * character (and parses faster) even when a line near it holds other characters. The bytes of a line
 * that spans chunks wait for its end and are joined once, so reading stays linear however long a line
 * is. The stream is destroyed at the end.
 */
export async function* linesOfChunks(
  chunks: AsyncIterable<Uint8Array> & { destroy?: () => void },
): AsyncGenerator<string[], void, undefined> {
  let pending: Uint8Array[] = [];
  try {
    for await (const chunk of chunks) {
      const bytes = Buffer.isBuffer(chunk)
        ? chunk
        : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
      let newline = bytes.indexOf(NEWLINE);
      if (newline === -1) {
        if (bytes.length > 0) pending.push(bytes);
        continue;
      }
      const lines: string[] = [];
      lines.push(
        pending.length === 0
          ? bytes.toString('utf8', 0, newline)
          : Buffer.concat([...pending, bytes.subarray(0, newline)]).toString('utf8'),
      );
      let start = newline + 1;
      newline = bytes.indexOf(NEWLINE, start);
      while (newline !== -1) {
        lines.push(bytes.toString('utf8', start, newline));
        start = newline + 1;
        newline = bytes.indexOf(NEWLINE, start);
      }
      pending = start < bytes.length ? [bytes.subarray(start)] : [];
      yield lines;
    }
    yield [Buffer.concat(pending).toString('utf8')];
  } finally {
    chunks.destroy?.();
  }
}

const NEWLINE = 0x0a;
