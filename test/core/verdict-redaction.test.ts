import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactConstraint, redactText } from '../../src/core/secrets.js';
import type { Constraint, Violation } from '../../src/core/types.js';
import { redactViolations, withWordsOf } from '../../src/core/verdict-redaction.js';
import { learnedBan } from './support.js';

/** Texts as verdicts quote them: words, paths, and now and then a credential a tool printed. */
const quoted = fc
  .array(
    fc.constantFrom(
      'ENOENT: no such file or directory',
      "open 'config/prod.yaml'",
      'read_file failed 3 times',
      'Authorization: Bearer sk-live-4f9a8b7c6d5e4f3a2b1c0d9e',
      'export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      'password=hunter22',
      'ghp_1234567890abcdefghijklmnopqrstuvwxyzAB',
      '\n',
      ' ',
    ),
    { maxLength: 8 },
  )
  .map((parts) => parts.join(' '));

function constraintWith(lastError: string): Constraint {
  return learnedBan({
    id: 'c-1',
    signature: 'file_not_found',
    actionClass: 'read',
    tool: 'read_file',
    callKey: 'read_file:0123456789abcdef',
    evidence: { failures: 2, firstAt: 1, lastAt: 2, lastError, calls: ['read_file config/prod.yaml'] },
    createdAt: 1,
    expiresAt: 2,
    persistent: true,
  });
}

const violation = fc
  .record({
    rule: fc.constantFrom('identical-failure', 'error-streak', 'banned-strategy'),
    severity: fc.constantFrom('warn' as const, 'block' as const, 'halt' as const),
    reason: quoted,
    suggestion: quoted,
    lastError: fc.option(quoted, { nil: undefined }),
    sharesLastError: fc.boolean(),
    withConstraint: fc.boolean(),
  })
  .map(({ lastError, sharesLastError, withConstraint, ...fields }): Violation => {
    const evidence = lastError === undefined ? { count: 2 } : { count: 2, lastError };
    return withConstraint
      ? {
          ...fields,
          evidence,
          constraint: constraintWith(sharesLastError && lastError !== undefined ? lastError : 'EACCES'),
        }
      : { ...fields, evidence };
  });

/** What a verdict reads as once redacted, every field worked out at once. */
function redactedAtOnce(original: Violation): Record<string, unknown> {
  const lastError = original.evidence.lastError;
  return {
    rule: original.rule,
    severity: original.severity,
    reason: redactText(original.reason),
    suggestion: redactText(original.suggestion),
    evidence:
      lastError === undefined
        ? original.evidence
        : { ...original.evidence, lastError: redactText(lastError) },
    ...(original.constraint !== undefined && { constraint: redactConstraint(original.constraint) }),
  };
}

describe('verdicts redacted on read', () => {
  it('read as the verdict redacted at once, its fields in the same order, its readers enumerable', () => {
    fc.assert(
      fc.property(fc.array(violation, { minLength: 1, maxLength: 3 }), (originals) => {
        const views = [...originals];
        redactViolations(views);
        views.forEach((view, index) => {
          const expected = redactedAtOnce(originals[index] as Violation);
          expect(Object.keys(view)).toEqual(Object.keys(expected));
          expect(JSON.stringify(view)).toBe(JSON.stringify(expected));
          expect({ ...view }).toEqual(expected);
          for (const field of ['reason', 'evidence', 'constraint']) {
            const descriptor = Object.getOwnPropertyDescriptor(view, field);
            if (field === 'constraint' && originals[index]?.constraint === undefined) continue;
            expect(descriptor).toMatchObject({ enumerable: true, configurable: true });
            expect(typeof descriptor?.get).toBe('function');
          }
        });
      }),
      { numRuns: 500 },
    );
  });

  it('give a check result the deciding verdict’s words, its other fields kept in their order', () => {
    fc.assert(
      fc.property(violation, fc.boolean(), fc.nat(), (decisive, allowed, active) => {
        const views = [decisive];
        redactViolations(views);
        const result = {
          allowed,
          verdict: decisive.severity,
          violations: views,
          rule: decisive.rule,
          reason: undefined as string | undefined,
          suggestion: undefined as string | undefined,
          softened: undefined,
          activeConstraints: active,
        };
        const worded = withWordsOf(result, views[0] as Violation);
        const expected = { ...result, reason: views[0]?.reason, suggestion: views[0]?.suggestion };
        expect(Object.keys(worded)).toEqual(Object.keys(result));
        expect(JSON.stringify(worded)).toBe(JSON.stringify(expected));
        expect({ ...worded }).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('give a result without words of its own the verdict’s, after its other fields', () => {
    const decisive: Violation = {
      rule: 'error-streak',
      severity: 'block',
      reason: 'read_file failed 5 times with one error',
      suggestion: 'List the directory first.',
      evidence: { count: 5 },
    };
    const worded = withWordsOf(
      { allowed: false } as { allowed: boolean; reason?: string; suggestion?: string },
      decisive,
    );
    expect(Object.keys(worded)).toEqual(['allowed', 'reason', 'suggestion']);
    expect(worded.reason).toBe('read_file failed 5 times with one error');
  });
});
