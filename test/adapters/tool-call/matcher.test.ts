import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SignatureMatcher } from '../../../src/adapters/tool-call/matcher.js';
import { type SignatureRule, TEXT_RULES } from '../../../src/adapters/tool-call/signatures.js';

/** The obvious matcher: every rule's regex, in order. The fast one must always agree with it. */
function naive(
  rules: readonly SignatureRule[],
  text: string,
  harnessText: string,
): SignatureRule | undefined {
  for (const rule of rules) {
    const base = rule.harnessSide ? harnessText : text;
    const subject = rule.folded ? base.toLowerCase() : base;
    if (rule.pattern.test(subject) && (rule.context === undefined || rule.context.test(subject))) return rule;
  }
  return undefined;
}

const REAL_TEXTS = [
  "ENOENT: no such file or directory, open 'config/prod.yaml'",
  "FileNotFoundError: [Errno 2] No such file or directory: 'x.py'",
  'Access denied - path outside allowed directories: /etc/passwd not in /tmp/ws',
  'String to replace not found in file.',
  'Failed to edit, 0 occurrences found for old_string in /w/a.py',
  'Found 2 matches of the string to replace, but replace_all is false.',
  'Request timed out after 30s',
  'HTTP 429 Too Many Requests (retry-after: 2)',
  'MCP error -32602: Input validation error: Invalid arguments for tool get-sum',
  'MCP error -32602: Tool nope not found',
  'bash: foo: command not found',
  'npm ERR! code ELIFECYCLE',
  ' FAIL  src/sum.test.ts > sum\nexit code 1',
  'SyntaxError: Unexpected token',
  "fatal: A branch named 'x' already exists.",
  '409 conflict: file already exists',
  'ECONNREFUSED 127.0.0.1:5432',
  'socket hang up',
  '503 Service Unavailable',
  'Request failed with status code: 500',
  'fetch failed',
  'Context exceeds 4000 tokens',
  'processed 500 rows',
];

const FRAGMENTS = [
  'http',
  'HTTP/1.1',
  'status',
  'status code:',
  'error',
  'Error:',
  '429',
  '403',
  '404',
  '409',
  '500',
  '503',
  '(409)',
  'failed',
  'fail',
  'FAIL',
  'failed to',
  'edit',
  'timed out',
  'Request',
  'timeout',
  'not found',
  'tool',
  'file',
  'no such file',
  'exit code',
  '1',
  '0',
  'already exists',
  'conflict',
  'permission denied',
  'rate limit',
  'old_string',
  'found 3 matches',
  'replace',
  'invalid argument',
  'ENOENT',
  'ECONNRESET',
  'command not found',
  'no results found',
  'internal error',
  'parse error',
  'does not exist',
];

describe('SignatureMatcher', () => {
  const matcher = new SignatureMatcher(TEXT_RULES);

  it('agrees with running every rule on real error texts', () => {
    for (const text of REAL_TEXTS) {
      expect({ text, rule: matcher.match(text)?.signature }).toEqual({
        text,
        rule: naive(TEXT_RULES, text, text)?.signature,
      });
    }
  });

  it('agrees with running every rule on any mix of error words', () => {
    const separator = fc.constantFrom(' ', '', '\n', ': ', ' - ', '_', '.');
    const text = fc
      .array(fc.tuple(fc.constantFrom(...FRAGMENTS), separator), { maxLength: 12 })
      .map((parts) => parts.map(([word, sep]) => word + sep).join(''));
    fc.assert(
      fc.property(text, fc.boolean(), (body, harnessOnly) => {
        const harnessText = harnessOnly ? (body.split('\n')[0] ?? '') : body;
        expect(matcher.match(body, harnessText)).toBe(naive(TEXT_RULES, body, harnessText));
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with running every rule on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(matcher.match(text)).toBe(naive(TEXT_RULES, text, text));
      }),
    );
  });

  it('always tries rules without hints, on the original text', () => {
    const custom: SignatureRule = {
      signature: 'custom',
      blame: 'unknown',
      deterministic: false,
      harnessSide: false,
      pattern: /QUOTA-7/,
    };
    const withCustom = new SignatureMatcher([custom, ...TEXT_RULES]);
    expect(withCustom.match('Build refused: QUOTA-7')?.signature).toBe('custom');
    expect(withCustom.match('build refused: quota-7')?.signature).not.toBe('custom');
  });

  it('finds nothing in an empty text', () => {
    expect(matcher.match('')).toBeUndefined();
  });
});
