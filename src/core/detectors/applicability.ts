/** When a detector has anything to say about a call at all. */
import type { ActionKind } from '../types.js';
import type { CallContext, ObservedOutcome } from './types.js';

/** The per-tool `kind` override wins over what the adapter inferred. */
export function kindOf(call: CallContext): ActionKind {
  return call.toolPolicy.kind ?? call.facts.kind;
}

/** Exempt tools and disabled detectors neither fire nor collect evidence. */
export function isWatched(call: CallContext, detector: { readonly enabled: boolean }): boolean {
  return detector.enabled && !call.toolPolicy.exempt;
}

/**
 * Infrastructure faults are never evidence against the agent. The loop already keeps them from
 * streak detectors; checking again here keeps a detector correct when driven directly.
 */
export function isHarnessFault(outcome: ObservedOutcome): boolean {
  return outcome.failure?.blame === 'harness_fault';
}
