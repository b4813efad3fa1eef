import { quotableText } from '../core/secrets.js';
import type { CheckResult, Violation } from '../core/types.js';

/**
 * The words the model reads about a verdict, and the machine-readable form that travels beside a
 * result (MCP `_meta`, a hook's extra context, a framework's tool output).
 */

/** The `_meta` key under which every verdict other than a plain allow travels to the client. */
export const VERDICT_META_KEY = 'dev.narrowing/verdict';

/** The machine-readable verdict: hosts rarely show `_meta` to the model, but tools and logs can read it. */
export interface VerdictMeta {
  readonly verdict: CheckResult['verdict'];
  readonly rule?: string;
  readonly reason?: string;
  readonly suggestion?: string;
  readonly softened?: boolean;
  readonly violations: readonly ViolationMeta[];
}

export interface ViolationMeta {
  readonly rule: string;
  readonly severity: Violation['severity'];
  readonly reason: string;
  readonly suggestion: string;
  readonly count: number;
  readonly lastError?: string;
  readonly constraint?: { readonly id: string; readonly type: string; readonly scope: string };
}

export function verdictMeta(check: CheckResult): VerdictMeta {
  return {
    verdict: check.verdict,
    ...(check.rule !== undefined && { rule: check.rule }),
    ...(check.reason !== undefined && { reason: check.reason }),
    ...(check.suggestion !== undefined && { suggestion: check.suggestion }),
    ...(check.softened && { softened: true }),
    violations: check.violations.map(violationMeta),
  };
}

function violationMeta(violation: Violation): ViolationMeta {
  const { constraint } = violation;
  return {
    rule: violation.rule,
    severity: violation.severity,
    reason: violation.reason,
    suggestion: violation.suggestion,
    count: violation.evidence.count,
    ...(violation.evidence.lastError !== undefined && { lastError: violation.evidence.lastError }),
    ...(constraint && { constraint: { id: constraint.id, type: constraint.type, scope: constraint.scope } }),
  };
}

/** The text the model reads: the reason in plain words, then what to do instead. */
export function verdictText(check: CheckResult): string {
  const label = check.softened
    ? 'narrowing would have blocked this call; it runs because enforcement is advisory'
    : check.verdict === 'warn'
      ? 'narrowing warning'
      : `narrowing ${check.verdict}ed this call`;
  const rule = check.rule ? ` (${check.rule})` : '';
  // Reasons quote what tools wrote: one line each, and the guard's label only where the guard put it.
  const reason = quotableText(check.reason ?? 'It repeats calls that already failed.');
  const suggestion = check.suggestion ? `\n${quotableText(check.suggestion)}` : '';
  return `[${label}${rule}] ${reason}${suggestion}`;
}
