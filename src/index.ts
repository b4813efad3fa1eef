/**
 * narrowing: stops AI agents from repeating what already failed.
 *
 * Three calls in your own loop: `checkProposal` before a tool runs, `recordOutcome` after it,
 * `isDone` to know when the search space is exhausted.
 */

export { createJournal, readJournal, verifyJournal } from './audit/index.js';
export { createDefaultDetectors } from './core/detectors/index.js';
export type { CallContext, Detector, ObservedOutcome } from './core/detectors/types.js';
export { canonicalJson, identifyCall } from './core/identity.js';
export type { NarrowingLoopOptions } from './core/loop.js';
export {
  type DetectorThresholds,
  type Enforcement,
  type LearningPolicy,
  type Policy,
  type PolicyInput,
  type PresetName,
  presetPolicy,
  resolvePolicy,
  type ToolPolicy,
} from './core/policy.js';
export { extractTargets, normalizePath, normalizeTarget, normalizeUrl } from './core/targets.js';
export type * from './core/types.js';
export { NarrowingLoop, type NarrowingOptions } from './narrowing.js';
export { defaultStateDir, findProjectRoot } from './node/index.js';
export { loadPolicyFile, PolicyError, parsePolicy, policyJsonSchema } from './policy-file/index.js';
export { replayTrace } from './replay/index.js';
export { createFileStore, createMemoryStore, mergePersistedStates } from './stores/index.js';
export { parseTrace, readTraceFile, TraceError } from './trace/index.js';
