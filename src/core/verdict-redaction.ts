/**
 * The verdicts a check hands on, redacted: reasons repeat what tools printed (a last error, a
 * command line) to the model, the journal and the terminal, so secrets are taken out of them here,
 * whichever detector or rule wrote them.
 */
import { redactConstraint, redactRemembered, redactText } from './secrets.js';
import type { Constraint, Violation, ViolationEvidence } from './types.js';

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

/** `violation` with its reason, evidence and constraint redacted when first read. */
function redactedOnRead(violation: Violation): Violation {
  if (!hasOnlyViolationFields(violation)) return redactedNow(violation);
  const redaction = new ViolationRedaction(violation);
  const suggestion = redactRemembered(violation.suggestion);
  const view: Violation = {
    rule: violation.rule,
    severity: violation.severity,
    get reason() {
      return redaction.reason();
    },
    suggestion,
    get evidence() {
      return redaction.evidence();
    },
  };
  if (violation.constraint !== undefined) {
    Object.defineProperty(view, 'constraint', {
      get: () => redaction.constraint(),
      enumerable: true,
      configurable: true,
    });
  }
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

/**
 * `result` reading its reason and suggestion from the deciding verdict, whose words are written and
 * redacted when a face first reads them. Only a check a verdict decided has such readers: most checks
 * allow without a note, and a literal with readers on every one of them cost more than the rest of
 * building it.
 */
export function withWordsOf<T extends { readonly reason?: string; readonly suggestion?: string }>(
  result: T,
  decisive: Violation,
): T {
  return Object.defineProperties(result, {
    reason: { get: () => decisive.reason, enumerable: true, configurable: true },
    suggestion: { get: () => decisive.suggestion, enumerable: true, configurable: true },
  });
}
