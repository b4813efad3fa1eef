/**
 * narrowing: stops AI agents from repeating what already failed.
 *
 * Three calls in your own loop: `checkProposal` before a tool runs, `recordOutcome` after it,
 * `isDone` to know when the search space is exhausted. The engine, stores, the journal, traces and
 * replay, and the programmatic MCP proxy have subpaths of their own.
 */

export {
  type ToolCallExtras,
  type ToolOutcomeExtras,
  toolCallToOutcome,
  toolCallToProposal,
} from './adapters/tool-call/index.js';
export { isNarrowingError, NarrowingError, type NarrowingErrorCode } from './core/errors.js';
export type { Enforcement, Policy, PolicyInput, PresetName, ToolPolicy } from './core/policy.js';
export type {
  ActionKind,
  Blame,
  CheckResult,
  ClassifiedOutcome,
  Constraint,
  ConvergenceReport,
  DomainAdapter,
  EngineSnapshot,
  Outcome,
  PersistedState,
  Proposal,
  RecordResult,
  StateStore,
  VerdictKind,
  Violation,
} from './core/types.js';
export {
  type GuardedCallOptions,
  type GuardedCallResult,
  type GuardSession,
  guardedCall,
  type OpenGuardOptions,
  type OutcomeOf,
  openGuard,
  openGuardSync,
  type StoreOption,
  toolCallOutcomes,
  VERDICT_META_KEY,
  verdictText,
} from './guard/index.js';
export { NarrowingLoop, type NarrowingOptions } from './narrowing.js';
export { loadPolicyFile, PolicyError, parsePolicy } from './policy-file/index.js';
