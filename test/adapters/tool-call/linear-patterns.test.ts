/**
 * Expressions rewritten to read a text in linear time, each beside the one it replaced: on any text,
 * both say the same (whether it matches, and what a caller reads of the match), but for a failing
 * test's line marked with a cross, now ended by a carriage return as a terminal shows it. The texts
 * are drawn from the pieces that make the old forms slow (runs of blank lines, of white space, of a
 * path's letters) and the words the expressions look for, so that matches and near misses are
 * common.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matcherFor } from '../../../src/adapters/tool-call/adapter.js';
import { directoryAfter, waitSecondsOf } from '../../../src/adapters/tool-call/command-effects.js';
import { hasFailureLine } from '../../../src/adapters/tool-call/failure-lines.js';
import { readsAsWindowsShell } from '../../../src/adapters/tool-call/windows-shell.js';
import { growth } from '../../growth.js';

/** Texts made of `pieces`, up to `length` of them. */
function textOf(pieces: readonly string[], length = 40): fc.Arbitrary<string> {
  return fc.array(fc.constantFrom(...pieces), { maxLength: length }).map((parts) => parts.join(''));
}

const BLANKS = ['\n', '\r\n', '\r', '\u2028', ' ', '\t', '  '];

/** An expression a rewrite replaced, and the one that replaced it. */
type Rewrite = readonly [before: RegExp, after: RegExp];

/** Whether the expression matches the text. */
const matches = (pattern: RegExp, text: string): boolean => pattern.test(text);

/** What a caller of `matchAll` reads: each match's groups and where it ends. */
function matchesOf(pattern: RegExp, text: string): string[] {
  return [...text.matchAll(pattern)].map(
    (match) => `${match.slice(1).join('|')}@${match.index + match[0].length}`,
  );
}

/**
 * Each rewrite reads every text made of `pieces` as the expression it replaced read it, by what
 * `read` takes of the reading (whether it matches, its matches, what it replaces).
 */
function expectReadAlike(
  rewrites: readonly Rewrite[],
  pieces: readonly string[],
  read: (pattern: RegExp, text: string) => unknown,
): void {
  fc.assert(
    fc.property(textOf(pieces), (sample) => {
      for (const [before, after] of rewrites)
        expect(read(after, sample), `${before} on ${JSON.stringify(sample)}`).toEqual(read(before, sample));
    }),
    { numRuns: 3000 },
  );
}

describe('a line start followed by white space', () => {
  const pieces = [
    ...BLANKS,
    'Tests',
    'Test Files',
    'Failed! - Failed: 1',
    'ERR_PNPM_NO_SCRIPT',
    ': ',
    '3 failed',
    '3',
    'x',
    '=',
  ];
  const rewrites: readonly Rewrite[] = [
    [/^\s*ERR_PNPM_[A-Z_]+/m, /^[^\S\n\r\u2028\u2029]*ERR_PNPM_[A-Z_]+/m],
    [/^\s*Failed! +- Failed: +[1-9]/m, /^[^\S\n\r\u2028\u2029]*Failed! +- Failed: +[1-9]/m],
    [
      /^\s*Tests?(?: Files)?:?\s+.*\b\d+ failed\b/m,
      /^[^\S\n\r\u2028\u2029]*Tests?(?: Files)?:?(?=(\s+))\1.*?(?<!\w)\d+ failed\b/m,
    ],
    [/^\s*Tests?:?\s+\d+ failed\b/m, /^[^\S\n\r\u2028\u2029]*Tests?:?\s+\d+ failed\b/m],
    [
      /^(?:\S+: )?(?:line \d+:)?\s*\d+ (?:killed|terminated)\b/m,
      /^(?:\S+: )?(?:line \d+:)?[^\S\n\r\u2028\u2029]*\d+ (?:killed|terminated)\b/m,
    ],
  ];

  it('is found where the old expression found it, on any text', () => {
    expectReadAlike(rewrites, [...pieces, 'sh: ', 'line 3:', ' killed', '12'], matches);
  });
});

describe('a failing test’s line marked with a cross', () => {
  const before = /^\s*(?:×|✕|✗|✖) [^\n]*(?:\d+ ?ms|\.test\.|\.spec\.)/m;
  const after = /^[^\S\n\r\u2028\u2029]*(?:×|✕|✗|✖) [^\n\r\u2028\u2029]*?(?:\d ?ms|\.test\.|\.spec\.)/m;

  it('is found where the old expression found it, on lines without a carriage return', () => {
    expectReadAlike(
      [[before, after]],
      ['\n', ' ', '\t', '× ', '✖ ', 'a.test.ts', '.spec.', '12', '3 ms', 'ms', ' 5ms', 'x'],
      matches,
    );
  });

  it('reads a line a carriage return redrew as the terminal shows it, a line of its own', () => {
    expect(after.test('× checks the total\r✓ 12ms')).toBe(false);
    expect(after.test('✓ checks the total\r× checks the total 12ms')).toBe(true);
  });
});

describe('a summary line framed by equals signs', () => {
  const before = /^=+ .*\b\d+ failed\b.* =+\s*$/m;
  const after = /^=+ (?=.*?(?<!\w)\d+ failed\b)(?=.* =+\s*$)/m;

  it('is found where the old expression found it, on any text', () => {
    expectReadAlike(
      [[before, after]],
      ['=', '==', ' ', '3 failed', 'a3 failed', ', 2 passed', ' in 0.1s', '\n', '\r', 'x', ' ='],
      matches,
    );
  });
});

describe('a command after a separator', () => {
  const pieces = [
    '\n',
    ' ',
    '\t',
    ';',
    '&&',
    '||',
    '|',
    '(',
    'sleep ',
    '5',
    'm',
    'cd ',
    'src',
    'import ',
    'os',
    'from ',
    're',
    ' import',
    'Get-Item',
    'x',
  ];
  /** Read by their matches, as `matchAll` gives them. */
  const everyMatch: readonly Rewrite[] = [
    [
      /(?:^|&&|;|\|\||\n)\s*sleep\s+(\d+(?:\.\d+)?)([smhd]?)\s*(?=$|&&|;|\|\||\n)/g,
      /(?:^|&&|;|\|\||\n)[^\S\n]*sleep\s+(\d+(?:\.\d+)?)([smhd]?)\s*(?=$|&&|;|\|\||\n)/g,
    ],
    [/(?:^|[\n;])\s*import\s+([^\n;]+)/g, /(?:^|[\n;])[^\S\n]*import\s+([^\n;]+)/g],
    [/(?:^|[\n;])\s*from\s+([\w.]+)\s+import\b/g, /(?:^|[\n;])[^\S\n]*from\s+([\w.]+)\s+import\b/g],
  ];
  /** Read by whether they match. */
  const aMatch: readonly Rewrite[] = [
    [
      /(?:^|[;&|(\n])\s*(?:cd|pushd|popd|Set-Location|Push-Location|Pop-Location)(?:\s|$)/,
      /(?:^|[;&|(\n])[^\S\n]*(?:cd|pushd|popd|Set-Location|Push-Location|Pop-Location)(?:\s|$)/,
    ],
    [
      /(?:^|[;|({=\n]|&&)\s*(?:get|set|new|remove)-[a-z]+(?=[\s;|)}]|$)/i,
      /(?:^|[;|({=\n]|&&)[^\S\n]*(?:get|set|new|remove)-[a-z]+(?=[\s;|)}]|$)/i,
    ],
  ];

  it('gives what the old expression gave, match by match, on any command', () => {
    expectReadAlike(everyMatch, pieces, matchesOf);
    expectReadAlike(aMatch, pieces, matches);
  });
});

describe('the random part of a temporary path', () => {
  const before =
    /(\/(?:private\/)?(?:tmp|var\/tmp|var\/folders\/[^/\s]+\/[^/\s]+\/T)\/)([A-Za-z_.-]*(?=[A-Za-z_.-]*\d)[A-Za-z0-9_.-]{6,})/g;
  const after =
    /(\/(?:private\/)?(?:tmp|var\/tmp|var\/folders\/[^/\s]+\/[^/\s]+\/T)\/)(?=[A-Za-z_.-]*\d)([A-Za-z0-9_.-]{6,})/g;

  it('is masked as the old expression masked it, on any text', () => {
    expectReadAlike(
      [[before, after]],
      [
        '/tmp/',
        '/private/tmp/',
        '/var/tmp/',
        '/var/folders/x7/ab/T/',
        'a',
        'Z',
        '_',
        '.',
        '-',
        '7',
        '12',
        ' ',
        '/',
        'tmp',
        'out.txt',
      ],
      (pattern, text) => text.replace(pattern, '$1<tmp>'),
    );
  });
});

describe('an error naming a value beside its words', () => {
  const rewrites: readonly Rewrite[] = [
    [
      /\bexit(?:ed)?(?: with)? (?:code|status)\s*[:=]?\s*[1-9]\d*\b/m,
      /\bexit(?:ed)?(?: with)? (?:code|status)\s*(?:[:=]\s*)?[1-9]\d*\b/m,
    ],
    [
      /\bcould not translate host name "[^"\n]*[='\s/][^"\n]*"/m,
      /\bcould not translate host name "(?:(?=[^"\n]*[='\s/])[^"\n]*|[^"\n]*\n[^"\n]*)"/m,
    ],
  ];

  it('matches the same text the old expression matched', () => {
    expectReadAlike(
      rewrites,
      [
        'exit code',
        'exited with status',
        'could not translate host name "',
        '"',
        ' ',
        '\t',
        '\n',
        ':',
        '=',
        '1',
        '0',
        'db',
        '/',
        "'",
        'x',
      ],
      (pattern, text) => pattern.exec(text)?.[0],
    );
  });
});

/**
 * Texts a tool, a repository or a model may send, shaped as the old expressions' worst cases: a
 * sixteen times longer one costs about sixteen times as much (under 64), where the old expressions
 * cost about 256 times as much.
 */
describe('time linear in the text', () => {
  const sizes = (scale: number, unit: number) => unit * scale;
  const blankLines = (scale: number) => '\n'.repeat(sizes(scale, 1_000));

  it('reads an output of blank lines for failure lines once', async () => {
    const output = (scale: number) => `${blankLines(scale)}Tests: 3 passed\n${blankLines(scale)}Failed! -`;
    expect(await growth((scale) => hasFailureLine(output(scale)), 16)).toBeLessThan(64);
  });

  it('reads a command of blank lines for a wait, a move and a cmdlet once', async () => {
    const command = (scale: number) => `${blankLines(scale)}echo sleep; x`;
    expect(
      await growth((scale) => {
        waitSecondsOf(command(scale));
        directoryAfter(command(scale));
        readsAsWindowsShell(command(scale));
      }, 16),
    ).toBeLessThan(64);
  });

  it('reads an output of redrawn crosses for the failure kinds once', async () => {
    const matcher = matcherFor([]);
    let round = 0;
    const output = (scale: number) =>
      `${round++} test failed\n${'✖ \r'.repeat(sizes(scale, 30))}✗${'0'.repeat(sizes(scale, 30))}`;
    expect(await growth((scale) => matcher.match(output(scale)), 16)).toBeLessThan(64);
  });

  it('reads an output of blank lines for the failure kinds once', async () => {
    const matcher = matcherFor([]);
    // A text the matcher has not read before each time: it remembers its last few answers.
    let round = 0;
    const output = (scale: number) => `${round++}${blankLines(scale / 2)}x\nTests: 3 passed, failed`;
    expect(await growth((scale) => matcher.match(output(scale)), 16)).toBeLessThan(64);
  });
});
