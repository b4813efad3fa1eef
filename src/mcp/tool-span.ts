import { ProtocolError, type RequestId } from '@modelcontextprotocol/client';
import type { CallGuard } from '../guard/session.js';
import type { TracedEnd } from '../telemetry/tool-spans.js';

/**
 * Runs the handling of one `tools/call` (check, relay, record) inside its `execute_tool` span when
 * the guard has telemetry on; `run` as it is otherwise. A JSON-RPC error the call ends with is its
 * `error.type` (the code, as the MCP conventions ask); a client's trace context in `_meta` is the
 * span's parent.
 */
export function inToolSpan<T>(
  guard: CallGuard,
  call: { readonly name: string; readonly id: RequestId; readonly meta: unknown },
  run: () => Promise<T>,
  errorType: (ended: TracedEnd<T>) => string | undefined = thrownErrorType,
): Promise<T> {
  const tracer = guard.toolCalls;
  if (tracer === undefined) return run();
  const input = {
    tool: call.name,
    callId: String(call.id),
    type: 'extension',
    mcp: { meta: call.meta },
  } as const;
  return tracer.trace(input, run, errorType);
}

/** A call the proxy ended with a JSON-RPC error: its code. */
export function thrownErrorType(ended: TracedEnd<unknown>): string | undefined {
  if ('error' in ended && ended.error instanceof ProtocolError) return String(ended.error.code);
  return undefined;
}
