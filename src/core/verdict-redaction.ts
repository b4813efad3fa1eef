/**
 * The verdicts a check hands on, redacted: reasons repeat what tools printed (a last error, a
 * command line) to the model, the journal and the terminal, so secrets are taken out of them here,
 * whichever detector or rule wrote them.
 */
import { redactConstraint, redactRemembered, redactText } from './secrets.js';
import type { Constraint, Mutable, Violation, ViolationEvidence } from './types.js';

/**
 * Replaces each verdict by a copy that redacts its reason, its evidence and its constraint when they
 * are first read: most are never read (a warning a call goes ahead with, a verdict no face prints),
 * and redacting them costs more than the rest of the check.
 */
export function redactViolations(violations: Violation[]): void {
  for (let index = 0; index < violations.length; index++) {
    violations[index] = redactedOnRead(violations[index] as Violation);
  }
}

/** The fields a verdict has: one with others is redacted at once, so that none is lost. */
const VIOLATION_FIELDS: ReadonlySet<string> = new Set([
  'rule',
  'severity',
  'reason',
  'suggestion',
  'evidence',
  'constraint',
]);

function hasOnlyViolationFields(violation: Violation): boolean {
  for (const key in violation) if (!VIOLATION_FIELDS.has(key)) return false;
  return true;
}

/** Where a verdict's view keeps its redaction: no reader of the verdict sees it (not enumerable). */
const REDACTION = Symbol('redaction');

interface RedactedView extends Violation {
  readonly [REDACTION]: ViolationRedaction;
}

/**
 * The view's fields redacted on read. One getter for every view, reading the view's own redaction:
 * a getter made for each view (a closure, or an object literal's `get`) leaves the view's
 * properties in V8's slow dictionary form, which cost a failing call more to build and to collect
 * than the rest of its check.
 */
const VIEW_REASON: PropertyDescriptor = {
  get(this: RedactedView) {
    return this[REDACTION].reason();
  },
  enumerable: true,
  configurable: true,
};
const VIEW_EVIDENCE: PropertyDescriptor = {
  get(this: RedactedView) {
    return this[REDACTION].evidence();
  },
  enumerable: true,
  configurable: true,
};
const VIEW_CONSTRAINT: PropertyDescriptor = {
  get(this: RedactedView) {
    return this[REDACTION].constraint();
  },
  enumerable: true,
  configurable: true,
};

/** `violation` with its reason, evidence and constraint redacted when first read. */
function redactedOnRead(violation: Violation): Violation {
  if (!hasOnlyViolationFields(violation)) return redactedNow(violation);
  // Field by field, in the order a verdict's fields have always had.
  const view = { rule: violation.rule, severity: violation.severity } as Mutable<Violation>;
  Object.defineProperty(view, REDACTION, { value: new ViolationRedaction(violation) });
  Object.defineProperty(view, 'reason', VIEW_REASON);
  view.suggestion = redactRemembered(violation.suggestion);
  Object.defineProperty(view, 'evidence', VIEW_EVIDENCE);
  if (violation.constraint !== undefined) Object.defineProperty(view, 'constraint', VIEW_CONSTRAINT);
  return view;
}

/** What a verdict's fields are once redacted, each worked out once, when first asked for. */
class ViolationRedaction {
  private cleanReason: string | undefined;
  private cleanEvidence: ViolationEvidence | undefined;
  private cleanConstraint: Constraint | undefined;

  constructor(private readonly violation: Violation) {}

  reason(): string {
    if (this.cleanReason === undefined) this.cleanReason = redactText(this.violation.reason);
    return this.cleanReason;
  }

  /** Its constraint's evidence is redacted once for as long as it lasts (see `redactConstraint`). */
  constraint(): Constraint | undefined {
    const constraint = this.violation.constraint;
    if (constraint === undefined) return undefined;
    if (this.cleanConstraint === undefined) this.cleanConstraint = redactConstraint(constraint);
    return this.cleanConstraint;
  }

  /** The last error shown is its constraint's evidence's, as a rule: redacted once, not twice. */
  evidence(): ViolationEvidence {
    if (this.cleanEvidence !== undefined) return this.cleanEvidence;
    const evidence = this.violation.evidence;
    const lastError = evidence.lastError;
    const cleanError =
      lastError === undefined
        ? undefined
        : this.violation.constraint?.evidence.lastError === lastError
          ? this.constraint()?.evidence.lastError
          : redactRemembered(lastError);
    this.cleanEvidence = cleanError === lastError ? evidence : { ...evidence, lastError: cleanError };
    return this.cleanEvidence;
  }
}

/** `violation` redacted at once, every field it has kept. */
function redactedNow(violation: Violation): Violation {
  const redaction = new ViolationRedaction(violation);
  const reason = redaction.reason();
  const suggestion = redactRemembered(violation.suggestion);
  const evidence = redaction.evidence();
  const constraint = redaction.constraint();
  if (reason === violation.reason && suggestion === violation.suggestion && evidence === violation.evidence) {
    return constraint === violation.constraint ? violation : { ...violation, constraint };
  }
  return constraint === violation.constraint
    ? { ...violation, reason, suggestion, evidence }
    : { ...violation, reason, suggestion, evidence, constraint };
}

/** Where a check's result keeps its deciding verdict: no reader of the result sees it (not enumerable). */
const DECISIVE = Symbol('decisive');

interface WithDecisive {
  readonly [DECISIVE]: Violation;
}

/** The result's words, read from its deciding verdict: one getter for every result (see `VIEW_REASON`). */
const WORDS_REASON: PropertyDescriptor = {
  get(this: WithDecisive) {
    return this[DECISIVE].reason;
  },
  enumerable: true,
  configurable: true,
};
const WORDS_SUGGESTION: PropertyDescriptor = {
  get(this: WithDecisive) {
    return this[DECISIVE].suggestion;
  },
  enumerable: true,
  configurable: true,
};

/**
 * `result`'s fields, in its order, with its reason and suggestion read from the deciding verdict,
 * whose words are written and redacted when a face first reads them. Only a check a verdict decided
 * has such readers: most checks allow without a note, and a literal with readers on every one of
 * them cost more than the rest of building it. A copy, since turning the result's own fields into
 * readers would leave it in V8's slow dictionary form.
 */
export function withWordsOf<T extends { readonly reason?: string; readonly suggestion?: string }>(
  result: T,
  decisive: Violation,
): T {
  const out: Record<string, unknown> = {};
  for (const key in result) {
    if (key === 'reason') Object.defineProperty(out, 'reason', WORDS_REASON);
    else if (key === 'suggestion') Object.defineProperty(out, 'suggestion', WORDS_SUGGESTION);
    else out[key] = result[key];
  }
  // A result without them gets them last, as defining them on it would.
  if (!('reason' in out)) Object.defineProperty(out, 'reason', WORDS_REASON);
  if (!('suggestion' in out)) Object.defineProperty(out, 'suggestion', WORDS_SUGGESTION);
  Object.defineProperty(out, DECISIVE, { value: decisive });
  return out as T;
}
