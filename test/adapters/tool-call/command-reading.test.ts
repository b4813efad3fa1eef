import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commandAttemptKey } from '../../../src/adapters/tool-call/command-attempt.js';
import {
  commandsOf,
  leavesSourcesAlone,
  programOf,
  programOfLines,
} from '../../../src/adapters/tool-call/command-effects.js';
import { commandReading } from '../../../src/adapters/tool-call/command-reading.js';
import { shellEffectsOf } from '../../../src/adapters/tool-call/shell-effects.js';
import { parseShell, statusMayHideFailure } from '../../../src/adapters/tool-call/shell-parse.js';
import { runsTests } from '../../../src/adapters/tool-call/test-runs.js';
import { commandTargets } from '../../../src/adapters/tool-call/workspace.js';

const LINES = [
  'npm test -- test/orders/module-5yc1s.test.ts',
  'npx vitest run test/cart.test.ts',
  'git diff --stat src/orders/module-5yc1s.ts',
  'npm run build --workspace=packages/orders-5yc1s',
  'NO_COLOR=1 npm test -- --reporter=dot 2>&1 | tail -20',
  "sed -i 's/29/30/' src/cart.ts && echo done > build/log.txt",
  'cd /srv/app\ngit show HEAD:app.py',
  'sleep 30 && gh run view 42',
  'echo -n secret | sha256sum',
  'for f in *.ts; do echo $f; done',
  'pytest -q tests/test_cart.py',
  '  ls -la src  ',
  'echo "unterminated',
];

/** Every reader's answer for a line. */
function answers(line: string): unknown[] {
  let tree: unknown;
  try {
    tree = parseShell(line);
  } catch (error) {
    tree = String(error);
  }
  return [
    shellEffectsOf(line),
    programOf(line),
    programOfLines(line),
    commandsOf(line),
    leavesSourcesAlone(line),
    commandAttemptKey(line),
    statusMayHideFailure(line),
    runsTests(line),
    commandTargets(line),
    tree,
  ];
}

/** Fills the readings kept with other lines, so that the next reading of any line starts afresh. */
function forgetReadings(): void {
  for (let index = 0; index < 8; index++) commandReading(`true ${index}`);
}

describe('one reading of a command line shared by its readers', () => {
  it('gives every reader the same answer in any order of lines and readers as each line read afresh', () => {
    const fresh = LINES.map((line) => {
      forgetReadings();
      return answers(line);
    });
    const step = fc.record({ line: fc.integer({ min: 0, max: LINES.length - 1 }), reader: fc.nat(9) });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        for (const { line, reader } of steps) {
          const text = LINES[line] as string;
          const expected = fresh[line] as unknown[];
          // One reader alone first, then all of them, with other lines read in between.
          expect(answers(text)[reader]).toEqual(expected[reader]);
        }
        for (let line = 0; line < LINES.length; line++)
          expect(answers(LINES[line] as string)).toEqual(fresh[line]);
      }),
      { numRuns: 40 },
    );
  });

  it('splits a line parsed as plain words into the words a split on white space gives', () => {
    const word = fc.stringMatching(/^[a-z0-9_./:=-]{1,6}$/);
    let plain = 0;
    const line = fc
      .tuple(fc.array(word, { minLength: 1, maxLength: 6 }), fc.array(fc.constantFrom(' ', '  ', '\t', '\n')))
      .map(([words, gaps]) =>
        words.map((text, index) => `${index === 0 ? '' : (gaps[index] ?? ' ')}${text}`).join(''),
      );
    fc.assert(
      fc.property(fc.constantFrom('', ' '), line, fc.constantFrom('', ' '), (before, text, after) => {
        const command = `${before}${text}${after}`;
        forgetReadings();
        try {
          parseShell(command);
        } catch {}
        const reading = commandReading(command);
        // A line of plain words, which the plain reading splits: spaces only, none at the ends.
        if (!/[\t\n]/.test(command) && command === command.trim() && !/^\S*=/.test(command)) plain++;
        expect(reading.words).toEqual(command.trim().split(/\s+/));
      }),
      { numRuns: 500 },
    );
    // Many of the lines are plain words (about one in ten).
    expect(plain).toBeGreaterThan(20);
  });

  it('parses a line once for its effects and its attempt key', () => {
    const line = 'npm test -- test/orders/module-5yc1s.test.ts';
    shellEffectsOf(line);
    const tree = parseShell(line);
    commandAttemptKey(line);
    expect(parseShell(line)).toBe(tree);
  });

  it('keeps the readings of the last four lines only', () => {
    const first = commandReading('npm test');
    for (let index = 0; index < 4; index++) commandReading(`git diff src/module-${index}.ts`);
    expect(commandReading('git diff src/module-3.ts')).toBe(commandReading('git diff src/module-3.ts'));
    expect(commandReading('npm test')).not.toBe(first);
  });
});
