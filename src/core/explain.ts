/**
 * The sentences a model reads when a learned constraint stops it. They say what failed, how often,
 * why it will fail again, and what to do instead.
 */
import type { Entry } from './constraints.js';
import type { CallContext } from './detectors/types.js';
import { errorInWords, failedTimes, times } from './detectors/wording.js';
import { describeContext } from './scope.js';
import { quotableText } from './secrets.js';
import type { Constraint, ParameterRegion, Violation } from './types.js';
import { ViolationWrittenOnRead } from './written-on-read.js';

/** Where a constraint learned in a context holds: ` (learned for repository x)`. */
function learnedIn(constraint: Constraint): string {
  const where = describeContext(constraint.context);
  return where === '' ? '' : ` (learned for ${where})`;
}

/**
 * The last error as a reason quotes it. A ban in force is explained at every call it stops, with the
 * same last error each time: the quote of the last one asked for is kept.
 */
let quotedError: { readonly error: string; readonly quote: string } | undefined;

function lastError(constraint: Constraint): string {
  const error = constraint.evidence.lastError;
  if (quotedError?.error === error) return quotedError.quote;
  const quote = quotableText(errorInWords(error, 160));
  quotedError = { error, quote };
  return quote;
}

/** Said only when masking is what made this call match: its own text differs from the failures'. */
function maskedNote(constraint: Constraint, description: string): string {
  const masked = constraint.evidence.masked;
  if (!masked || masked.length === 0 || constraint.evidence.calls.includes(description)) return '';
  return ` (ignoring ${masked.join(', ')} values, which change between attempts)`;
}

function evidenceOf(constraint: Constraint) {
  return {
    count: constraint.evidence.failures,
    lastError: constraint.evidence.lastError,
    calls: constraint.evidence.calls,
    masked: constraint.evidence.masked,
    constraintId: constraint.id,
    expiresAt: constraint.expiresAt,
  };
}

/**
 * A ban's verdict, its reason and evidence written when first read, from the copy of the constraint
 * taken now: learning replaces a constraint's evidence and expiry in place after the check.
 */
function banViolation(
  rule: string,
  severity: Violation['severity'],
  constraint: Constraint,
  reason: (shown: Constraint) => string,
  suggestion: string,
): Violation {
  const shown = { ...constraint };
  return new ViolationWrittenOnRead(
    rule,
    severity,
    () => reason(shown),
    suggestion,
    () => evidenceOf(shown),
    shown,
  );
}

export function callViolation(entry: Entry, call: CallContext): Violation {
  const constraint = entry.constraint;
  const files = constraint.dependsOnFiles;
  const depends = constraint.dependsOnWorkspace
    ? files && files.length > 0
      ? `${files.join(', ')} ${files.length === 1 ? 'has' : 'have'} not changed since`
      : 'no file has changed since'
    : searchedText(constraint)
      ? `${constraint.target ?? 'the file'} has not changed since`
      : 'nothing it depends on has changed since';
  const suggestion = searchedText(constraint)
    ? `Read ${constraint.target ?? 'the file'} again to see its current content, then edit with text that is actually there.`
    : constraint.dependsOnWorkspace
      ? 'Change something first (fix the code or the command), or try a different approach; rerunning it unchanged gives the same failure.'
      : 'Try a different call: check the arguments against the error, or take another approach.';
  return banViolation(
    'identical-failure',
    'block',
    constraint,
    (shown) => {
      const said = lastError(shown);
      // What failed, in the tool's own words: its error, not the name of its signature.
      return `${call.description} ${failedTimes(shown.evidence.failures)}${said === '' ? ` (${shown.signature})` : ''}${maskedNote(shown, call.description)} and ${depends}${learnedIn(shown)}${said === '' ? '.' : `: ${said}`}`;
    },
    suggestion,
  );
}

export function targetViolation(entry: Entry, call: CallContext): Violation {
  const constraint = entry.constraint;
  // The very call that failed, proposed again: say so in the words of an identical failure.
  if (constraint.meaning === 'target-missing' && constraint.evidence.calls.includes(call.description)) {
    return callViolation(entry, call);
  }
  const target = constraint.target ?? 'the target';
  if (constraint.blocksKinds?.includes('create') && constraint.blocksKinds.length === 1) {
    return banViolation(
      'existing-target',
      'block',
      constraint,
      (shown) =>
        `${target} already exists: creating it failed ${times(shown.evidence.failures)} with ${shown.signature}${learnedIn(shown)}. Last error: ${lastError(shown)}`,
      `Use ${target} as it is, edit it, or create it under a different name.`,
    );
  }
  if (constraint.meaning === 'target-missing' || constraint.blocksKinds?.includes('read')) {
    const missing = constraint.meaning === 'target-missing' || constraint.blocksKinds?.includes('delete');
    if (missing) {
      return banViolation(
        'missing-target',
        'block',
        constraint,
        (shown) =>
          `${target} does not exist: ${shown.evidence.calls.length > 1 ? 'earlier calls on it' : 'an earlier call on it'} failed with ${shown.signature} and nothing has created it since, so ${call.tool} on it would fail the same way${learnedIn(shown)}. Last error: ${lastError(shown)}`,
        `List the directory or search for the right path, or create ${target} first if it should exist.`,
      );
    }
  }
  return banViolation(
    'target-ban',
    'block',
    constraint,
    (shown) =>
      `${shown.actionClass} on ${target} failed ${times(shown.evidence.failures)} with ${shown.signature} and ${target} has not changed since${learnedIn(shown)}. Last error: ${lastError(shown)}`,
    `Inspect ${target} before acting on it again, or work on something else.`,
  );
}

export function strategyViolation(entry: Entry, severity: 'warn' | 'block'): Violation {
  const constraint = entry.constraint;
  return banViolation(
    'banned-strategy',
    severity,
    constraint,
    (shown) =>
      `${shown.actionClass} has failed with ${shown.signature} on ${shown.evidence.failures} different targets (${shown.evidence.calls.slice(-3).join(', ')})${learnedIn(shown)}. Last error: ${lastError(shown)}`,
    'The approach itself looks wrong, not just one target: step back and check your assumptions before trying more of the same.',
  );
}

export function describeRegion(region: ParameterRegion): string {
  const parts: string[] = [];
  for (const [name, bound] of Object.entries(region.atLeast ?? {})) parts.push(`${name} >= ${bound}`);
  for (const [name, bound] of Object.entries(region.atMost ?? {})) parts.push(`${name} <= ${bound}`);
  for (const [name, value] of Object.entries(region.equals ?? {})) parts.push(`${name} = ${String(value)}`);
  return parts.join(', ');
}

export function parameterViolation(entry: Entry): Violation {
  const constraint = entry.constraint;
  const region = constraint.region ?? {};
  return banViolation(
    'parameter-ban',
    'block',
    constraint,
    (shown) =>
      `Configurations with ${describeRegion(region)} fail with ${shown.signature}: ${times(shown.evidence.failures)} already (${shown.evidence.calls.slice(-2).join('; ')})${learnedIn(shown)}. Last error: ${lastError(shown)}`,
    `Stay below the failing values (${describeRegion({ atLeast: region.atLeast, atMost: region.atMost })}); reduce one of them.`,
  );
}

export function radiusViolation(radius: number, call: CallContext, failures: number): Violation {
  return {
    rule: 'radius-limit',
    severity: 'block',
    reason: `${call.tool} would act on ${call.facts.targets.length} targets at once, but recent calls over several targets failed ${times(failures)}; the limit is now ${radius}.`,
    suggestion: `Split the work into calls of at most ${radius} target${radius === 1 ? '' : 's'}; the limit relaxes as they succeed.`,
    evidence: { count: failures, radius },
  };
}

export function haltViolation(reason: string): Violation {
  return {
    rule: 'halted',
    severity: 'halt',
    reason: `The run was halted: ${reason}`,
    suggestion: 'Stop calling tools and report to the user what was done and what is blocking progress.',
    evidence: { count: 0 },
  };
}

/** A ban on an edit whose text was not found (its text in memory, or only its hash when read back). */
function searchedText(constraint: Constraint): boolean {
  return constraint.needle !== undefined || constraint.needleHash !== undefined;
}
