import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { splitRule } from '../../../src/adapters/tool-call/matcher.js';
import { type SignatureRule, TEXT_RULES } from '../../../src/adapters/tool-call/signatures.js';
import { encodeSplits, readSplit } from '../../../src/adapters/tool-call/split-table.js';

const TABLE = encodeSplits(TEXT_RULES, splitRule);

describe('the table of the built-in rules split at build time', () => {
  it('gives every built-in rule the alternatives and hints the matcher works out itself', () => {
    for (const rule of TEXT_RULES) expect(readSplit(TABLE, rule)).toEqual(splitRule(rule));
  });

  it('gives a rule whose hints changed since the build nothing, so that it is split anew', () => {
    const rule = TEXT_RULES.find((candidate) => (candidate.hints?.length ?? 0) > 1) as SignatureRule;
    const fewerHints = { ...rule, hints: rule.hints?.slice(1) };
    expect(readSplit(TABLE, fewerHints)).toBeUndefined();
    expect(readSplit(TABLE, { ...rule, hints: [...(rule.hints ?? []), 'connection reset'] })).toBeUndefined();
  });

  it("gives a caller's own rule, or a built-in one whose pattern changed, nothing", () => {
    const own: SignatureRule = {
      signature: 'quota',
      blame: 'harness_fault',
      deterministic: false,
      pattern: /quota exceeded|over quota/,
      hints: ['quota'],
    };
    expect(readSplit(TABLE, own)).toBeUndefined();
    const rule = TEXT_RULES[0] as SignatureRule;
    expect(
      readSplit(TABLE, { ...rule, pattern: new RegExp(`${rule.pattern.source}|x`, 'm') }),
    ).toBeUndefined();
  });

  it('is shipped in the build for every built-in rule the build holds', async () => {
    const dist = new URL('../../../dist/adapters/tool-call/', import.meta.url);
    expect(existsSync(new URL('built-splits.js', dist)), 'run `npm run build` first').toBe(true);
    const built = await import(new URL('built-splits.js', dist).href);
    const { TEXT_RULES: builtRules } = await import(new URL('signatures.js', dist).href);
    const { splitRule: builtSplitRule } = await import(new URL('matcher.js', dist).href);
    const { readSplit: builtReadSplit } = await import(new URL('split-table.js', dist).href);
    expect(typeof built.BUILT_SPLITS).toBe('string');
    for (const rule of builtRules)
      expect(builtReadSplit(built.BUILT_SPLITS, rule)).toEqual(builtSplitRule(rule));
  });
});
