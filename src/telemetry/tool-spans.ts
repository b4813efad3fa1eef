/**
 * `execute_tool {tool}` spans (GenAI semantic conventions) for the faces where narrowing runs the
 * tool itself: the MCP proxy forwards it upstream, the agent loop calls it.
 */
import type { OtelSpan, OtelTracer } from './types.js';
import { SPAN_KIND_INTERNAL, SPAN_STATUS_ERROR } from './types.js';
import { ATTR } from './verdict-spans.js';

export interface ToolSpanInput {
  readonly tool: string;
  readonly callId?: string;
  readonly sessionId?: string;
  /** `function` for an agent's own tools, `extension` for an MCP server's. */
  readonly type?: 'function' | 'extension' | 'datastore';
}

export interface ToolSpan {
  /** Ends the span: `failed` sets `error.type` (`tool_error` unless a narrower class is given). */
  end(result: { readonly failed: boolean; readonly errorType?: string }): void;
}

/** Starts the span of one tool execution; end it when the result (or the error) is in. */
export function startToolSpan(tracer: OtelTracer, input: ToolSpanInput): ToolSpan {
  const span: OtelSpan = tracer.startSpan(`execute_tool ${input.tool.slice(0, 256)}`, {
    kind: SPAN_KIND_INTERNAL,
    attributes: {
      [ATTR.operation]: 'execute_tool',
      [ATTR.toolName]: input.tool.slice(0, 256),
      ...(input.callId !== undefined && { [ATTR.toolCallId]: input.callId.slice(0, 256) }),
      ...(input.sessionId !== undefined && { [ATTR.conversationId]: input.sessionId.slice(0, 256) }),
      ...(input.type !== undefined && { 'gen_ai.tool.type': input.type }),
    },
  });
  let ended = false;
  return {
    end(result) {
      if (ended) return;
      ended = true;
      if (result.failed) {
        const errorType = result.errorType ?? 'tool_error';
        span.setAttribute(ATTR.errorType, errorType);
        span.setStatus({ code: SPAN_STATUS_ERROR, message: errorType });
      }
      span.end();
    },
  };
}
