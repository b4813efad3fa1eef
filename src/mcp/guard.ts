import type { CheckResult, Outcome, Proposal, RecordResult } from '../core/types.js';

/**
 * What the proxy needs from the engine: a verdict before a call, a lesson after it, and a last
 * chance to write down what was learned. `NarrowingLoop` satisfies it; tests may script one.
 */
export interface Guard {
  checkProposal(proposal: Proposal): CheckResult;
  recordOutcome(outcome: Outcome): RecordResult;
  close(): Promise<void>;
}
