import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SignatureMatcher } from '../../../src/adapters/tool-call/matcher.js';
import { type SignatureRule, TEXT_RULES } from '../../../src/adapters/tool-call/signatures.js';

/**
 * The obvious matcher: the same tiers and the same reading of quotes, with every rule's regex run on
 * every text (no hints, so no prefilter). The fast one must always agree with it.
 */
const unfiltered = new SignatureMatcher(TEXT_RULES.map((rule) => ({ ...rule, hints: undefined })));

function naive(_rules: readonly SignatureRule[], text: string): SignatureRule | undefined {
  const found = unfiltered.match(text);
  return found === undefined ? undefined : TEXT_RULES.find((rule) => rule.pattern === found.pattern);
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
  'Could not resolve host',
  'Name or service not known',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENOSPC',
  'No space left on device',
  'Cannot connect to the Docker daemon',
  'SSL certificate problem',
  'self-signed certificate',
  'database is locked',
  'Tests  1 failed',
  'AssertionError',
  'error TS2322',
  'pathspec',
  "'",
  '"',
  '/',
  '.log',
  'did not match any files',
  'path outside allowed directories',
  'Access denied',
  'Unable to locate credentials',
  'credit balance is too low',
  'invalid_request_error',
  'tool_use',
  'tool_result',
  'Keine Berechtigung',
  'Datei oder Verzeichnis nicht gefunden',
  'Verbindungsaufbau abgelehnt',
  '没有那个文件或目录',
  '接続を拒否されました',
  'npm error',
  'make: ***',
  'channel_not_found',
  'column "x" does not exist',
  'SQLSTATE 42703',
  'Missing script',
];

describe('SignatureMatcher', () => {
  const matcher = new SignatureMatcher(TEXT_RULES);

  it('agrees with running every rule on real error texts', () => {
    for (const text of REAL_TEXTS) {
      expect({ text, rule: matcher.match(text)?.signature }).toEqual({
        text,
        rule: naive(TEXT_RULES, text)?.signature,
      });
    }
  });

  it('reads a text once as it reads it for keeps', () => {
    for (const text of REAL_TEXTS) expect(matcher.matchOnce(text)).toBe(matcher.match(text));
  });

  it('agrees with running every rule on any mix of error words', () => {
    const separator = fc.constantFrom(' ', '', '\n', ': ', ' - ', '_', '.');
    const text = fc
      .array(fc.tuple(fc.constantFrom(...FRAGMENTS), separator), { maxLength: 12 })
      .map((parts) => parts.map(([word, sep]) => word + sep).join(''));
    fc.assert(
      fc.property(text, (body) => {
        expect(matcher.match(body)).toBe(naive(TEXT_RULES, body));
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with running every rule on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(matcher.match(text)).toBe(naive(TEXT_RULES, text));
      }),
    );
  });

  it('agrees with running every rule on long outputs, whose admitted parts run as one expression', () => {
    // Lines a test runner, a compiler or a shell prints, among which the words of every tier occur.
    const line = fc.oneof(
      fc.constantFrom(...REAL_TEXTS),
      fc
        .array(fc.tuple(fc.constantFrom(...FRAGMENTS), fc.constantFrom(' ', '', ': ', ' - ')), {
          maxLength: 6,
        })
        .map((parts) => parts.map(([word, sep]) => word + sep).join('')),
      fc.constantFrom(
        ' ✓ test/orders/module-a.test.ts > parseOrder > reads the total 3ms',
        ' × test/orders/module-a.test.ts > parseOrder > rejects a negative total 5ms',
        '   → expected -0.5 to be greater than or equal to 0',
        '      Tests  41 failed | 230 passed (271)',
        ' Test Files  3 failed | 12 passed (13)',
        'FAILED tests/test_orders.py::test_total - AssertionError',
        'Error: Cannot find module ./orders',
        'src/orders.ts(3,7): error TS2322: Type string is not assignable to type number.',
      ),
    );
    const output = fc
      .array(line, { minLength: 1, maxLength: 30 })
      .map((lines) => lines.join('\n'))
      .map((text) =>
        text.length >= 1024
          ? text
          : `${'building module\n'.repeat(Math.ceil((1024 - text.length) / 16))}${text}`,
      );
    fc.assert(
      fc.property(output, (text) => {
        expect(text.length).toBeGreaterThanOrEqual(1024);
        expect(matcher.match(text)).toBe(naive(TEXT_RULES, text));
      }),
      { numRuns: 300 },
    );
  });

  it('reads a 20 KB failing test run as a failing command, as running every rule does', () => {
    const lines = [' RUN  v3.2.4 /srv/app', ''];
    for (let test = 0; test < 150; test++) {
      lines.push(
        ` ✓ test/orders/module-${test}.test.ts > parseOrder > reads the total ${test} 3ms`,
        ` × test/orders/module-${test}.test.ts > parseOrder > rejects a negative total ${test} 5ms`,
        `   → expected -${test}.5 to be greater than or equal to 0`,
      );
    }
    lines.push('', ' Test Files  1 failed | 12 passed (13)', '      Tests  41 failed | 230 passed (271)');
    const output = lines.join('\n');
    expect(matcher.match(output)?.signature).toBe('command_failed');
    expect(matcher.match(output)).toBe(naive(TEXT_RULES, output));
  });

  it('always tries rules without hints, on the original text', () => {
    const custom: SignatureRule = {
      signature: 'custom',
      blame: 'unknown',
      deterministic: false,
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
