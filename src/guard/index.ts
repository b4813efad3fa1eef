/**
 * The seam every face of narrowing stands on: open a guard, check and record around each call,
 * word the verdict for the model.
 */
export {
  checkSafely,
  claimSafely,
  coalesceSafely,
  type FaultPolicy,
  type GuardedCallOptions,
  type GuardedCallResult,
  type GuardFaultOptions,
  guardedCall,
  type OutcomeOf,
  recordSafely,
  refusalText,
  type SafeCheck,
  toolCallOutcomes,
  twinAnswerOf,
} from './guarded-call.js';
export { type GuardHandle, type GuardSource, guardHandle, isGuardSession } from './handle.js';
export {
  answersDuplicate,
  type CallClaim,
  COALESCED_RULE,
  callIdentity,
  coalescedReason,
  coalescedText,
  DEFAULT_COALESCE_WAIT_MS,
  InFlightCalls,
  inFlightCalls,
  isIdempotent,
  type TwinAnswer,
  type WaitOptions,
  waitForTwin,
} from './in-flight.js';
export {
  countModelTokensSafely,
  isTokenCount,
  reportedTokens,
  wrapUpReasonSafely,
} from './model-spend.js';
export type {
  CheckedCall,
  GuardObserver,
  RecordedCall,
} from './observer.js';
export {
  type OpenGuardOptions,
  openGuard,
  openGuardSync,
  resolveGuardPolicy,
  type StoreOption,
} from './open.js';
export { MAX_OPEN_SCOPES, SCOPE_DIMENSION } from './scopes.js';
export {
  type CallGuard,
  createGuardSession,
  type GuardSession,
  type ModelUsage,
  type RunReason,
} from './session.js';
export {
  VERDICT_META_KEY,
  type VerdictMeta,
  type ViolationMeta,
  verdictMeta,
  verdictText,
} from './verdict.js';
