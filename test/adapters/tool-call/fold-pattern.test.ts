import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldPattern } from '../../../src/adapters/tool-call/signatures/fold-pattern.js';

/** The plain reading: every escape kept, every other character lower-cased on its own. */
function foldedByCharacter(source: string): string {
  let folded = '';
  for (let index = 0; index < source.length; index++) {
    const character = source[index] as string;
    if (character === '\\') {
      folded += source.slice(index, index + 2);
      index += 1;
    } else {
      folded += character.toLowerCase();
    }
  }
  return folded;
}

const PIECES = [
  ...['\\', '\\\\', 'A', 'Z', 'S', 'W', 'b', 'z', '0', '(', '|', '?', '{', ' '],
  ...['é', 'É', 'Ñ', 'Σ', 'İ', 'Ω', '\u{10400}', '\ud801', 'ß'],
];

describe('folding a pattern', () => {
  it('lower-cases letters and keeps escaped capitals, whatever backslashes come before them', () => {
    expect(foldPattern(String.raw`No Such\SFile\\S\\\W(?:\Bx|Y)`)).toBe(
      String.raw`no such\Sfile\\s\\\W(?:\Bx|y)`,
    );
  });

  it('lower-cases other characters one at a time, so that a final sigma stays a capital sigma lower-cased', () => {
    expect(foldPattern('ΟΔΟΣ \\Sé')).toBe('οδοσ \\Sé');
  });

  it('keeps an escaped capital beyond ASCII, and lower-cases the others', () => {
    expect(foldPattern('FICHIER \\É INTROUVÉ')).toBe('fichier \\É introuvé');
  });

  it('gives what lower-casing each character apart gives, for any source', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }), (pieces) => {
        const source = pieces.join('');
        expect(foldPattern(source)).toBe(foldedByCharacter(source));
      }),
      { numRuns: 2_000 },
    );
  });
});
