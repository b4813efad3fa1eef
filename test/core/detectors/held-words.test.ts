import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HeldWords } from '../../../src/core/detectors/held-words.js';

const piece = fc.constantFrom(
  'a',
  'a.ts',
  'ts',
  '.',
  'src/',
  'módulo.py',
  '😀',
  ' ',
  'cat ',
  'module-b.ts',
  '',
);
const word = fc.array(piece, { maxLength: 3 }).map((parts) => parts.join(''));

describe('words held, found in a text', () => {
  it('are found in a text exactly when one of them is part of it', () => {
    fc.assert(
      fc.property(fc.array(word, { maxLength: 6 }), fc.array(word, { maxLength: 6 }), (words, texts) => {
        const held = new HeldWords();
        for (const added of words) held.add(added);
        for (const text of texts)
          expect(held.foundIn(text)).toBe(words.some((added) => text.includes(added)));
      }),
      { numRuns: 2_000 },
    );
  });

  it('find a file name inside a longer word of a command', () => {
    const held = new HeldWords();
    held.add('module-a.ts');
    expect(held.foundIn('cp src/legacy/module-a.ts.bak /tmp/')).toBe(true);
    expect(held.foundIn('npm test -- test/orders/module-b.test.ts')).toBe(false);
  });

  it('find nothing once cleared', () => {
    const held = new HeldWords();
    held.add('parse.py');
    held.clear();
    expect(held.foundIn('python parse.py')).toBe(false);
  });
});
