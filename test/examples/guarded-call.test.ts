import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const example = join(root, 'examples', 'guarded-call.mjs');

describe('the guard seam example', () => {
  let dir: string;
  beforeAll(() => {
    if (!existsSync(join(root, 'dist', 'index.js')))
      execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
    dir = mkdtempSync(join(tmpdir(), 'narrowing-guarded-call-'));
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(root, join(dir, 'node_modules', 'narrowing-guard'), 'dir');
    copyFileSync(example, join(dir, 'guarded-call.mjs'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is the very code docs/guard.md shows', () => {
    expect(readFileSync(join(root, 'docs', 'guard.md'), 'utf8')).toContain(
      readFileSync(example, 'utf8').trim(),
    );
  });

  it('runs a failing read once and refuses the repeat with the reason', () => {
    const lines = execFileSync('node', ['guarded-call.mjs'], { cwd: dir, encoding: 'utf8' }).split('\n');
    expect(lines[0]).toBe(
      "attempt 1: ran and failed: ENOENT: no such file or directory, open 'notes/todo.md'",
    );
    expect(lines[1]).toMatch(/^attempt 2: refused\. \[narrowing blocked this call \(identical-failure\)\]/);
  });

  it('refuses at once in a new process, from the state it left in the project', () => {
    const output = execFileSync('node', ['guarded-call.mjs'], { cwd: dir, encoding: 'utf8' });
    expect(output.split('\n')[0]).toMatch(/^attempt 1: refused\./);
    expect(existsSync(join(dir, '.narrowing', 'state.json'))).toBe(true);
  });
});
