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

/** The lines each chunk of the file completes, the last line (even when empty) at the end. */
async function* linesByChunk(path: string): AsyncGenerator<string[], void, undefined> {
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 16 });
  // The pieces of the line being read: only new text is searched for a newline, and a long line
  // is joined once, so reading stays linear however long a line is.
  let pieces: string[] = [];
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      const lines: string[] = [];
      let start = 0;
      let newline = chunk.indexOf('\n');
      while (newline !== -1) {
        const piece = chunk.slice(start, newline);
        lines.push(pieces.length === 0 ? piece : pieces.join('') + piece);
        pieces = [];
        start = newline + 1;
        newline = chunk.indexOf('\n', start);
      }
      if (start < chunk.length) pieces.push(chunk.slice(start));
      if (lines.length > 0) yield lines;
    }
    yield [pieces.join('')];
  } finally {
    stream.destroy();
  }
}
