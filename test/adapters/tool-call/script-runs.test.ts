import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runsScriptFile, scriptFileRun } from '../../../src/adapters/tool-call/script-runs.js';

const SHELL_PIECES = [
  'python3',
  'node',
  './run.sh',
  'solve.py',
  '"a b.py"',
  "'x'",
  'cd',
  '/srv/app',
  '&&',
  '||',
  ';',
  '|',
  '&',
  '>',
  '2>&1',
  '$X',
  '`id`',
  '$(pwd)',
  '(',
  ')',
  '{',
  '}',
  '\n',
  '"',
  "'",
  '\\',
  'FOO=1',
  '-m',
];

describe('reading a line as one script run', () => {
  it('answers a boolean for any line a model may write, unreadable ones included', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...SHELL_PIECES), { maxLength: 12 }),
        fc.string(),
        (pieces, noise) => {
          expect(typeof runsScriptFile(`${pieces.join(' ')}${noise}`)).toBe('boolean');
        },
      ),
      { numRuns: 500 },
    );
  });

  it('reads a script run after a move of the directory as the same run', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('python3 solve.py', './decode.sh', 'node exploit.js', 'bash "build all.sh"'),
        fc.constantFrom('/srv/ctf', '~/work', 'chal', '"my folder"'),
        fc.constantFrom(' && ', '; ', '\n'),
        (run, place, join) => {
          expect(runsScriptFile(`cd ${place}${join}${run}`)).toBe(runsScriptFile(run));
        },
      ),
    );
  });

  it('names the program file a line runs, and none for a line that does more', () => {
    expect(scriptFileRun('node fix-webhooks.cjs')).toBe('fix-webhooks.cjs');
    expect(scriptFileRun('cd /srv/app && python3 -u scripts/migrate.py --dry-run')).toBe(
      'scripts/migrate.py',
    );
    expect(scriptFileRun('./run_check.sh')).toBe('./run_check.sh');
    expect(scriptFileRun('node fix.cjs | tee log.txt')).toBeUndefined();
    expect(scriptFileRun('npm test')).toBeUndefined();
  });
});
