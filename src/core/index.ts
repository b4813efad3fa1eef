/** The pure engine, with no Node APIs and no dependencies: for browsers, edge runtimes, Bun and Deno. */

export { createDefaultDetectors } from './detectors/index.js';
export type { CallContext, Detector, ObservedOutcome } from './detectors/types.js';
export { isNarrowingError, NarrowingError, type NarrowingErrorCode } from './errors.js';
export {
  canonicalJson,
  describeCall,
  digestResult,
  hashString,
  identifyCall,
  maskVolatile,
} from './identity/index.js';
export { NarrowingEngine, type NarrowingEngineOptions } from './loop.js';
export {
  type BudgetPolicy,
  type DetectorThresholds,
  type Enforcement,
  type LearningPolicy,
  type Policy,
  type PolicyInput,
  type PresetName,
  presetPolicy,
  resolvePolicy,
  type ToolPolicy,
} from './policy.js';
export {
  ACTION_KINDS,
  type ActionKind,
  type AuditSink,
  type Blame,
  type CallFacts,
  type CheckResult,
  type ClassifiedOutcome,
  type Clock,
  type Constraint,
  type ConstraintScope,
  type ConstraintType,
  type ConvergenceReport,
  type ConvergenceState,
  type DomainAdapter,
  type EngineSnapshot,
  type Evidence,
  type FailureFacts,
  type FailureMeaning,
  FILE_MISSING,
  type JournalEvent,
  type LiftedMark,
  type Outcome,
  type ParameterRegion,
  type PersistedState,
  type Proposal,
  type ReceiptVerification,
  type RecordResult,
  type StateStore,
  type ToolAnnotations,
  type VerdictKind,
  type Violation,
  type ViolationEvidence,
  type WorldProbe,
} from './types.js';
