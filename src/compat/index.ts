/**
 * The API of `@sovereign-labs/narrowing`, over this package's engine. Switch by changing the
 * import: `from '@sovereign-labs/narrowing'` (and its adapter subpaths) → `from 'narrowing-guard/compat'`.
 */

export { bridgeAdapter } from './bridge.js';
export { CompatError, type CompatErrorCode } from './errors.js';
export { classifyBlame, extractSignature } from './functions.js';
export { NarrowingLoop } from './loop.js';
export { computeParameterDeltas, createMLTrainingAdapter } from './ml-training.js';
export {
  convertPaperStateFile,
  type ImportedPaperState,
  importPaperState,
  type PaperStateImportOptions,
  readPaperStateFile,
  type SkippedConstraint,
} from './state.js';
export {
  createToolCallAdapter,
  type ToolCallResult,
  toolCallToOutcome,
  toolCallToProposal,
} from './tool-call.js';
export type {
  BanType,
  Constraint,
  ConstraintType,
  ConstraintViolation,
  ConvergenceState,
  DomainAdapter,
  FailureKind,
  NarrowingConfig,
  NarrowingLoopConfig,
  NarrowingResult,
  Outcome,
  Proposal,
  ProposalCheck,
  RawOutcome,
  ScoreDirection,
  SignaturePattern,
  Snapshot,
} from './types.js';
