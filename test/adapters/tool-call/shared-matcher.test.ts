import { describe, expect, it } from 'vitest';
import { matcherFor } from '../../../src/adapters/tool-call/adapter.js';
import type { SignatureRule } from '../../../src/adapters/tool-call/signatures/kinds.js';

const quotaRule = (): SignatureRule => ({
  signature: 'quota_exceeded',
  blame: 'harness_fault',
  deterministic: false,
  pattern: /monthly quota exceeded/i,
});

describe('the signature matcher shared by adapters', () => {
  it('is built once for the built-in rules, however many adapters read failures', () => {
    expect(matcherFor([])).toBe(matcherFor([]));
  });

  it('is built once for the same rules of a caller, given as different objects', () => {
    expect(matcherFor([quotaRule()])).toBe(matcherFor([quotaRule()]));
  });

  it('is another for different rules, or the same rules with another flag', () => {
    const own = matcherFor([quotaRule()]);
    expect(own).not.toBe(matcherFor([]));
    expect(own).not.toBe(matcherFor([{ ...quotaRule(), pattern: /monthly quota exceeded/ }]));
    expect(own).not.toBe(matcherFor([{ ...quotaRule(), blame: 'agent_failure' }]));
  });
});
