import type { TraceEvent } from './types.js';

/** One trace line. */
export function formatTraceEvent(event: TraceEvent): string {
  return JSON.stringify(event);
}

/** A whole trace file: one event per line, ending with a newline. */
export function formatTrace(events: Iterable<TraceEvent>): string {
  let out = '';
  for (const event of events) out += `${formatTraceEvent(event)}\n`;
  return out;
}
