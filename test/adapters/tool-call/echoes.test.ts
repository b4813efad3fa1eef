import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withoutEchoes } from '../../../src/adapters/tool-call/echoes.js';

/**
 * The obvious reading of "blank every quote of an argument value": one expression per value, its
 * words joined by `\s+`, replaced everywhere. What the adapter does must always equal it.
 */
function withoutEchoesByExpression(text: string, args: Readonly<Record<string, unknown>>): string {
  const values: string[] = [];
  const collect = (value: unknown, depth: number): void => {
    if (values.length >= 8) return;
    if (typeof value === 'string') {
      const trimmed = value.trim();
      if (trimmed.length >= 12 && trimmed.length <= 4000) values.push(trimmed);
      return;
    }
    if (depth === 0) return;
    if (Array.isArray(value)) for (const item of value.slice(0, 8)) collect(item, depth - 1);
    else if (typeof value === 'object' && value !== null)
      for (const key of Object.keys(value).slice(0, 32))
        collect((value as Record<string, unknown>)[key], depth - 1);
  };
  collect(args, 3);
  let out = text;
  for (const value of values) {
    const words = value.split(/\s+/);
    if (!out.includes(words[0] ?? '')) continue;
    if (words.length === 1) out = out.split(value).join(' ');
    else if (words.length <= 400) {
      const escaped = words.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      out = out.replace(new RegExp(escaped.join('\\s+'), 'g'), ' ');
    }
  }
  return out;
}

describe('blanking the arguments an error quotes', () => {
  it('blanks an edit’s search text quoted with its line breaks re-indented', () => {
    const args = { path: 'src/retry.ts', old_string: 'const retries = 5;\n  return retries;' };
    const text =
      'Error: Could not find exact match for edit:\nconst retries = 5;\n\treturn retries;\nin file';
    expect(withoutEchoes(text, args)).toBe('Error: Could not find exact match for edit:\n \nin file');
  });

  it('blanks every quote of a value, and a one-word value wherever it occurs', () => {
    const args = { path: 'docs/notes-unauthorized.md', pattern: 'rate limit exceeded' };
    const text =
      "ENOENT: open 'docs/notes-unauthorized.md'; searched for rate  limit exceeded, then rate limit\texceeded";
    expect(withoutEchoes(text, args)).toBe("ENOENT: open ' '; searched for  , then  ");
  });

  it('blanks a quote of four hundred words, and leaves one of more as it is', () => {
    const long = (count: number) => Array.from({ length: count }, (_, index) => `w${index}`).join(' ');
    for (const count of [400, 401]) {
      const text = `Error: ${long(count).replaceAll(' ', '\n')} not found`;
      expect(withoutEchoes(text, { old_string: long(count) })).toBe(
        withoutEchoesByExpression(text, { old_string: long(count) }),
      );
    }
    expect(withoutEchoes(`a ${long(400)} b`, { old_string: long(400) })).toBe('a   b');
    expect(withoutEchoes(`a ${long(401)} b`, { old_string: long(401) })).toBe(`a ${long(401)} b`);
  });

  it('leaves a text that quotes no value as it is', () => {
    const text = "ENOENT: no such file or directory, open 'src/legacy/module-a.ts'";
    expect(withoutEchoes(text, { old_string: 'const retries = 3;', path: 'src/other/file.ts' })).toBe(text);
  });

  it('blanks what one expression per value would, for any text and arguments', () => {
    const word = fc.constantFrom('const', 'retries', 'retries=', '3;', 'a.b', '(x)', '[y]*', '$1', 'é', 'c');
    const space = fc.constantFrom(' ', '  ', '\n', '\t', '\u00a0', '\r\n', ' \u2028 ', '\ufeff', '\u3000');
    const spaced = (words: readonly string[]) =>
      fc
        .array(space, { minLength: words.length, maxLength: words.length })
        .map((spaces) => words.map((item, index) => item + spaces[index]).join(''));
    const phrase = fc.array(word, { minLength: 1, maxLength: 6 });
    const scenario = fc.array(phrase, { minLength: 1, maxLength: 3 }).chain((phrases) =>
      fc.record({
        values: fc.tuple(...phrases.map(spaced)),
        // The values' own words, spaced anew, cut short, run together or repeated, among other words.
        text: fc
          .array(
            fc.oneof(
              fc.constantFrom(...phrases).chain(spaced),
              fc.constantFrom(...phrases).chain((words) => spaced(words.slice(0, -1))),
              fc.constantFrom(...phrases).map((words) => words.join('')),
              phrase.chain(spaced),
              fc.string({ maxLength: 3 }),
            ),
            { maxLength: 10 },
          )
          .map((parts) => parts.join('')),
      }),
    );
    fc.assert(
      fc.property(scenario, fc.string(), ({ values, text }, other) => {
        const args = { ...Object.fromEntries(values.map((item, index) => [`a${index}`, item])), other };
        expect(withoutEchoes(text, args)).toBe(withoutEchoesByExpression(text, args));
      }),
      { numRuns: 3000 },
    );
  });
});
