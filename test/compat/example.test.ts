import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const example = join(root, 'examples', 'compat.mjs');
const doc = () => readFileSync(join(root, 'docs', 'compat.md'), 'utf8');

/** A project that depends on this package, as a user's would. */
function userProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'narrowing-compat-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(root, join(dir, 'node_modules', 'narrowing-guard'), 'dir');
  copyFileSync(example, join(dir, 'compat.mjs'));
  return dir;
}

describe('the example in docs/compat.md', () => {
  let dir: string;
  beforeAll(() => {
    if (!existsSync(join(root, 'dist', 'compat', 'index.js')))
      execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
    dir = userProject();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is the very code the document shows', () => {
    expect(doc()).toContain(readFileSync(example, 'utf8').trim());
  });

  it('runs as written against the built package and prints what the document shows', () => {
    const output = execFileSync('node', ['compat.mjs'], { cwd: dir, encoding: 'utf8' });
    expect(doc()).toContain(`\`\`\`\n${output}\`\`\``);
    expect(output.split('\n').slice(0, 3)).toEqual([
      'attempt 1: ran, file_not_found (agent_failure)',
      'attempt 2: blocked (call ban on file_not_found)',
      'attempt 3: blocked (call ban on file_not_found)',
    ]);
  });

  it('keeps the journal where the original package keeps it, with verifiable receipts', () => {
    const journal = join(dir, '.narrowing', 'journal.jsonl');
    expect(existsSync(journal)).toBe(true);
    expect(readFileSync(journal, 'utf8').trim().split('\n').length).toBeGreaterThan(0);
  });

  it('opens with the one-line switch of the import', () => {
    const opening = doc().split('\n').slice(0, 12).join('\n');
    expect(opening).toContain("- import { NarrowingLoop } from '@sovereign-labs/narrowing';");
    expect(opening).toContain("+ import { NarrowingLoop } from 'narrowing-guard/compat';");
  });
});
