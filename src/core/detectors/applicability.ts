/** When a detector has anything to say about a call at all. */
import type { ActionKind } from '../types.js';
import type { CallContext, ObservedOutcome } from './types.js';

/** The per-tool `kind` override wins over what the adapter inferred. */
export function kindOf(call: CallContext): ActionKind {
  return call.toolPolicy.kind ?? call.facts.kind;
}

/**
 * The key a call's answers are counted and compared under: the adapter's `answerKey` where the call's
 * identity holds words that may be only about it (a reworded description), since answering alike
 * under other words proves them so; else the call's own key.
 */
export function answerKeyOf(call: CallContext): string {
  return call.facts.answerKey ?? call.identity.callKey;
}

/**
 * The key a call is compared under as a step of a walk (a cycle's rounds, a re-read after a
 * compaction): the call without the words the adapter finds may be only about it, whatever kind of
 * call it is, so that a step reworded on each round is still the same step.
 */
export function stepKeyOf(call: CallContext): string {
  return call.facts.wordlessKey ?? answerKeyOf(call);
}

/**
 * The tool a call acts as: the one it relays (`use_mcp_tool` calling a server's `search`), else its
 * own. What a detector counts per tool is counted under it.
 */
export function actingToolOf(call: CallContext): string {
  return call.facts.relayed?.tool ?? call.tool;
}

/** The arguments of the tool a call acts as (see `actingToolOf`). */
export function actingArgsOf(call: CallContext): Readonly<Record<string, unknown>> {
  return call.facts.relayed?.args ?? call.args;
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
