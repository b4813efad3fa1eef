import { toolCallToOutcome } from '../adapters/tool-call/index.js';
import type { Outcome, Proposal } from '../core/types.js';
import type { TraceResult } from './types.js';

/**
 * What a recorded call returned, in the engine's terms, converted exactly as the live proxy
 * converts an MCP result. The outcome carries the very `proposal` object that was checked, which
 * is how the engine pairs an outcome with its check.
 */
export function traceResultToOutcome(proposal: Proposal, result: TraceResult): Outcome {
  const content =
    typeof result.content === 'string' ? [{ type: 'text', text: result.content }] : result.content;
  const failed = result.isError === true || result.error !== undefined;
  const converted = toolCallToOutcome(proposal.tool, proposal.args, {
    content: content ?? [],
    isError: failed,
    ...(result.meta !== undefined ? { _meta: result.meta } : {}),
  });
  return { ...converted, proposal, ...(result.error !== undefined ? { error: result.error } : {}) };
}
