/**
 * Test runners reporting failing tests.
 * The words each failure kind is recognised by; `kinds.ts` says what each kind means.
 */
import { type FamilyTable, LINE_INDENT } from './vocabulary.js';

export const TESTS: FamilyTable = {
  testsFailed: {
    patterns: [
      `^${LINE_INDENT}Tests?:?\\s+\\d+ failed\\b`,
      `^${LINE_INDENT}Test (?:Files|Suites):?\\s+\\d+ failed\\b`,
      `^${LINE_INDENT}\\d+ failing\\b`,
      '^=+ (?:[^\\n]*\\b)?\\d+ failed\\b',
      '^\\d+ failed(?:, \\d+ \\w+)* in \\d',
      '\\b\\d+ failed, \\d+ passed\\b',
      '\\b\\d+ passed, \\d+ failed\\b',
      '^FAILED(?: \\S+::\\S+| \\((?:failures|errors)=\\d+)',
      `^${LINE_INDENT}FAIL(?:ED)?(?::|\\s)+\\S`,
      '^--- FAIL: ',
      // A failing test's line as a terminal shows it: a carriage return starts another (a reporter
      // redrawing its line), so the line is not read again from each of them.
      `^${LINE_INDENT}(?:×|✕|✗|✖) [^\\n\\r\\u2028\\u2029]*?(?:\\d ?ms|\\.test\\.|\\.spec\\.)`,
      '^not ok \\d+ ',
      '^# fail [1-9]',
      '\\btest result: FAILED\\b',
      `^${LINE_INDENT}Expected:? [^\\n]*\\n\\s*Received:? `,
      '\\bExceeded timeout of \\d+ ?ms for a (?:test|hook)\\b',
      '\\b(?:Test|test) timed out (?:in|after) \\d',
      '\\bTimeout of \\d+ ?ms exceeded\\. For async tests\\b',
    ],
    hints: [
      'test',
      'failing',
      'failed',
      'fail',
      'not ok',
      '×',
      '✕',
      '✗',
      '✖',
      'expected',
      'exceeded timeout',
      'timeout of',
    ],
  },
};
