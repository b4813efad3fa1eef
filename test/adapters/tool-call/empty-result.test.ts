import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isEmptyAnswer,
  mayBeNothingFound,
  NOTHING_FOUND_ANSWERS,
} from '../../../src/adapters/tool-call/empty-result.js';

const SOURCE_FILE = `// module 0
import { describe, expect, it } from 'vitest';
import { parseOrder } from '../src/orders/parse.js';
`;

describe('answers that found nothing', () => {
  it('does not try a short source file against the "nothing found" answers', () => {
    expect(mayBeNothingFound(SOURCE_FILE.trim())).toBe(false);
    expect(isEmptyAnswer(SOURCE_FILE)).toBe(false);
  });

  it('does not try a short edit confirmation or test report against them', () => {
    expect(mayBeNothingFound('Successfully edited src/orders/module-2.ts')).toBe(false);
    expect(mayBeNothingFound('✓ test/orders/parse.test.ts (4 tests) 12ms\n Test Files  1 passed (1)')).toBe(
      false,
    );
  });

  it('still reads every kind of "nothing found" answer as empty, in any case', () => {
    for (const answer of [
      'No results found',
      'src/orders: 0 matches',
      'ZERO FILES were found',
      'no repositories',
      'Found 0 items in 3 folders',
      'The directory /srv/app/tmp is empty.',
      '(no output)',
      '(No Content)',
      'Nothing found.',
      'EMPTY',
      'Search in /srv/app: no hits',
      'Folder docs is empty',
    ]) {
      expect(mayBeNothingFound(answer), answer).toBe(true);
      expect(isEmptyAnswer(answer), answer).toBe(true);
    }
  });

  it('reads a "nothing found" answer about any kind of thing as empty', () => {
    for (const answer of [
      'No tools found matching the pattern "github.*issue".',
      'No users found.',
      'No matching tools found',
      '0 pull requests matched your query',
      'acme/billing: no open milestones were found',
      'No search results or information found for query: "acme billing sdk retry config"',
      '0 open issues',
    ]) {
      expect(isEmptyAnswer(answer), answer).toBe(true);
    }
  });

  it('reads a check that found no defects as an answer, not an empty one', () => {
    for (const answer of [
      'No errors found.',
      '0 vulnerabilities found',
      'No type errors found in 12 files',
      'No differences found',
    ]) {
      expect(isEmptyAnswer(answer), answer).toBe(false);
    }
  });

  it('reads a missing file as no answer about what was found', () => {
    for (const answer of ['No such file or directory', 'no such files: src/a.ts']) {
      expect(isEmptyAnswer(answer), answer).toBe(false);
    }
  });

  it('still reads an answer that only mentions finding nothing as an answer', () => {
    expect(isEmptyAnswer('Build finished: no errors, 3 files written')).toBe(false);
  });

  it('tries every text that one of the "nothing found" answers matches', () => {
    // fast-check generates from an expression without its `i` flag and word boundaries (texts that then
    // miss the boundary do not count); the case is then changed at random.
    const anyCase = (text: string, upper: readonly boolean[]) =>
      [...text].map((char, index) => (upper[index % upper.length] ? char.toUpperCase() : char)).join('');
    for (const answer of NOTHING_FOUND_ANSWERS) {
      const texts = fc
        .tuple(
          fc.stringMatching(new RegExp(answer.source.replaceAll('\\b', ''))),
          fc.array(fc.boolean(), { minLength: 1 }),
        )
        .map(([text, upper]) => anyCase(text, upper));
      fc.assert(
        fc.property(texts, (text) => !answer.test(text) || mayBeNothingFound(text)),
        { numRuns: 2_000 },
      );
    }
  });
});
