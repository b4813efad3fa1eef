import { toolCallToOutcome } from '../adapters/tool-call/index.js';
import type { Mutable, Outcome, Proposal } from '../core/types.js';
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
  const mcp: { content: unknown; isError: boolean; _meta?: unknown } = {
    content: content ?? [],
    isError: failed,
  };
  if (result.meta !== undefined) mcp._meta = result.meta;
  // The conversion is a fresh object: its fields are set in place rather than copied into another, in
  // the same order (`proposal` is its first field, `error` where it stood or last).
  const outcome = toolCallToOutcome(proposal.tool, proposal.args, mcp) as Mutable<Outcome>;
  outcome.proposal = proposal;
  if (result.error !== undefined) outcome.error = result.error;
  return outcome;
}
