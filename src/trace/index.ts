export { TraceError } from './errors.js';
export { traceResultToOutcome } from './outcome.js';
export { parseTrace, TraceLineParser, type TraceReadOptions } from './parse.js';
export { readTraceEvents, readTraceFile } from './read.js';
export type {
  CallEvent,
  CompactEvent,
  McpContent,
  MetaEvent,
  SessionEvent,
  ToolInfo,
  TraceEvent,
  TraceResult,
  UserEvent,
} from './types.js';
export { formatTrace, formatTraceEvent } from './write.js';
