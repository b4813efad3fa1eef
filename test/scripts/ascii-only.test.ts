import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { asciiOnly } from '../../scripts/ascii-only.js';
import { bundleCli } from '../../scripts/bundle-cli.js';
import { bundleHook } from '../../scripts/bundle-hook.js';

/** The value of a JavaScript expression, as a bundle would evaluate it. */
function evaluate(expression: string): unknown {
  return new Function(`return ${expression};`)();
}

function isAscii(text: string): boolean {
  for (let index = 0; index < text.length; index++) if (text.charCodeAt(index) >= 0x80) return false;
  return true;
}

/** What each pattern finds in each text, to compare two writings of the same patterns. */
function matches(patterns: RegExp[], texts: string[]): (string[] | null)[] {
  return patterns.flatMap((pattern) =>
    texts.map((text) => text.match(new RegExp(pattern.source, `${pattern.flags}g`))),
  );
}

describe('a bundle written in ASCII', () => {
  const texts = [
    'tests took 12µs and 4 ms',
    "the file ‘src/app.ts’ isn't there…",
    '╰─> See above for output.',
    '“quoted” and ‘single’',
    'nothing here',
  ];

  it('writes every character beyond ASCII in a regular expression as an escape that matches the same texts', () => {
    const source =
      String.raw`[/\b\d+\s?(?:ms|µs|us)\b/, /["'` +
      '`' +
      String.raw`‘]?([^\s"'` +
      '`' +
      String.raw`’]+)/i, /^[\s╰─>]*See above for output\./, /“[^”]{0,20}”|‘[^’]{0,20}’/u, /(?:\.\.\.|…)\s*$/]`;
    const escaped = asciiOnly(source);
    expect(isAscii(escaped)).toBe(true);
    expect(matches(evaluate(escaped) as RegExp[], texts)).toEqual(
      matches(evaluate(source) as RegExp[], texts),
    );
  });

  it('drops the backslash that escaped a character beyond ASCII, and keeps an escaped backslash before one', () => {
    expect(asciiOnly(String.raw`/it\’s/`)).toBe(String.raw`/it\u2019s/`);
    expect(asciiOnly(String.raw`/a\\’/`)).toBe(String.raw`/a\\\u2019/`);
    expect((evaluate(asciiOnly(String.raw`/a\\’/`)) as RegExp).test('a\\’')).toBe(true);
  });

  it('writes a character beyond the first 65,536 as its two halves, which a pattern with the u flag reads as one', () => {
    const escaped = asciiOnly('/^😀+$/u');
    expect(escaped).toBe(String.raw`/^\ud83d\ude00+$/u`);
    expect((evaluate(escaped) as RegExp).test('😀😀')).toBe(true);
  });

  it('leaves a text already in ASCII as it is', () => {
    const text = 'const pattern = /\\bdone\\b/;';
    expect(asciiOnly(text)).toBe(text);
  });

  it("makes the command line's bundle ASCII, though its failure patterns are written with other characters", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'narrowing-ascii-bundle-'));
    try {
      const file = await bundleCli(join(dir, 'narrowing.cjs'));
      expect(isAscii(readFileSync(file, 'utf8'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("makes every script of the hook's bundle ASCII: the client, the event handled without the helper, the helper", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'narrowing-ascii-hook-'));
    try {
      await bundleHook(join(dir, 'hook.js'));
      const scripts = readdirSync(dir).filter((name) => name.endsWith('.js') || name.endsWith('.cjs'));
      expect(scripts).toEqual(
        expect.arrayContaining(['hook-client.cjs', 'hook-handle.cjs', 'hook-daemon.cjs']),
      );
      expect(scripts.filter((name) => !isAscii(readFileSync(join(dir, name), 'utf8')))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
