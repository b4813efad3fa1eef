/**
 * What a failure's blame lets the guard learn. A failure the adapter recognised as the agent's is
 * evidence against the agent: it may ban the call's class of calls, count as a guess, close a cycle.
 * One whose blame is unknown, or was read from the kinds of its words alone (`blameFromWords`),
 * teaches only that this very call, answered alike, fails again.
 */
import type { FailureFacts } from './types.js';

/** Whether `failure` is evidence against the agent beyond the very call that failed. */
export function provesAgentFault(failure: FailureFacts | undefined): failure is FailureFacts {
  return failure?.blame === 'agent_failure' && failure.blameFromWords !== true;
}

/** Whether the guard learns from `failure` only that the same call fails again. */
export function teachesOnlyRepeats(failure: FailureFacts): boolean {
  return (
    failure.blame === 'unknown' || (failure.blame === 'agent_failure' && failure.blameFromWords === true)
  );
}
