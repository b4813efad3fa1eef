/**
 * How a framework's tool call becomes what the guard learns from: its return value, or what it
 * threw with the real error text.
 */
import { toolCallToOutcome } from '../adapters/tool-call/index.js';
import type { Outcome, Proposal } from '../core/types.js';
import type { OutcomeOf } from '../guard/index.js';

/** A thrown value as a failure: an `Error` keeps its name, code and status; anything else its text. */
export function asFailure(error: unknown): unknown {
  return error instanceof Error ? error : { error };
}

/**
 * True for what a call cancelled through its abort signal throws: `signal.throwIfAborted()`, an
 * aborted `fetch`, Node's timers and child processes all throw an error named `AbortError`. For the
 * hooks that report a call's end without its signal: a cancelled call teaches nothing.
 */
export function isCancellation(error: unknown): boolean {
  try {
    return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
  } catch {
    return false;
  }
}

function outcome(proposal: Proposal, result: unknown, durationMs: number): Outcome {
  return { ...toolCallToOutcome(proposal.tool, proposal.args, result, { durationMs }), proposal };
}

export const toolCallOutcomes: OutcomeOf<unknown> = {
  result: (proposal, value, durationMs) => outcome(proposal, value, durationMs),
  error: (proposal, error, durationMs) => outcome(proposal, asFailure(error), durationMs),
};
