import type { CallToolResult } from '@modelcontextprotocol/server';
import type { CheckResult, Violation } from '../core/types.js';

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
  const reason = check.reason ?? 'It repeats calls that already failed.';
  const suggestion = check.suggestion ? `\n${check.suggestion}` : '';
  return `[${label}${rule}] ${reason}${suggestion}`;
}

/** The result returned instead of running a blocked or halted call: an error the model can act on. */
export function refusedResult(check: CheckResult): CallToolResult {
  return {
    content: [{ type: 'text', text: verdictText(check) }],
    isError: true,
    _meta: { [VERDICT_META_KEY]: verdictMeta(check) },
  };
}

/** The upstream result of a warned call, with the warning appended and the upstream `_meta` kept. */
export function warnedResult(result: CallToolResult, check: CheckResult): CallToolResult {
  return {
    ...result,
    content: [...(result.content ?? []), { type: 'text', text: verdictText(check) }],
    _meta: { ...result._meta, [VERDICT_META_KEY]: verdictMeta(check) },
  };
}
