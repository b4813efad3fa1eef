import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  encodeLayout,
  inMatchingOrder,
  type MatcherLayout,
  readLayout,
  readSplit,
} from '../../../src/adapters/tool-call/layout-table.js';
import { layOut, splitRule } from '../../../src/adapters/tool-call/matcher.js';
import { type SignatureRule, TEXT_RULES } from '../../../src/adapters/tool-call/signatures.js';

const ORDERED = inMatchingOrder(TEXT_RULES);
const SHIPPED = encodeLayout(ORDERED, layOut(ORDERED), splitRule);

/** The layout the matcher works out itself, with the key its scanner is looked up by. */
function laidOut(ordered: readonly SignatureRule[]): MatcherLayout {
  const layout = layOut(ordered);
  return { ...layout, hintsKey: layout.hints.join('\u0000') };
}

/** The rules in the matcher's order, with the one at `index` replaced. */
function replacing(index: number, rule: SignatureRule): SignatureRule[] {
  return ORDERED.map((each, at) => (at === index ? rule : each));
}

describe('the built-in rules’ matcher laid out at build time', () => {
  it('gives the built-in rules the layout the matcher works out itself', () => {
    expect(readLayout(SHIPPED, ORDERED)).toEqual(laidOut(ORDERED));
  });

  it('gives every built-in rule the alternatives and hints the matcher works out itself', () => {
    for (const rule of TEXT_RULES) expect(readSplit(SHIPPED, rule)).toEqual(splitRule(rule));
  });

  it('gives rules whose hints changed since the build no layout, and such a rule no split', () => {
    const index = ORDERED.findIndex((candidate) => (candidate.hints?.length ?? 0) > 1);
    const rule = ORDERED[index] as SignatureRule;
    const fewerHints = { ...rule, hints: rule.hints?.slice(1) };
    expect(readLayout(SHIPPED, replacing(index, fewerHints))).toBeUndefined();
    expect(readSplit(SHIPPED, fewerHints)).toBeUndefined();
    const moreHints = { ...rule, hints: [...(rule.hints ?? []), 'connection reset'] };
    expect(readLayout(SHIPPED, replacing(index, moreHints))).toBeUndefined();
    expect(readSplit(SHIPPED, moreHints)).toBeUndefined();
  });

  it('gives rules one of whose patterns or tiers changed no layout', () => {
    const rule = ORDERED[3] as SignatureRule;
    const widened = { ...rule, pattern: new RegExp(`${rule.pattern.source}|x`, 'm') };
    expect(readLayout(SHIPPED, replacing(3, widened))).toBeUndefined();
    expect(readSplit(SHIPPED, widened)).toBeUndefined();
    const weak = { ...rule, tier: 'weak' as const };
    expect(readLayout(SHIPPED, replacing(3, weak))).toBeUndefined();
  });

  it("gives a caller's own rules before the built-in ones no layout, and a caller's rule no split", () => {
    const own: SignatureRule = {
      signature: 'quota',
      blame: 'harness_fault',
      deterministic: false,
      pattern: /quota exceeded|over quota/,
      hints: ['quota'],
    };
    expect(readLayout(SHIPPED, inMatchingOrder([own, ...TEXT_RULES]))).toBeUndefined();
    expect(readSplit(SHIPPED, own)).toBeUndefined();
    expect(readLayout(SHIPPED, ORDERED.slice(1))).toBeUndefined();
  });

  it('is shipped in the build for the built-in rules the build holds', async () => {
    const dist = new URL('../../../dist/adapters/tool-call/', import.meta.url);
    expect(existsSync(new URL('built-layout.js', dist)), 'run `npm run build` first').toBe(true);
    const { BUILT_LAYOUT } = await import(new URL('built-layout.js', dist).href);
    const { TEXT_RULES: builtRules } = await import(new URL('signatures.js', dist).href);
    const { splitRule: builtSplitRule } = await import(new URL('matcher.js', dist).href);
    const built = await import(new URL('layout-table.js', dist).href);
    const ordered = built.inMatchingOrder(builtRules);
    expect(typeof BUILT_LAYOUT?.table).toBe('string');
    expect(built.builtLayoutOf(ordered)).toEqual(built.readLayout(BUILT_LAYOUT, ordered));
    expect(built.readLayout(BUILT_LAYOUT, ordered)).toEqual(laidOut(ORDERED));
    for (const rule of builtRules) expect(built.builtSplitOf(rule)).toEqual(builtSplitRule(rule));
  });
});
