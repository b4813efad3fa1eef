/**
 * A recorded agent run, one event per line: the tool calls it made, what each returned, and the
 * events around them. The format is deliberately plain so that any agent's logs convert to it.
 */
import type { ToolAnnotations } from '../core/types.js';

/** One item of an MCP tool result. Only `text` items carry text the guard reads. */
export interface McpContent {
  readonly type: string;
  readonly text?: string;
  readonly [field: string]: unknown;
}

export interface ToolInfo {
  readonly name: string;
  readonly description?: string;
  readonly annotations?: ToolAnnotations;
  /** JSON Schema of the tool's input, when known: it helps find the arguments that name targets. */
  readonly inputSchema?: unknown;
}

/** What a call returned. It failed when `isError` is true or `error` is present. */
export interface TraceResult {
  readonly isError?: boolean;
  /** As an MCP server returns it; a string is shorthand for one text item. */
  readonly content?: string | readonly McpContent[];
  /** A failure that was not an MCP result: a thrown exception, a transport error. */
  readonly error?: string;
  /** The MCP result's `_meta`. */
  readonly meta?: Readonly<Record<string, unknown>>;
}

export interface MetaEvent {
  readonly type: 'meta';
  readonly name?: string;
  readonly description?: string;
  readonly tools?: readonly ToolInfo[];
  /** The verdicts a good guard gives on this trace, for tests; kept as written. */
  readonly expect?: unknown;
}

/** A new agent session or process: run-scoped state resets, persisted constraints carry over. */
export interface SessionEvent {
  readonly type: 'session';
  readonly id?: string;
}

/** A new user message: a new run. */
export interface UserEvent {
  readonly type: 'user';
  readonly text?: string;
}

/**
 * The agent's context was compacted. With `calls`, only the answers of those earlier calls (by their
 * `id`) were taken out of it (a host that masks or clears old tool outputs): the rest stays known.
 */
export interface CompactEvent {
  readonly type: 'compact';
  readonly calls?: readonly string[];
}

export interface CallEvent {
  readonly type: 'call';
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  /** Absent when the call never ran in the recording (it was refused, or the run ended first). */
  readonly result?: TraceResult;
  /** Seconds since the trace started. */
  readonly t?: number;
  readonly id?: string;
  /** Calls that share a turn were issued together in one model step (an extension of the format). */
  readonly turn?: string;
  /**
   * The subagent that made the call, absent for the agent itself (an extension of the format). A
   * subagent keeps its own streaks and learns into the same constraints, as the live hook does.
   */
  readonly agent?: string;
  /**
   * In the recording, the call was answered from an identical call issued with it and did not run
   * (an extension of the format): replay reports it as `coalesced`, never as a refusal, when the
   * trace does not hold that identical call in its `turn`.
   */
  readonly coalesced?: true;
}

export type TraceEvent = MetaEvent | SessionEvent | UserEvent | CompactEvent | CallEvent;

export const TRACE_EVENT_TYPES = ['meta', 'session', 'user', 'compact', 'call'] as const;
