import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pathsNamedInScript } from '../../../src/adapters/tool-call/script-paths.js';

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

  it('keeps at most 32 files, and reads only the start of a long text', () => {
    const many = Array.from({ length: 100 }, (_, index) => `open('out/part-${index}.csv')`).join('\n');
    expect(pathsNamedInScript(many)).toHaveLength(32);
    expect(pathsNamedInScript(`${' '.repeat(70_000)}open('late.txt')`)).toEqual([]);
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
