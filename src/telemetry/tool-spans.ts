/**
 * `execute_tool {tool}` spans (GenAI semantic conventions) for the faces where narrowing runs the
 * tool itself: the MCP proxy forwards it upstream, the agent loop calls it. A tool call's span is
 * the parent of the guardrail spans of its check and its record, so that a trace shows the verdict
 * inside the call it was given for (a refused call has its span too, ended with `error.type`
 * `refused`: the tool was asked for and did not run).
 */
import type { AsyncLocalStorage } from 'node:async_hooks';
import type { VerdictKind } from '../core/types.js';
import type { OtelApi } from './load.js';
import type { OtelAttributes, OtelCarrierGetter, OtelContext, OtelSpan, OtelTracer } from './types.js';
import { SPAN_KIND_INTERNAL, SPAN_STATUS_ERROR } from './types.js';

export interface ToolSpanInput {
  readonly tool: string;
  readonly callId?: string;
  readonly sessionId?: string;
  /** `function` for an agent's own tools, `extension` for an MCP server's. */
  readonly type?: 'function' | 'extension' | 'datastore';
  /**
   * A call relayed over MCP: the span carries `mcp.method.name` (`tools/call`) and the request's
   * `jsonrpc.request.id` (the call id), and the trace context a client put in `params._meta`
   * (`traceparent`, `tracestate`) becomes its parent, as the MCP conventions ask.
   */
  readonly mcp?: { readonly meta?: unknown };
}

export interface ToolSpanEnd {
  readonly failed: boolean;
  /** `error.type` of a failed call; `tool_error` when not given. */
  readonly errorType?: string;
}

export interface ToolSpan {
  /** Ends the span: `failed` sets `error.type` (`tool_error` unless a narrower class is given). */
  end(result: ToolSpanEnd): void;
}

/** How a traced call ended, for the face to name its error class (a JSON-RPC code, say). */
export type TracedEnd<T> = { readonly value: T } | { readonly error: unknown };

/** Runs tool calls inside `execute_tool` spans; what the guard says meanwhile goes in as child spans. */
export interface ToolCallTracer {
  /**
   * Runs `run` (the whole handling of one call: check, execution, record) inside the call's span.
   * `errorType` names the error class of how it ended when the face knows better than the guard
   * (undefined: `refused` for a blocked or halted call, `tool_error` for a failure the guard
   * recorded, `_OTHER` for a throw). The call's own result or throw is returned unchanged.
   */
  trace<T>(
    input: ToolSpanInput,
    run: () => Promise<T>,
    errorType?: (ended: TracedEnd<T>) => string | undefined,
  ): Promise<T>;
}

/** What the guard told about the call running in a scope. */
export interface ToolScope {
  readonly span: OtelSpan;
  /** The context whose current span is the tool's: the parent of the guardrail spans. */
  readonly context: OtelContext;
  verdict?: VerdictKind;
  /** The guard recorded the call as failed. */
  failed?: boolean;
}

/** Longest tool name or id put in a span: names come from tools, which a server controls. */
const MAX_NAME = 256;
/** Longest trace-context value read from a request (a `traceparent` is 55 characters). */
const MAX_CARRIED = 512;
const CARRIED_KEYS = ['traceparent', 'tracestate', 'baggage'];

/** Starts the span of one tool execution; end it when the result (or the error) is in. */
export function startToolSpan(
  tracer: OtelTracer,
  input: ToolSpanInput,
  options: { readonly parent?: OtelContext; readonly startTime?: number } = {},
): ToolSpan & { readonly span: OtelSpan } {
  const tool = bounded(input.tool);
  const attributes: OtelAttributes = {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': tool,
    ...(input.callId !== undefined && { 'gen_ai.tool.call.id': bounded(input.callId) }),
    ...(input.sessionId !== undefined && { 'gen_ai.conversation.id': bounded(input.sessionId) }),
    ...(input.type !== undefined && { 'gen_ai.tool.type': input.type }),
    ...(input.mcp && { 'mcp.method.name': 'tools/call' }),
    ...(input.mcp && input.callId !== undefined && { 'jsonrpc.request.id': bounded(input.callId) }),
  };
  const span: OtelSpan = tracer.startSpan(
    `execute_tool ${tool}`,
    {
      kind: SPAN_KIND_INTERNAL,
      attributes,
      ...(options.startTime !== undefined && { startTime: options.startTime }),
    },
    options.parent,
  );
  let ended = false;
  return {
    span,
    end(result) {
      if (ended) return;
      ended = true;
      if (result.failed) {
        const errorType = bounded(result.errorType ?? 'tool_error');
        span.setAttribute('error.type', errorType);
        span.setStatus({ code: SPAN_STATUS_ERROR, message: errorType });
      }
      span.end();
    },
  };
}

/**
 * The tracer of tool calls that shares `scopes` with a guard's verdict spans: a check or record made
 * while `trace` runs finds its call's scope there. Needs the API's context functions to parent spans;
 * without them (an API older than 1.0) tool spans are still emitted, unrelated.
 */
export function toolCallTracer(
  tracer: OtelTracer,
  api: OtelApi | undefined,
  scopes: AsyncLocalStorage<ToolScope>,
): ToolCallTracer {
  return {
    async trace(input, run, errorType) {
      let started: ReturnType<typeof startToolSpan>;
      let scope: ToolScope;
      try {
        const parent = input.mcp ? carriedContext(api, input.mcp.meta) : undefined;
        started = startToolSpan(tracer, input, { ...(parent !== undefined && { parent }) });
        scope = { span: started.span, context: spanContext(api, started.span) };
      } catch {
        // A tracer that throws never changes a call.
        return run();
      }
      let ended: TracedEnd<Awaited<ReturnType<typeof run>>>;
      try {
        const value = await scopes.run(scope, run);
        ended = { value };
        return value;
      } catch (error) {
        ended = { error };
        throw error;
      } finally {
        safely(() => started.end(endOf(scope, ended, errorType)));
      }
    },
  };
}

function endOf<T>(
  scope: ToolScope,
  ended: TracedEnd<T>,
  errorType: ((ended: TracedEnd<T>) => string | undefined) | undefined,
): ToolSpanEnd {
  let named: string | undefined;
  safely(() => {
    named = errorType?.(ended);
  });
  if (named !== undefined) return { failed: true, errorType: named };
  if (scope.verdict === 'block' || scope.verdict === 'halt') return { failed: true, errorType: 'refused' };
  if ('error' in ended) return { failed: true, errorType: '_OTHER' };
  if (scope.failed) return { failed: true, errorType: 'tool_error' };
  return { failed: false };
}

/** The context in which `span` is the current span, for its children; undefined without the API's. */
function spanContext(api: OtelApi | undefined, span: OtelSpan): OtelContext {
  if (api?.context === undefined || api.trace.setSpan === undefined) return undefined;
  return api.trace.setSpan(api.context.active(), span);
}

/** The trace context a client sent in an MCP request's `params._meta`, read with bounds. */
function carriedContext(api: OtelApi | undefined, meta: unknown): OtelContext | undefined {
  if (api?.propagation === undefined || api.context === undefined) return undefined;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const carried = meta as Record<string, unknown>;
  const getter: OtelCarrierGetter = {
    keys: () => CARRIED_KEYS.filter((key) => Object.hasOwn(carried, key)),
    get: (_carrier, key) => {
      if (!CARRIED_KEYS.includes(key) || !Object.hasOwn(carried, key)) return undefined;
      const value = carried[key];
      return typeof value === 'string' && value.length <= MAX_CARRIED ? value : undefined;
    },
  };
  return api.propagation.extract(api.context.active(), carried, getter);
}

function safely(act: () => void): void {
  try {
    act();
  } catch {
    // Telemetry's fault is its own: the call's answer stands.
  }
}

function bounded(text: string): string {
  return text.length > MAX_NAME ? `${text.slice(0, MAX_NAME)}…` : text;
}
