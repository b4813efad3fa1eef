/**
 * Builders for driving detectors the way the loop does, with real identities and real policies:
 * call contexts come from `identifyCall` and `ToolPolicyIndex`, so masking and per-tool overrides
 * behave exactly as in production.
 */
import type { CallContext, Detector, ObservedOutcome } from '../../../src/core/detectors/types.js';
import { describeCall, digestResult, identifyCall, truncate } from '../../../src/core/identity/index.js';
import { type PolicyInput, resolvePolicy, ToolPolicyIndex } from '../../../src/core/policy.js';
import type { ActionKind, Blame, VerdictKind, Violation } from '../../../src/core/types.js';

export function policies(input: PolicyInput = {}): ToolPolicyIndex {
  return new ToolPolicyIndex(resolvePolicy(input));
}

const DEFAULTS = policies();

export interface CallOptions {
  readonly kind?: ActionKind;
  /** Milliseconds. */
  readonly now?: number;
  readonly policy?: ToolPolicyIndex;
  readonly targets?: readonly string[];
}

export function callOf(tool: string, args: Record<string, unknown>, options: CallOptions = {}): CallContext {
  const kind = options.kind ?? 'read';
  const identity = identifyCall(tool, args);
  return {
    tool,
    args,
    identity,
    banKey: identity.callKey,
    facts: { actionClass: kind, kind, targets: options.targets ?? [] },
    toolPolicy: (options.policy ?? DEFAULTS).resolve(tool),
    now: options.now ?? 0,
    description: describeCall(tool, args),
  };
}

interface OutcomeExtras {
  readonly changedWorld?: boolean;
  readonly nonAdvancing?: boolean;
  readonly score?: number;
}

export function succeeded(content: string, extras: OutcomeExtras = {}): ObservedOutcome {
  return {
    success: true,
    resultDigest: digestResult(content),
    nonAdvancing: extras.nonAdvancing ?? false,
    text: truncate(content, 300),
    content,
    changedWorld: extras.changedWorld ?? false,
    ...(extras.score !== undefined ? { score: extras.score } : {}),
  };
}

/** A result the tool flagged as carrying nothing new. */
export function noProgress(content: string): ObservedOutcome {
  return succeeded(content, { nonAdvancing: true });
}

export function failed(
  signature: string,
  blame: Blame,
  content: string,
  extras: { readonly retryAfterSeconds?: number; readonly score?: number } = {},
): ObservedOutcome {
  return {
    success: false,
    failure: {
      signature,
      blame,
      deterministic: blame === 'agent_failure',
      meaning: 'call',
      ...(extras.retryAfterSeconds !== undefined ? { retryAfterSeconds: extras.retryAfterSeconds } : {}),
    },
    resultDigest: digestResult(content),
    nonAdvancing: false,
    text: truncate(content, 300),
    content,
    changedWorld: false,
    ...(extras.score !== undefined ? { score: extras.score } : {}),
  };
}

export function verdictOf(violation: Violation | undefined): VerdictKind {
  return violation?.severity ?? 'allow';
}

/**
 * One proposal as the loop handles it: check, report the verdict, and execute and observe it
 * unless it was stopped. Returns the detector's violation.
 */
export function propose(
  detector: Detector,
  call: CallContext,
  outcome: ObservedOutcome,
): Violation | undefined {
  const violation = detector.check(call);
  const verdict = verdictOf(violation);
  detector.afterCheck?.(call, verdict);
  if (verdict !== 'block' && verdict !== 'halt') detector.observe(call, outcome);
  return violation;
}

/**
 * A proposal the loop stopped for a reason of its own (a learned ban, another detector): the
 * detector sees the check and the final verdict, never an outcome.
 */
export function blockedElsewhere(detector: Detector, call: CallContext): void {
  detector.check(call);
  detector.afterCheck?.(call, 'block');
}

/** The verdicts of a sequence of proposals. */
export function verdicts(
  detector: Detector,
  steps: readonly (readonly [CallContext, ObservedOutcome])[],
): VerdictKind[] {
  return steps.map(([call, outcome]) => verdictOf(propose(detector, call, outcome)));
}

/** `count` copies of the same step. */
export function repeat<T>(count: number, item: T): T[] {
  return Array.from({ length: count }, () => item);
}

/** A snapshot as it comes back from a store: through JSON. */
export function roundTrip(detector: Detector, into: Detector): void {
  into.restore(JSON.parse(JSON.stringify(detector.snapshot())));
}

export const GARBAGE: readonly unknown[] = [
  undefined,
  null,
  42,
  'corrupt',
  [],
  { version: 999 },
  { version: 1, calls: 'nope', tools: 7, history: {}, shapes: null, progress: [] },
  { version: 1, calls: [[1, 2], ['k'], ['k', null], ['k', { count: -3 }]], tools: [['t', { count: 'x' }]] },
];
