/**
 * Test runners reporting failing tests.
 * The words each failure kind is recognised by; `kinds.ts` says what each kind means.
 */
import type { FamilyTable } from './vocabulary.js';

export const TESTS: FamilyTable = {
  testsFailed: {
    patterns: [
      '^\\s*Tests?:?\\s+\\d+ failed\\b',
      '^\\s*Test (?:Files|Suites):?\\s+\\d+ failed\\b',
      '^\\s*\\d+ failing\\b',
      '^=+ (?:[^\\n]*\\b)?\\d+ failed\\b',
      '^\\d+ failed(?:, \\d+ \\w+)* in \\d',
      '\\b\\d+ failed, \\d+ passed\\b',
      '\\b\\d+ passed, \\d+ failed\\b',
      '^FAILED(?: \\S+::\\S+| \\((?:failures|errors)=\\d+)',
      '^\\s*FAIL(?:ED)?(?::|\\s)+\\S',
      '^--- FAIL: ',
      '^\\s*(?:×|✕|✗|✖) [^\\n]*(?:\\d+ ?ms|\\.test\\.|\\.spec\\.)',
      '^not ok \\d+ ',
      '^# fail [1-9]',
      '\\btest result: FAILED\\b',
      '^\\s*Expected:? [^\\n]*\\n\\s*Received:? ',
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
