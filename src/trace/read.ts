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
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 16 });
  // The pieces of the line being read: only new text is searched for a newline, and a long line
  // is joined once, so reading stays linear however long a line is.
  let pieces: string[] = [];
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      let start = 0;
      let newline = chunk.indexOf('\n');
      while (newline !== -1) {
        const piece = chunk.slice(start, newline);
        const line = pieces.length === 0 ? piece : pieces.join('') + piece;
        pieces = [];
        const event = parser.next(line);
        if (event) yield event;
        start = newline + 1;
        newline = chunk.indexOf('\n', start);
      }
      if (start < chunk.length) pieces.push(chunk.slice(start));
    }
    const last = parser.next(pieces.join(''));
    if (last) yield last;
  } finally {
    stream.destroy();
  }
}
