import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { returnedExcerpt } from '../../src/replay/returned.js';

/** The excerpt read from the whole text: whitespace collapsed everywhere, then cut. */
function wholeTextExcerpt(text: string, failed: boolean): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const cut = line.length > 120 ? `${line.slice(0, 119)}…` : line;
  const shown = cut === '' ? '(empty)' : cut;
  return failed ? `error: ${shown}` : shown;
}

describe('returnedExcerpt', () => {
  it('cuts a 20 KB failing test run to its first line of output', () => {
    const lines = [' RUN  v3.2.4 /srv/app', ''];
    for (let test = 0; test < 300; test++)
      lines.push(` × test/orders/module-${test}.test.ts > parseOrder > rejects a negative total 5ms`);
    const text = lines.join('\n');
    const excerpt = returnedExcerpt({ content: [{ type: 'text', text }], isError: true });
    expect(excerpt).toBe(wholeTextExcerpt(text, true));
    expect(excerpt?.startsWith('error: RUN v3.2.4 /srv/app × test/orders/module-0.test.ts')).toBe(true);
  });

  it('reads past a start that is all whitespace', () => {
    const text = `${' \n\t'.repeat(5_000)}Error: request timed out after 30000 ms${' '.repeat(3_000)}`;
    expect(returnedExcerpt({ error: text })).toBe('error: Error: request timed out after 30000 ms');
  });

  it('reads any text as collapsing the whole of it would', () => {
    const piece = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom(' ', '\n', '\t', '\u00a0', '\u2028', '\ufeff', ' '.repeat(600), 'x'.repeat(130)),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), fc.boolean(), (pieces, failed) => {
        const text = pieces.join('');
        const result = failed ? { content: text, isError: true as const } : { content: text };
        expect(returnedExcerpt(result)).toBe(wholeTextExcerpt(text, failed));
      }),
      { numRuns: 500 },
    );
  });

  it('collapses exactly the characters a regular expression reads as whitespace, every one of them', () => {
    for (let code = 0; code <= 0xffff; code++) {
      const char = String.fromCharCode(code);
      const text = `${char}npm ERR!${char}${char}missing script${char}`;
      const excerpt = returnedExcerpt({ content: text });
      if (excerpt !== wholeTextExcerpt(text, false))
        expect({ code, excerpt }).toEqual({ code, excerpt: wholeTextExcerpt(text, false) });
    }
  });

  it('cuts a long text of words and runs of whitespace as collapsing the whole of it would', () => {
    const space = fc.constantFrom(
      ' ',
      '  ',
      '\n',
      '\r\n',
      '\t',
      '\u00a0',
      '\u2003',
      '\u3000',
      '\ufeff',
      '\u2029',
    );
    const word = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 });
    fc.assert(
      fc.property(fc.array(fc.oneof(word, space), { minLength: 1, maxLength: 80 }), (parts) => {
        const text = parts.join('');
        expect(returnedExcerpt({ error: text })).toBe(wholeTextExcerpt(text, true));
      }),
      { numRuns: 500 },
    );
  });

  it('reads a list of content items as their texts joined by spaces', () => {
    const item = fc.oneof(
      fc.record({ type: fc.constant('text'), text: fc.string({ maxLength: 90 }) }),
      fc.record({ type: fc.constant('image'), data: fc.string({ maxLength: 10 }) }),
    );
    fc.assert(
      fc.property(fc.array(item, { maxLength: 8 }), (content) => {
        const texts = content.flatMap((entry) => ('text' in entry ? [entry.text] : []));
        expect(returnedExcerpt({ content })).toBe(wholeTextExcerpt(texts.join(' '), false));
      }),
      { numRuns: 500 },
    );
  });
});
