import { createToolCallAdapter } from '../../../src/adapters/tool-call/adapter.js';
import { type ToolOutcomeExtras, toolCallToOutcome } from '../../../src/adapters/tool-call/convert.js';
import type { FailureFacts } from '../../../src/core/types.js';

export const adapter = createToolCallAdapter();

/** What the adapter makes of a tool call that failed with this MCP error text. */
export function failureOf(
  tool: string,
  args: Record<string, unknown>,
  text: string,
  extras: ToolOutcomeExtras = {},
): FailureFacts | undefined {
  const outcome = toolCallToOutcome(tool, args, { content: [{ type: 'text', text }], isError: true }, extras);
  return adapter.describeFailure(outcome, adapter.describeCall(outcome.proposal));
}

/** What the adapter makes of a successful call that returned this text. */
export function successOf(
  tool: string,
  args: Record<string, unknown>,
  text: string,
): FailureFacts | undefined {
  const outcome = toolCallToOutcome(tool, args, { content: [{ type: 'text', text }] });
  return adapter.describeFailure(outcome, adapter.describeCall(outcome.proposal));
}
