import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plainCanonicalJson } from '../../src/audit/plain-json.js';
import { redact } from '../../src/audit/redact.js';
import { canonicalJson } from '../../src/core/identity/index.js';

describe('canonical JSON of the plain data a journal stores', () => {
  it('writes every JSON value exactly as canonical JSON does', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(plainCanonicalJson(value)).toBe(canonicalJson(value));
      }),
      { numRuns: 2_000 },
    );
  });

  it('writes whatever redaction makes of any value exactly as canonical JSON does', () => {
    const anything = fc.anything({
      withBigInt: true,
      withBoxedValues: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withObjectString: true,
      withSparseArray: true,
      withTypedArray: true,
    });
    fc.assert(
      fc.property(anything, (value) => {
        const stored = redact({ args: value, at: -0, note: 'curl -H "Authorization: Bearer abc"' });
        expect(plainCanonicalJson(stored)).toBe(canonicalJson(stored));
        expect(plainCanonicalJson(value)).toBe(canonicalJson(value));
      }),
      { numRuns: 1_000 },
    );
  });

  it('leaves to the general writer what canonical JSON cuts: many keys, long lists, deep nesting, cycles', () => {
    const manyKeys = Object.fromEntries(Array.from({ length: 1_200 }, (_, index) => [`key${index}`, index]));
    const longList = Array.from({ length: 12_000 }, (_, index) => index);
    let deep: unknown = 'bottom';
    for (let level = 0; level < 80; level++) deep = { level, inner: deep };
    const cycle: Record<string, unknown> = { name: 'loop' };
    cycle.self = cycle;
    for (const value of [manyKeys, longList, deep, cycle, { n: Number.NaN, i: -Infinity }]) {
      expect(plainCanonicalJson(value)).toBe(canonicalJson(value));
    }
  });

  it('writes a value whose getter throws as canonical JSON does, as unreadable', () => {
    const hostile = {
      tool: 'bash',
      get args(): unknown {
        throw new Error('no');
      },
    };
    expect(plainCanonicalJson(hostile)).toBe(canonicalJson(hostile));
    expect(plainCanonicalJson(hostile)).toContain('[unreadable]');
  });

  it('keeps a `__proto__` key that redaction stored as data', () => {
    const stored = redact(JSON.parse('{"__proto__": {"polluted": true}, "path": "src/a.ts"}'));
    expect(plainCanonicalJson(stored)).toBe('{"__proto__":{"polluted":true},"path":"src/a.ts"}');
    expect(plainCanonicalJson(stored)).toBe(canonicalJson(stored));
  });
});
