/** A training trial as the engine's `Proposal` and `Outcome`. */
import type { Outcome, Proposal } from '../../core/types.js';

/** The tool name trials are proposed under; one name keeps every trial in one history. */
export const ML_TRIAL_TOOL = 'train';

export interface MlTrialResult {
  readonly ok: boolean;
  /** The error message or the tail of the training log. */
  readonly error?: string;
  /** Validation loss or accuracy, for convergence tracking. */
  readonly score?: number;
  readonly durationMs?: number;
  readonly costUsd?: number;
}

export function mlTrialToProposal(config: Readonly<Record<string, unknown>>, callId?: string): Proposal {
  return callId === undefined
    ? { tool: ML_TRIAL_TOOL, args: config }
    : { tool: ML_TRIAL_TOOL, args: config, callId };
}

export function mlTrialToOutcome(config: Readonly<Record<string, unknown>>, result: MlTrialResult): Outcome {
  const outcome: { -readonly [K in keyof Outcome]: Outcome[K] } = {
    proposal: mlTrialToProposal(config),
    success: result.ok,
  };
  if (result.error !== undefined) outcome.error = result.error;
  if (result.score !== undefined) outcome.score = result.score;
  if (result.durationMs !== undefined) outcome.durationMs = result.durationMs;
  if (result.costUsd !== undefined) outcome.costUsd = result.costUsd;
  return outcome;
}
