/**
 * The constructor options of `@sovereign-labs/narrowing` as this package's policy and Node options.
 * Only options given explicitly override the preset: defaults are the preset's (see docs/compat.md).
 */
import { deepMerge, type PolicyInput } from '../core/policy.js';
import type { NarrowingOptions } from '../narrowing.js';
import type { NarrowingLoopConfig } from './types.js';

/** That package's default journal, which it keeps unless told otherwise. */
export const DEFAULT_JOURNAL_PATH = '.narrowing/journal.jsonl';
/** What "never expires" becomes: a hundred years, which JSON can hold. */
const NEVER_SECONDS = 100 * 365 * 24 * 60 * 60;

function ttlSeconds(ms: number) {
  const seconds = ms > 0 ? Math.max(1, Math.round(ms / 1000)) : NEVER_SECONDS;
  return { call: seconds, target: seconds, strategy: seconds, parameter: seconds };
}

/** The policy fields the options name, laid over `config.policy` and `config.preset`. */
export function policyOf(config: NarrowingLoopConfig): PolicyInput {
  const overrides: PolicyInput = { learning: {}, detectors: {} };
  const learning = overrides.learning as NonNullable<PolicyInput['learning']>;
  const detectors = overrides.detectors as NonNullable<PolicyInput['detectors']>;
  if (config.preset !== undefined) overrides.preset = config.preset;
  const convergence: NonNullable<NonNullable<PolicyInput['detectors']>['convergence']> = {};
  if (config.direction !== undefined) convergence.direction = config.direction;
  if (config.plateauWindow !== undefined) convergence.plateauWindow = config.plateauWindow;
  if (config.plateauTolerance !== undefined) convergence.tolerance = config.plateauTolerance;
  if (Object.keys(convergence).length > 0) detectors.convergence = convergence;
  if (config.corroborationThreshold !== undefined) {
    const threshold = Math.max(1, Math.floor(config.corroborationThreshold));
    // A failure that repeats by itself against unchanged state never needs more evidence than others.
    const ownDeterministic = config.policy?.detectors?.identicalFailure?.deterministicThreshold;
    detectors.identicalFailure = {
      threshold,
      deterministicThreshold: Math.min(threshold, ownDeterministic ?? 1),
      // The paper's corroboration holds for failures nobody can blame as well.
      unknownThreshold: threshold,
    };
  }
  if (config.radiusCurve !== undefined) {
    learning.radius = {
      curve: config.radiusCurve.filter((radius) => Number.isFinite(radius) && radius >= 1),
    };
  }
  if (config.constraintTtlMs !== undefined) learning.ttlSeconds = ttlSeconds(config.constraintTtlMs);
  return deepMerge(config.policy ?? {}, overrides);
}

/** The options of this package's Node `NarrowingLoop`, less the adapter (bound separately). */
export function nodeOptionsOf(config: NarrowingLoopConfig): Omit<NarrowingOptions, 'adapter'> {
  const journalPath =
    config.journalPath === false
      ? undefined
      : (config.journalPath ?? config.receiptPath ?? DEFAULT_JOURNAL_PATH);
  const options: { -readonly [K in keyof NarrowingOptions]: NarrowingOptions[K] } = {
    policy: policyOf(config),
    receipts: config.receipts ?? true,
  };
  if (journalPath !== undefined) options.journalPath = journalPath;
  if (config.statePath !== undefined) options.statePath = config.statePath;
  if (config.store !== undefined) options.store = config.store;
  if (config.onProblem !== undefined) options.onProblem = config.onProblem;
  if (config.probe !== undefined) options.probe = config.probe;
  if (config.workspaceRoot !== undefined) options.workspaceRoot = config.workspaceRoot;
  return options;
}
