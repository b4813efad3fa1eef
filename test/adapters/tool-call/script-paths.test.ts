import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pathsNamedInScript } from '../../../src/adapters/tool-call/script-paths.js';
import { normalizeTarget } from '../../../src/adapters/tool-call/targets.js';

/**
 * The definition read forwards, as the module's comment gives it: every quote that opens a run of
 * 3 to 260 characters without quotes or blanks closed by a quote of its kind, the run taken when it
 * ends with an extension and is no URL, module or glob.
 */
function namedReadingForwards(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.slice(0, 64_000).matchAll(/(["'`])(?=([^"'`\s]{3,260})\1)/g)) {
    const literal = match[2] as string;
    if (!/[^/\\]\.[A-Za-z][A-Za-z0-9]{0,7}$/.test(literal) || /:\/\/|^@|^node:|[*?{}<>|$%]/.test(literal))
      continue;
    found.add(normalizeTarget(literal.replaceAll('\\\\', '\\')));
    if (found.size >= 32) break;
  }
  return [...found];
}

describe("the files a script's text names", () => {
  it('reads the files a Node script reads and writes', () => {
    const script = [
      "const fs = require('fs');",
      "const content = fs.readFileSync('routes/webhooks.js', 'utf8');",
      "fs.writeFileSync('routes/webhooks.js', content.replace('a', 'b'));",
      'fs.copyFileSync(`config/default.json`, `config/local.json`);',
    ].join('\n');
    expect(pathsNamedInScript(script)).toEqual([
      'routes/webhooks.js',
      'config/default.json',
      'config/local.json',
    ]);
  });

  it("reads a literal right after a closing quote, as in require('fs').writeFileSync('a.js')", () => {
    expect(pathsNamedInScript("require('fs').writeFileSync('src/app.js', fixed);")).toEqual(['src/app.js']);
  });

  it('reads the files a Python script opens, Windows paths included', () => {
    const script = [
      'import json, pathlib',
      'with open("data/settings.yaml") as f: pass',
      "pathlib.Path(r'C:\\\\Users\\\\dev\\\\app\\\\main.py').write_text(code)",
    ].join('\n');
    expect(pathsNamedInScript(script)).toEqual(['data/settings.yaml', 'C:/Users/dev/app/main.py']);
  });

  it('takes no module, URL, glob, version or encoding for a file', () => {
    const script = [
      "import express from 'express';",
      "import { readFile } from 'node:fs/promises';",
      "fetch('https://api.example.com/v1/items.json');",
      "glob('src/**/*.ts'); const v = '1.2.3'; const e = 'utf-8';",
      "const scoped = require('@scope/pkg.js');",
    ].join('\n');
    expect(pathsNamedInScript(script)).toEqual([]);
  });

  it('takes an extension of a letter and at most seven letters or digits after it, in either case', () => {
    const script =
      "open('a.mp4'); open('b.x09'); open('c.abcdefgh'); open('d.abcdefghi'); open('e.9z'); open('f.MD')";
    expect(pathsNamedInScript(script)).toEqual(['a.mp4', 'b.x09', 'c.abcdefgh', 'f.MD']);
  });

  it('keeps at most 32 files, and reads only the start of a long text', () => {
    const many = Array.from({ length: 100 }, (_, index) => `open('out/part-${index}.csv')`).join('\n');
    expect(pathsNamedInScript(many)).toHaveLength(32);
    expect(pathsNamedInScript(`${' '.repeat(70_000)}open('late.txt')`)).toEqual([]);
  });

  it('finds what reading every quote forwards finds, in any text of quotes, dots, names and slashes', () => {
    const piece = fc.constantFrom(
      "'",
      '"',
      '`',
      '.',
      'js',
      'a',
      'b/',
      '\\',
      ' ',
      '\n',
      '\u00a0',
      '\u2028',
      'x.py',
      'Z9',
      '1',
      // Extensions at their longest (a letter and seven more) and one character past it.
      '.abcdefgh',
      '.abcdefghi',
      '@',
      '://',
      '*',
      'src/',
      '\\\\',
    );
    const texts = fc
      .tuple(fc.array(piece, { maxLength: 80 }), fc.nat(300))
      .map(([parts, long]) => `'${'q'.repeat(long)}.ts'${parts.join('')}`);
    fc.assert(
      fc.property(texts, (text) => {
        expect(pathsNamedInScript(text)).toEqual(namedReadingForwards(text));
      }),
      { numRuns: 2_000 },
    );
  });

  it('answers a list of at most 32 strings for any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        const names = pathsNamedInScript(text);
        expect(names.length).toBeLessThanOrEqual(32);
        for (const name of names) expect(typeof name).toBe('string');
      }),
      { numRuns: 500 },
    );
  });
});
