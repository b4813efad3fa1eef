import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashMaskedArgument, hashString, maskVolatile } from '../../src/core/identity/index.js';

const TEXTS = [
  '',
  'npm test -- test/orders/module-5yc1s.test.ts\u0000{"command":"npm test -- test/orders/module-5yc1s.test.ts"}',
  'git push origin fix/retry-2026-03-02T10:00:00Z',
  'curl -s https://api.example.com/orders/3f2a9c1e-8b7d-4c2e-9f1a-0d6b5e4c3a21',
  'rm -rf /tmp/build-4821/out && make',
  'sleep 30 && gh run view 1742390011',
  `python3 scripts/migrate.py ${'--table orders '.repeat(30)}`,
];

describe('the hash of an argument text with its volatile values masked', () => {
  it('is the hash of the masked text, for short and long texts, with and without volatile values', () => {
    for (const text of TEXTS) expect(hashMaskedArgument(text)).toBe(hashString(maskVolatile(text)));
  });

  it('agrees with masking and then hashing on any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (text) => {
        expect(hashMaskedArgument(text)).toBe(hashString(maskVolatile(text)));
      }),
    );
  });
});
