/**
 * The bounded JSON writer the guard reads results with: JSON.stringify's text below the limit, a cut
 * of it above, for any JSON-like value.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundedJson } from '../../../src/adapters/tool-call/bounded-json.js';

const jsonish = fc.anything({
  withBigInt: false,
  withDate: true,
  withTypedArray: true,
  withSparseArray: true,
  withBoxedValues: true,
  withNullPrototype: true,
  withObjectString: true,
});

describe('boundedJson', () => {
  it('writes what JSON.stringify writes when the text fits', () => {
    fc.assert(
      fc.property(jsonish, (value) => {
        expect(boundedJson(value, 1_000_000)).toBe(JSON.stringify(value) ?? '');
      }),
      { numRuns: 300 },
    );
  });

  it('writes a prefix of JSON.stringify’s text, and says where it cut, when the text does not fit', () => {
    fc.assert(
      fc.property(jsonish, fc.integer({ min: 1, max: 64 }), (value, limit) => {
        const full = JSON.stringify(value) ?? '';
        const cut = boundedJson(value, limit);
        if (full.length < limit) expect(cut).toBe(full);
        else {
          expect(cut).toBe(`${full.slice(0, limit)}… [cut: the first ${limit} characters of its JSON]`);
        }
      }),
      // A key whose value JSON leaves out, found where the limit falls.
      { numRuns: 300, examples: [[{ '': undefined }, 2]] },
    );
  });

  it('writes bigints as strings and throws on a cycle, as the guard’s reader expects', () => {
    expect(boundedJson({ id: 10n })).toBe('{"id":"10"}');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => boundedJson(cyclic)).toThrow(TypeError);
  });
});
