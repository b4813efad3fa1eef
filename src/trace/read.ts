import { createReadStream } from 'node:fs';
import { TraceLineParser } from './parse.js';
import type { TraceEvent } from './types.js';

/**
 * Streams the events of a trace file without holding it in memory. Lines are split on `\n`
 * only, exactly as `parseTrace` splits them, so both report the same line numbers.
 */
export async function* readTraceFile(path: string): AsyncGenerator<TraceEvent, void, undefined> {
  const parser = new TraceLineParser(path);
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 16 });
  let pending = '';
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      pending += chunk;
      let newline = pending.indexOf('\n');
      let start = 0;
      while (newline !== -1) {
        const event = parser.next(pending.slice(start, newline));
        if (event) yield event;
        start = newline + 1;
        newline = pending.indexOf('\n', start);
      }
      pending = pending.slice(start);
    }
    const last = parser.next(pending);
    if (last) yield last;
  } finally {
    stream.destroy();
  }
}
