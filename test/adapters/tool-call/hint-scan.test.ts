import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HintScanner, hintScannerFor } from '../../../src/adapters/tool-call/hint-scan.js';
import { TEXT_RULES } from '../../../src/adapters/tool-call/signatures.js';

/** The obvious reading: every hint looked for with `includes`. */
function occurring(hints: readonly string[], text: string): string[] {
  return hints.filter((hint) => text.includes(hint)).sort();
}

function scanned(scanner: HintScanner, text: string): string[] {
  const found = scanner.scan(text);
  return Array.from(found.hints.subarray(0, found.count), (hint) => scanner.hints[hint] as string).sort();
}

const BUILT_IN_HINTS = [...new Set(TEXT_RULES.flatMap((rule) => rule.hints ?? []))];

describe('HintScanner', () => {
  it('finds hints that overlap, nest and share prefixes', () => {
    const scanner = new HintScanner(['he', 'she', 'his', 'hers', 'invalid', 'invalid_grant', 'd_g']);
    expect(scanner.scan('ushers').count).toBe(3);
    expect(scanned(scanner, 'ushers')).toEqual(['he', 'hers', 'she']);
    expect(scanned(scanner, 'error: invalid_grant')).toEqual(['d_g', 'invalid', 'invalid_grant']);
  });

  it('reads characters beyond ASCII in hints and passes over those in no hint', () => {
    const scanner = new HintScanner(['ré-initialisée', 'é', 'connexion réinitialisée', '×']);
    expect(scanned(scanner, 'la connexion a été ré-initialisée par le correspondant')).toEqual([
      'ré-initialisée',
      'é',
    ]);
    expect(scanned(scanner, ' × test/orders/parse.test.ts → expected ✓')).toEqual(['×']);
  });

  it('reports each hint once however often it occurs, and forgets it by the next scan', () => {
    const scanner = new HintScanner(['failed']);
    expect(scanner.scan('failed\nfailed\nfailed').count).toBe(1);
    expect(scanner.scan('passed').count).toBe(0);
  });

  it('finds exactly the built-in hints that occur in real failure texts', () => {
    const scanner = hintScannerFor(BUILT_IN_HINTS);
    for (const text of [
      "enoent: no such file or directory, open '/srv/app/src/orders/module-1.ts'",
      'error: request timed out after 30000 ms (etimedout)',
      ' × test/orders/module-a.test.ts > parseorder > rejects a negative total 5ms\n test files  1 failed | 12 passed (13)',
      "erreur : impossible de résoudre l'hôte registry.npmjs.org",
    ]) {
      expect(scanned(scanner, text)).toEqual(occurring(BUILT_IN_HINTS, text));
    }
  });

  it('agrees with includes on any text made of pieces of the built-in hints', () => {
    const scanner = hintScannerFor(BUILT_IN_HINTS);
    const piece = fc.oneof(
      fc
        .constantFrom(...BUILT_IN_HINTS)
        .chain((hint) =>
          fc
            .tuple(fc.nat(hint.length), fc.nat(hint.length))
            .map(([a, b]) => hint.slice(Math.min(a, b), Math.max(a, b) + 1)),
        ),
      fc.string({ maxLength: 4 }),
      fc.constantFrom(' ', '\n', 'é', '×', '\ud83d', '\u00a0'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const text = pieces.join('');
        expect(scanned(scanner, text)).toEqual(occurring(BUILT_IN_HINTS, text));
      }),
      { numRuns: 500 },
    );
  });

  it('agrees with includes for any set of hints', () => {
    const alphabet = fc.constantFrom('a', 'b', 'c', 'é', '-');
    const word = fc.array(alphabet, { minLength: 1, maxLength: 5 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(
        fc.uniqueArray(word, { minLength: 1, maxLength: 12 }),
        fc.array(alphabet, { maxLength: 60 }),
        (hints, chars) => {
          const text = chars.join('');
          expect(scanned(new HintScanner(hints), text)).toEqual(occurring(hints, text));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('builds the scanner for the same hints once', () => {
    expect(hintScannerFor([...BUILT_IN_HINTS])).toBe(hintScannerFor(BUILT_IN_HINTS));
  });
});
