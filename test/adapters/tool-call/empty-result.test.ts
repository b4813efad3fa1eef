import { describe, expect, it } from 'vitest';
import { isEmptyAnswer, mayBeNothingFound } from '../../../src/adapters/tool-call/empty-result.js';

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

  it('still reads an answer that only mentions finding nothing as an answer', () => {
    expect(isEmptyAnswer('Build finished: no errors, 3 files written')).toBe(false);
  });
});
