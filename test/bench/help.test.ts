import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { headerComment } from '../../bench/help.js';
import { runAsScript, scriptOptions } from '../../bench/script.js';

const BENCH = fileURLToPath(new URL('../../bench', import.meta.url));

describe('--help of the bench scripts', () => {
  it('is the header comment of the script, without its comment marks', () => {
    const source = [
      '/**',
      ' * Times two builds against each other.',
      ' *',
      ' *     npx tsx bench/example.ts --base FOLDER [--rounds 6]',
      ' */',
      "import { parseArgs } from 'node:util';",
      '/** A later comment. */',
    ].join('\n');
    expect(headerComment(source)).toBe(
      'Times two builds against each other.\n\n    npx tsx bench/example.ts --base FOLDER [--rounds 6]',
    );
  });

  it('is answered by every script that reads options from its command line', () => {
    const scripts = readdirSync(BENCH).filter(
      (name) => name.endsWith('.ts') && readFileSync(join(BENCH, name), 'utf8').includes('parseArgs({'),
    );
    expect(scripts.length).toBeGreaterThan(0);
    for (const name of scripts) {
      const source = readFileSync(join(BENCH, name), 'utf8');
      expect({ name, answers: /printedHelp\(|help: \{ type: 'boolean'/.test(source) }).toEqual({
        name,
        answers: true,
      });
    }
  });

  it('prints the usage and times nothing, even where the script would demand a build to time', () => {
    const printed = execFileSync(
      process.execPath,
      ['--import', 'tsx', join(BENCH, 'perf-cold-ab.ts'), '--help'],
      {
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(printed).toContain('npx tsx bench/perf-cold-ab.ts --base <folder of a build>');
    expect(printed).not.toContain('round 1');
  });

  it('prints the usage of a script that reads its options through scriptOptions', () => {
    const printed = execFileSync(
      process.execPath,
      ['--import', 'tsx', join(BENCH, 'perf-passes.ts'), '--help'],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(printed).toContain("Each pass over a failing call's text timed on its own");
  });
});

describe('a bench module imported by another', () => {
  it('is not the script node runs, and reads no options', () => {
    expect(runAsScript(import.meta.url)).toBe(false);
    expect(scriptOptions(import.meta.url, { rounds: { type: 'string', default: '6' } })).toBeUndefined();
  });
});
