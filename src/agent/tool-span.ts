import type { GuardSession } from '../guard/session.js';
import type { TracedEnd } from '../telemetry/tool-spans.js';
import type { ToolResultStatus } from './events.js';

/** What the loop knows of a tool step when it ends. */
interface EndedStep {
  readonly status: ToolResultStatus;
  readonly cancelled?: boolean;
  readonly part: { readonly output: { readonly type: string } };
}

/**
 * Runs one tool step of the loop (check, call, record) inside its `execute_tool` span when the
 * guard has telemetry on; `run` as it is otherwise. The step's status names the span's `error.type`.
 */
export function inToolSpan<T extends EndedStep>(
  session: Pick<GuardSession, 'toolCalls' | 'sessionId'>,
  call: { readonly toolName: string; readonly toolCallId: string },
  run: () => Promise<T>,
): Promise<T> {
  const tracer = session.toolCalls;
  if (tracer === undefined) return run();
  const input = {
    tool: call.toolName,
    callId: call.toolCallId,
    sessionId: session.sessionId,
    type: 'function',
  } as const;
  return tracer.trace(input, run, stepErrorType);
}

/** `error.type` of a step: see docs/visibility.md for the list. */
function stepErrorType(ended: TracedEnd<EndedStep>): string | undefined {
  if (!('value' in ended)) return undefined;
  const step = ended.value;
  switch (step.status) {
    case 'ran':
      return undefined;
    case 'failed':
      return 'tool_error';
    case 'refused':
      return 'refused';
    case 'abandoned':
      return 'cancelled';
    case 'not-run':
      return step.cancelled ? 'cancelled' : 'invalid_arguments';
    case 'coalesced':
      return step.part.output.type === 'error-text' ? 'tool_error' : undefined;
  }
}
