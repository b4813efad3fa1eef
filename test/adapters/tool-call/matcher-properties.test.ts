/**
 * Properties of the matching engine over any text: it never throws, finishes in bounded time, and
 * its hint prefilter never changes which rule a text matches.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SignatureMatcher } from '../../../src/adapters/tool-call/matcher.js';
import { TEXT_RULES } from '../../../src/adapters/tool-call/signatures.js';
import { failureOf } from './helpers.js';

const HINTS = [...new Set(TEXT_RULES.flatMap((rule) => rule.hints ?? []))];
/** Text built of the catalogue's own words, so that rules fire, mixed with anything. */
const wordy = fc
  .array(
    fc.oneof(
      fc.constantFrom(...HINTS),
      fc.string({ maxLength: 12 }),
      fc.constantFrom(' ', '\n', ': ', "'", '"', '/'),
    ),
    {
      maxLength: 40,
    },
  )
  .map((parts) => parts.join(''));

describe('the signature matcher', () => {
  it('classifies any text without throwing, with a blame of the three', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 2000 }), wordy), (text) => {
        const facts = failureOf('some_tool', {}, text);
        expect(['agent_failure', 'harness_fault', 'unknown']).toContain(facts?.blame ?? 'unknown');
      }),
      { numRuns: 400 },
    );
  });

  it('matches the same rule with and without the hint prefilter', () => {
    const fast = new SignatureMatcher(TEXT_RULES);
    const unfiltered = new SignatureMatcher(TEXT_RULES.map((rule) => ({ ...rule, hints: undefined })));
    fc.assert(
      fc.property(wordy, (text) => {
        expect(fast.match(text)?.pattern.source).toBe(unfiltered.match(text)?.pattern.source);
      }),
      { numRuns: 400 },
    );
  });

  it('reads a long hostile text in bounded time', () => {
    const matcher = new SignatureMatcher(TEXT_RULES);
    fc.assert(
      fc.property(wordy, fc.integer({ min: 1000, max: 4000 }), (piece, times) => {
        const text = `${piece}${'a '.repeat(times)}${"'".repeat(times)}${'/x'.repeat(times)}`;
        const start = performance.now();
        matcher.match(text);
        // Generous: a regex that backtracks badly takes seconds on such a text, a linear one milliseconds.
        expect(performance.now() - start).toBeLessThan(1500);
      }),
      { numRuns: 30 },
    );
  });

  it('matches a text seen again, after others and anew decoded, as a matcher that never saw it does', () => {
    const kept = new SignatureMatcher(TEXT_RULES);
    fc.assert(
      fc.property(
        fc.array(wordy, { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        (texts, picks) => {
          // A matcher that reads each distinct text once: what it answers was never remembered.
          const fresh = new SignatureMatcher(TEXT_RULES);
          const distinct = [...new Set(texts)];
          const expected = new Map(distinct.map((text) => [text, fresh.match(text)?.pattern.source]));
          for (const pick of picks) {
            const text = JSON.parse(JSON.stringify(texts[pick % texts.length])) as string;
            expect(kept.match(text)?.pattern.source).toBe(expected.get(text));
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});
