import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonInWords } from '../../../src/core/detectors/json-words.js';

describe('JSON in an error, said in words', () => {
  it('says each validation issue as its field and message', () => {
    const zod =
      'Invalid arguments for tool create_issue: [{"code":"invalid_type","expected":"string","received":"undefined","path":["title"],"message":"Required"},{"code":"too_small","path":["labels",0],"message":"String must contain at least 1 character(s)"}]';
    expect(jsonInWords(zod)).toBe(
      'Invalid arguments for tool create_issue: title: Required; labels.0: String must contain at least 1 character(s)',
    );
  });

  it("says an HTTP body by its message, without the documentation link's field", () => {
    const body =
      'GET /repos/acme/web/issues/9 failed: 404 {"message":"Not Found","documentation_url":"https://docs.github.com/rest"}';
    expect(jsonInWords(body)).toBe('GET /repos/acme/web/issues/9 failed: 404 Not Found');
  });

  it('says an object without a message by its fields', () => {
    expect(jsonInWords('{"stdout":"","stderr":"fatal: not a git repository","exit_code":128}')).toBe(
      'stderr: fatal: not a git repository, exit_code: 128',
    );
  });

  it('leaves text without JSON, and JSON it cannot read, as it is', () => {
    expect(jsonInWords("TypeError: Cannot read properties of undefined (reading 'map')")).toBe(
      "TypeError: Cannot read properties of undefined (reading 'map')",
    );
    expect(jsonInWords('unexpected token in {"a": 1, "b": }')).toBe('unexpected token in {"a": 1, "b": }');
  });

  it('leaves any text without a bracket as it is', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        fc.pre(!/[[{]/.test(text));
        expect(jsonInWords(text)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it('leaves no JSON key behind in an error that embeds any object', () => {
    const word = fc.stringMatching(/^[a-z][a-z ]{0,15}$/);
    const value = fc.oneof(word, fc.integer(), fc.boolean(), fc.array(word, { maxLength: 3 }));
    fc.assert(
      fc.property(word, fc.dictionary(word, value, { minKeys: 1, maxKeys: 6 }), (before, object) => {
        fc.pre(Object.values(object).some((item) => !(Array.isArray(item) && item.length === 0)));
        const said = jsonInWords(`${before}: ${JSON.stringify(object)} (request failed)`);
        expect(said).not.toMatch(/[{[]\s*"/);
        expect(said.startsWith(`${before}: `)).toBe(true);
        expect(said.endsWith(' (request failed)')).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
