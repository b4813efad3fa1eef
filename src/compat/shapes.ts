/** This engine's constraints and verdicts in the shapes of `@sovereign-labs/narrowing`. */
import type { Constraint as EngineConstraint, Violation } from '../core/types.js';
import type { BanType, Constraint, ConstraintType, ConstraintViolation } from './types.js';

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** What a constraint rules out, in a few words. */
function subjectOf(constraint: EngineConstraint): string {
  switch (constraint.scope) {
    case 'call':
      return constraint.evidence.calls.at(-1) ?? constraint.tool ?? 'this call';
    case 'target':
      return `${(constraint.blocksKinds ?? []).join('/') || 'any action'} on ${constraint.target ?? 'this target'}`;
    case 'parameter':
      return `${constraint.tool ?? 'the trial'} in the region ${JSON.stringify(constraint.region ?? {})}`;
    default:
      return constraint.type === 'radius_limit'
        ? `a call touching more than ${constraint.radius} targets`
        : `strategy "${constraint.actionClass}"`;
  }
}

/** The parameter and value a parameter ban names: its first exact value, else its first bound. */
function bannedParameterOf(constraint: EngineConstraint): { name: string; value: unknown } | undefined {
  const region = constraint.region;
  if (!region) return undefined;
  for (const bounds of [region.atLeast, region.atMost, region.equals]) {
    const first = Object.entries(bounds ?? {})[0];
    if (first) return { name: first[0], value: first[1] };
  }
  return undefined;
}

/** The type that package's readers expect: only a strategy ban is a `banned_strategy`. */
function paperTypeOf(constraint: EngineConstraint): ConstraintType {
  switch (constraint.scope) {
    case 'call':
      return 'banned_call';
    case 'target':
      return 'banned_target';
    case 'parameter':
      return 'parameter_ban';
    default:
      return constraint.type;
  }
}

export function toPaperConstraint(constraint: EngineConstraint): Constraint {
  const failures = constraint.evidence.failures;
  const out: Constraint = {
    id: constraint.id,
    type: paperTypeOf(constraint),
    signature: constraint.signature,
    reason:
      constraint.type === 'radius_limit'
        ? `Radius limited to ${constraint.radius} after ${plural(failures, 'failure')} of calls on several targets`
        : `${subjectOf(constraint)} failed ${plural(failures, 'time')} with ${constraint.signature}`,
    corroborated: true,
    occurrences: failures,
    introducedAt: constraint.createdAt,
    scope: constraint.persistent ? 'persistent' : 'session',
    engine: constraint,
  };
  if (constraint.actionClass !== '*') out.actionClass = constraint.actionClass;
  if (Number.isFinite(constraint.expiresAt)) out.expiresAt = constraint.expiresAt;
  if (constraint.radius !== undefined) out.maxChanges = constraint.radius;
  const banned = bannedParameterOf(constraint);
  if (banned) {
    out.bannedParameter = banned.name;
    out.bannedValues = [banned.value];
  }
  if (constraint.target !== undefined) out.appliesTo = [constraint.target];
  else if (constraint.scope === 'strategy' && constraint.evidence.calls.length > 0)
    out.appliesTo = [...constraint.evidence.calls];
  return out;
}

const BAN_TYPES: Readonly<Record<string, BanType>> = {
  'banned-strategy': 'strategy',
  'parameter-ban': 'parameter',
  'radius-limit': 'radius',
  'identical-failure': 'call',
  'missing-target': 'target',
  'existing-target': 'target',
  'target-ban': 'target',
};

export function toPaperViolation(violation: Violation, now: number): ConstraintViolation {
  const banType = BAN_TYPES[violation.rule] ?? 'detector';
  const constraint: Constraint = violation.constraint
    ? toPaperConstraint(violation.constraint)
    : {
        // A loop detector's verdict is not a stored constraint: this one describes it.
        id: `detector:${violation.rule}`,
        type: 'detector',
        signature: violation.rule,
        reason: violation.reason,
        corroborated: true,
        occurrences: violation.evidence.count,
        introducedAt: now,
        scope: 'session',
      };
  return {
    constraint,
    reason: violation.reason,
    banType,
    rule: violation.rule,
    suggestion: violation.suggestion,
  };
}
