import { describe, expect, it } from 'vitest';
import type { Entry } from '../../src/core/constraints.js';
import { strategyViolation } from '../../src/core/explain.js';
import type { Constraint } from '../../src/core/types.js';

function strategyBan(lastError: string): Entry {
  const constraint = {
    id: `strategy-${lastError.length}`,
    scope: 'strategy',
    actionClass: 'file_edit',
    signature: 'edit_failed',
    blame: 'agent_failure',
    createdAt: 0,
    expiresAt: Number.MAX_SAFE_INTEGER,
    evidence: {
      failures: 2,
      firstAt: 0,
      lastAt: 0,
      lastError,
      calls: ['edit_file src/a.ts', 'edit_file src/b.ts'],
    },
  } as unknown as Constraint;
  return { constraint, required: 2, dependsOn: [] };
}

describe('the reasons a strategy ban gives', () => {
  it('quotes each ban its own last error, however often one was explained before', () => {
    const notFound = strategyBan('Error: Could not find exact match for edit:\n  const retries = 3;');
    const ambiguous = strategyBan('Error: Found 2 matches of the text to replace in src/b.ts');
    expect(strategyViolation(notFound, 'warn').reason).toMatch(
      /Last error: Error: Could not find exact match for edit: const retries = 3;$/,
    );
    expect(strategyViolation(notFound, 'warn').reason).toMatch(/const retries = 3;$/);
    expect(strategyViolation(ambiguous, 'warn').reason).toMatch(
      /Last error: Error: Found 2 matches of the text to replace in src\/b\.ts$/,
    );
    expect(strategyViolation(notFound, 'block').reason).toMatch(/const retries = 3;$/);
  });
});
