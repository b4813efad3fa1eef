import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  errorShape,
  errorShapeExhaustively,
  MAX_SHAPE_INPUT,
  sameErrorShape,
} from '../../../src/adapters/tool-call/error-shape.js';

describe('errorShape', () => {
  it('gives one shape to a missing file whatever file was named', () => {
    expect(errorShape("cat: 'notes.md': No such file or directory")).toBe(
      errorShape("cat: 'draft-2.txt': No such file or directory"),
    );
  });

  it('masks quoted text that runs over several lines', () => {
    const a = 'Error: old_string not found in file:\n"def main():\n    run()"';
    const b = 'Error: old_string not found in file:\n"class A:\n    pass"';
    expect(sameErrorShape(a, b)).toBe(true);
    expect(errorShape(a)).toBe('error: <id> not found in file: <q>');
  });

  it('masks names a call made up, in snake_case or camelCase, and keeps the names of errors', () => {
    expect(errorShape('Unknown tool: get_weather_v2')).toBe(errorShape('Unknown tool: fetchWeather'));
    expect(errorShape('Unknown tool: get_weather')).toBe('unknown tool: <id>');
    expect(errorShape('Error [ERR_MODULE_NOT_FOUND]: Cannot find package')).toContain('err_module_not_found');
  });

  it('masks URLs, addresses, paths and flags', () => {
    expect(errorShape('connect ECONNREFUSED 127.0.0.1:5432')).toBe('connect econnrefused <url>');
    expect(errorShape('GET https://api.github.com/repos/a/b/issues/12 failed')).toBe('get <url> failed');
    expect(errorShape('open /var/lib/app/state.json: permission denied')).toBe(
      'open <path>: permission denied',
    );
    expect(errorShape('error: unknown option --colour=always')).toBe('error: unknown option <flag>');
  });

  it('masks ids, hex digests and numbers, but keeps status and error codes', () => {
    expect(errorShape('Issue #1234 not found (id 8f3a9c2e1b)')).toBe('issue #<id> not found (id <id>)');
    expect(errorShape('Request 550e8400-e29b-41d4-a716-446655440000 took 1234ms')).toBe(
      'request <id> took <id>',
    );
    expect(errorShape('reservation 2378156 not found')).toBe(errorShape('reservation W2378156 not found'));
    expect(errorShape('HTTP 404 Not Found')).not.toBe(errorShape('HTTP 500 Internal Server Error'));
    expect(errorShape('MCP error -32602: Invalid params')).toBe('mcp error -32602: invalid params');
    expect(errorShape("src/a.ts(3,1): error TS2304: Cannot find name 'x'.")).toContain('ts2304');
  });

  it('keeps the shape when a pid, a duration or a count gains a digit', () => {
    const shapes = [
      "Error executing query: Table 'shop.orders' doesn't exist ((node:5276)) after 950 ms, 7 retries",
      "Error executing query: Table 'shop.items' doesn't exist ((node:40538)) after 12034 ms, 12 retries",
      "Error executing query: Table 'shop.carts' doesn't exist ((node:312)) after 100250 ms, 107 retries",
    ].map(errorShape);
    expect(new Set(shapes).size).toBe(1);
  });

  it('masks the value an id’s label names even where its letters and digits read as a code word', () => {
    const failure = (run: string) => `Error executing query: Table 'net.students' doesn't exist (run ${run})`;
    expect(errorShape(failure('zsmszzhla27'))).toBe(errorShape(failure('4f5i1wsqp76')));
    expect(errorShape('container id: abcdefgh12 gone')).toBe('container id: <id> gone');
    expect(errorShape('step failed: run test1 exited')).toBe('step failed: run test1 exited');
  });

  it('does not take an apostrophe inside a word for a quote', () => {
    expect(errorShape("don't know how to make 'all'; can't continue")).toBe(
      "don't know how to make <q>; can't continue",
    );
  });

  it('tells different errors apart', () => {
    expect(sameErrorShape('cat: a.txt: No such file or directory', 'cat: a.txt: Permission denied')).toBe(
      false,
    );
  });

  it('shapes any text, in bounded length, without throwing', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 3000 }), (text) => {
        const shape = errorShape(text);
        expect(typeof shape).toBe('string');
        expect(shape.length).toBeLessThanOrEqual(MAX_SHAPE_INPUT + 1);
      }),
      { numRuns: 300 },
    );
  });

  it('gives every text the shape that running every mask gives it', () => {
    // Pieces of what the masks look for, so that random texts hold ids, paths, flags and addresses.
    const piece = fc.constantFrom(
      ...'aBcDeF019-_./\\[]:=(,<>\'"` \n\t\r\u001b~@+xyzQ'.split(''),
      '550e8400-e29b-41d4-a716-446655440000',
      '127.0.0.1:5432',
      '[::1]:80',
      'deadbeef12',
      ' --depth=1',
      '\n-rf',
      'getUser',
      'old_string',
      'src/a.ts',
      'notes.md',
      'https://x.io/a',
      'HTTP 404',
      'code -32602',
      'status 503',
      'id 2378156',
      '\u001b[31m',
      '  ',
      'x.ts(',
      'C:\\x',
      '~/a',
      '../b',
      'a1b2',
      'v3',
      'TS2304',
      '✓ ',
      '/',
      '//',
      './x/y',
      '/abs',
      'a/b/',
      '<a/b',
      '>c/d',
      '-3.5',
      'v1.2.4',
      'a.B',
      'parseOrder',
      'aB',
      'a1bC',
      'GetUser',
      'xY_z',
      'é',
      'getX9',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), fc.string({ maxLength: 40 }), (pieces, noise) => {
        const text = pieces.join('') + noise;
        expect(errorShape(text)).toBe(errorShapeExhaustively(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('shapes a log of thousands of characters, its paths and ids far apart, as running every mask does', () => {
    const line = fc.constantFrom(
      ' ✓ test/orders/module-k.test.ts > parseOrder > reads the total 3 3ms',
      '   → expected -1.5 to be greater than or equal to 0',
      'the quick brown fox jumps over the lazy dog and keeps running along the road',
      'Error: build a1b2 failed in step7 of job-x9z',
      'see ./docs/notes.md and C:\\logs\\run.txt',
      'version 1.2.3 of lib_v2',
      '',
    );
    fc.assert(
      fc.property(fc.array(line, { minLength: 20, maxLength: 120 }), (lines) => {
        const text = lines.join('\n');
        expect(errorShape(text)).toBe(errorShapeExhaustively(text));
      }),
      { numRuns: 300 },
    );
  });

  it('shapes a long text from its head and tail', () => {
    const long = `Error: first line\n${'x '.repeat(50_000)}\nfatal: last line`;
    const shape = errorShape(long);
    expect(shape.startsWith('error: first line')).toBe(true);
    expect(shape.endsWith('fatal: last line')).toBe(true);
  });

  it('shapes a text seen again, among others and anew decoded, as it shaped it the first time', () => {
    const errors = [
      "cat: 'notes.md': No such file or directory",
      "cat: 'draft.txt': No such file or directory",
      `FAIL test/orders.test.ts > parseOrder\n${'  expected -1.5 to be greater than or equal to 0 (12ms)\n'.repeat(300)}`,
      'Error: listen EADDRINUSE: address already in use 127.0.0.1:54321',
      'npm error Missing script: "tset"',
      "TypeError: Cannot read properties of undefined (reading 'getUser')",
    ];
    fc.assert(
      fc.property(fc.array(fc.nat({ max: errors.length - 1 }), { maxLength: 30 }), (picks) => {
        for (const pick of picks) {
          const text = JSON.parse(JSON.stringify(errors[pick])) as string;
          expect(errorShape(text)).toBe(errorShapeExhaustively(text));
        }
      }),
      { numRuns: 200 },
    );
  });
});
