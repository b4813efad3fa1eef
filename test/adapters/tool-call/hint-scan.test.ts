import { existsSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HintScanner, hintScannerFor } from '../../../src/adapters/tool-call/hint-scan.js';
import {
  automatonFromTable,
  builtAutomaton,
  encodeAutomaton,
} from '../../../src/adapters/tool-call/hint-table.js';
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

/** Texts made of pieces of the built-in hints, other short strings and characters beyond ASCII. */
const textOfHintPieces = fc
  .array(
    fc.oneof(
      fc
        .constantFrom(...BUILT_IN_HINTS)
        .chain((hint) =>
          fc
            .tuple(fc.nat(hint.length), fc.nat(hint.length))
            .map(([a, b]) => hint.slice(Math.min(a, b), Math.max(a, b) + 1)),
        ),
      fc.string({ maxLength: 4 }),
      fc.constantFrom(' ', '\n', 'é', '×', 'ô', '\ud83d', '\u00a0'),
    ),
    { maxLength: 40 },
  )
  .map((pieces) => pieces.join(''));

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
    fc.assert(
      fc.property(textOfHintPieces, (text) => {
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

describe('the hint scanner as the build ships it', () => {
  it('finds in any text exactly what the scanner built from the hints finds', () => {
    const built = new HintScanner(BUILT_IN_HINTS);
    const shipped = new HintScanner(
      BUILT_IN_HINTS,
      automatonFromTable(encodeAutomaton(BUILT_IN_HINTS, built.automaton)),
    );
    fc.assert(
      fc.property(textOfHintPieces, (text) => {
        expect(scanned(shipped, text)).toEqual(scanned(built, text));
      }),
      { numRuns: 500 },
    );
  });

  it('lays out the same transitions, failures and ends as the scanner built from the hints', () => {
    const hints = ['he', 'she', 'his', 'hers', 'ré-initialisée', 'é', 'connexion réinitialisée', 'été'];
    const built = new HintScanner(hints);
    const shipped = automatonFromTable(encodeAutomaton(hints, built.automaton));
    for (const text of ['ushers', 'la connexion a été ré-initialisée', 'ééé hers'])
      expect(scanned(new HintScanner(hints, shipped), text)).toEqual(scanned(built, text));
    expect(shipped.next.length).toBe(built.automaton.next.length);
    expect([...shipped.endsHere].filter((end) => end !== 0).sort()).toEqual(
      [...built.automaton.endsHere].filter((end) => end !== 0).sort(),
    );
  });

  it("is shipped in the build for the built-in rules' hints", async () => {
    const dist = new URL('../../../dist/adapters/tool-call/', import.meta.url);
    expect(existsSync(new URL('built-scanner.js', dist)), 'run `npm run build` first').toBe(true);
    const { BUILT_SCANNER } = await import(new URL('built-scanner.js', dist).href);
    const { TEXT_RULES: builtRules } = await import(new URL('signatures.js', dist).href);
    const { SignatureMatcher: BuiltMatcher } = await import(new URL('matcher.js', dist).href);
    const hints: readonly string[] = new BuiltMatcher(builtRules).hints;
    expect(BUILT_SCANNER?.hints).toBe(hints.join('\u0000'));
    const built = new HintScanner(hints);
    const shipped = new HintScanner(hints, automatonFromTable(BUILT_SCANNER.table));
    for (const text of [
      "enoent: no such file or directory, open '/srv/app/src/orders/module-1.ts'",
      "erreur : impossible de résoudre l'hôte registry.npmjs.org",
      hints.join(' '),
    ])
      expect(scanned(shipped, text)).toEqual(scanned(built, text));
  });

  it('lays out only the rows of the states that a short failure text reaches', () => {
    const built = new HintScanner(BUILT_IN_HINTS);
    const automaton = automatonFromTable(encodeAutomaton(BUILT_IN_HINTS, built.automaton));
    const shipped = new HintScanner(BUILT_IN_HINTS, automaton);
    const text = "enoent: no such file or directory, open '/srv/app/src/orders/module-1.ts'";
    expect(scanned(shipped, text)).toEqual(scanned(built, text));
    const laid = automaton.laid.filter((row) => row === 1).length;
    expect(laid).toBeGreaterThan(1);
    expect(laid).toBeLessThanOrEqual(text.length + 1 + 64);
  });

  it('works out which hints a state reports only once a scan reaches it', () => {
    const hints = ['he', 'she', 'his', 'hers', 'été'];
    const built = new HintScanner(hints);
    const shipped = automatonFromTable(encodeAutomaton(hints, built.automaton));
    const ending = shipped.endsHere.findIndex((end, state) => state !== 0 && end !== 0);
    expect(shipped.laid[ending]).toBe(0);
    expect(shipped.reportFrom[ending]).toBe(0);
    const scanner = new HintScanner(hints, shipped);
    expect(scanned(scanner, 'ushers an été')).toEqual(scanned(built, 'ushers an été'));
    const reached = [...shipped.laid.keys()].filter((state) => shipped.laid[state] === 1);
    for (const state of reached)
      expect(shipped.reportFrom[state]).toBe(
        shipped.endsHere[state] !== 0 ? state : (shipped.shorterEnd[state] as number),
      );
  });

  it("reads a state's failure from the table only when a scan first reaches the state", () => {
    const hints = ['he', 'she', 'his', 'hers'];
    const built = new HintScanner(hints);
    const shipped = automatonFromTable(encodeAutomaton(hints, built.automaton));
    expect(shipped.failure.every((fallback) => fallback === 0)).toBe(true);
    expect(scanned(new HintScanner(hints, shipped), 'ushers')).toEqual(scanned(built, 'ushers'));
    // Of the states reached, "sh" falls back to "h", "she" to "he" and "hers" to "s".
    expect(shipped.failure.filter((fallback) => fallback !== 0)).toHaveLength(3);
  });

  it('refuses to write a table whose states do not each fit in one character', () => {
    const hint = 'a'.repeat(60_000);
    expect(() => encodeAutomaton([hint], new HintScanner([hint]).automaton)).toThrow(RangeError);
  });

  it('lays out every row once it has scanned a long session of text, and still finds the same hints', () => {
    const built = new HintScanner(BUILT_IN_HINTS);
    const automaton = automatonFromTable(encodeAutomaton(BUILT_IN_HINTS, built.automaton));
    const shipped = new HintScanner(BUILT_IN_HINTS, automaton);
    const line = ' × test/orders/module-a.test.ts > parseorder > rejects a negative total 5ms\n';
    const output = line.repeat(Math.ceil((300 * 1024) / line.length));
    expect(scanned(shipped, output)).toEqual(scanned(built, output));
    expect(automaton.laid.includes(0)).toBe(false);
    fc.assert(
      fc.property(textOfHintPieces, (text) => {
        expect(scanned(shipped, text)).toEqual(scanned(built, text));
      }),
      { numRuns: 200 },
    );
  });

  it('is not used for hints other than those it was made for', () => {
    expect(builtAutomaton(['enoent', 'etimedout'].join('\u0000'))).toBeUndefined();
  });
});
