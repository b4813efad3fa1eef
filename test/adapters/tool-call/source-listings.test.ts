/**
 * A failure that shows code (the file as an edit would have left it, lines numbered) shows the
 * file's words, not the tool's: a timeout or a connection error named in that code says nothing
 * about the environment.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withoutListings } from '../../../src/adapters/tool-call/source-listings.js';
import { failureOf } from './helpers.js';

const EDIT = {
  lines: '31:31',
  replacement:
    'from .exceptions import (ConnectionError, ConnectTimeout, ReadTimeout,\n    ProxyError, RetryError)',
};

const REFUSED_EDIT = [
  'Your proposed edit has introduced new syntax error(s). Please understand the fixes and retry your edit command.',
  '',
  'ERRORS:',
  '- E999 IndentationError: unexpected indent',
  '',
  'This is how your edit would have looked if applied',
  '-------------------------------------------------',
  '[File: /srv/client/http/adapters.py (436 lines total)]',
  '(29 more lines above)',
  '30:from .cookies import extract_cookies_to_jar',
  '31:from .exceptions import (ConnectionError, ConnectTimeout, ReadTimeout,',
  '32:    ProxyError, RetryError)',
  '33:                         ProxyError, RetryError)',
  '34:from .auth import basic_auth',
  '(402 more lines below)',
  '-------------------------------------------------',
  'Your changes have NOT been applied. Please fix your edit command and try again.',
].join('\n');

describe('numbered source listings in a failure', () => {
  it('blames the agent for an edit refused for a syntax error whose listing names timeouts and connection errors', () => {
    const failure = failureOf('edit', EDIT, REFUSED_EDIT);
    expect(failure?.signature).toBe('syntax_error');
    expect(failure?.blame).toBe('agent_failure');
  });

  it('keeps the environment’s blame for a timeout the tool reports outside any listing', () => {
    const text = 'Error: ReadTimeout: the request to the package index took longer than 30 seconds';
    expect(failureOf('Bash', { command: 'pip install requests' }, text)?.blame).toBe('harness_fault');
  });

  it('blanks three or more consecutive numbered lines and keeps the lines around them', () => {
    const text = 'Error: refused\n10: a = 1\n11: b = ConnectTimeout\n12: c = 3\ndone';
    expect(withoutListings(text)).toBe('Error: refused\n\n\n\ndone');
  });

  it('keeps clock times and short runs of numbered lines, which are no listing', () => {
    const log = '12:30:01 connection refused\n12:30:02 connection refused\n12:30:03 connection refused';
    expect(withoutListings(log)).toBe(log);
    const two = '1: ReadTimeout\n2: ReadTimeout';
    expect(withoutListings(two)).toBe(two);
  });

  it('reads the common spellings of a numbered line: cat -n, a gutter with a bar, a colon', () => {
    const catN = '     7\tclient.ConnectTimeout\n     8\tx\n     9\ty';
    expect(withoutListings(catN)).toBe('\n\n');
    const gutter = '  7 | ReadTimeout()\n  8 | x\n  9 | y';
    expect(withoutListings(gutter)).toBe('\n\n');
  });

  it("leaves a text whose digits are never followed by a number's mark as it is, as reading it line by line does", () => {
    // Every line read apart: the plain reading the listing finder must agree with.
    const lineByLine = (text: string): string => {
      const lines = text.split('\n');
      const numbers = lines.map((line) => /^\s*(\d{1,7})(?::|\t| ?\|)/.exec(line)?.[1]);
      const blank = lines.map(() => false);
      for (let start = 0; start < lines.length; ) {
        let end = start + 1;
        while (
          end < lines.length &&
          numbers[end] !== undefined &&
          numbers[end - 1] !== undefined &&
          Number(numbers[end]) === Number(numbers[end - 1]) + 1
        )
          end++;
        if (end - start >= 3) blank.fill(true, start, end);
        start = end;
      }
      return blank.includes(true) ? lines.map((line, index) => (blank[index] ? '' : line)).join('\n') : text;
    };
    const piece = fc.constantFrom(
      '1',
      '2',
      '3',
      '12',
      ':',
      '\t',
      ' |',
      '|',
      ' ',
      '\n',
      'x',
      '12:30',
      '\u00a0',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const text = pieces.join('');
        expect(withoutListings(text)).toBe(lineByLine(text));
      }),
      { numRuns: 2_000 },
    );
    const log =
      ' ✓ test/orders/module-a.test.ts > parseOrder > reads the total 3ms\n Tests  41 failed | 230 passed (271)';
    expect(withoutListings(log)).toBe(log);
  });
});
