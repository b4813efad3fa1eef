/**
 * What a face that drives the model tells the guard of the model's spend, and asks of it, without
 * letting a fault of the guard end the run: a guard that cannot count leaves the run as it was (its
 * checks report the fault), and one that cannot say whether the budget is nearly spent lets it go on.
 */
import type { GuardHandle } from './handle.js';

/** Counts one model request's tokens against the session's budget. */
export function countModelTokensSafely(handle: GuardHandle, tokens: number): void {
  try {
    handle.session().addModelUsage({ tokens });
  } catch {
    // See the module comment.
  }
}

/** Why the model's next turn is its last (see `GuardSession.wrapUpReason`); undefined to go on. */
export function wrapUpReasonSafely(handle: GuardHandle): string | undefined {
  try {
    return handle.session().wrapUpReason();
  } catch {
    return undefined;
  }
}

/**
 * A model request's tokens as a framework reports them: its total when given, else its input plus
 * its output; undefined when it reports none of them.
 */
export function reportedTokens(total: unknown, input: unknown, output: unknown): number | undefined {
  if (isTokenCount(total)) return total;
  if (!isTokenCount(input) && !isTokenCount(output)) return undefined;
  return (isTokenCount(input) ? input : 0) + (isTokenCount(output) ? output : 0);
}

/** A finite, non-negative number: what a framework's usage field holds when it counted something. */
export function isTokenCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
