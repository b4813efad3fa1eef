import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const example = join(root, 'examples', 'quickstart.mjs');

/** A project that depends on this package, as a user's would. */
function userProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'narrowing-quickstart-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(root, join(dir, 'node_modules', 'narrowing-guard'), 'dir');
  copyFileSync(example, join(dir, 'quickstart.mjs'));
  return dir;
}

describe('the README quickstart', () => {
  let dir: string;
  beforeAll(() => {
    if (!existsSync(join(root, 'dist', 'index.js')))
      execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
    dir = userProject();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is the very code the README shows', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).toContain(readFileSync(example, 'utf8').trim());
  });

  it('runs as written: the second read of a missing file is blocked, and prints what the README shows', () => {
    const output = execFileSync('node', ['quickstart.mjs'], { cwd: dir, encoding: 'utf8' });
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toContain(`\`\`\`\n${output}\`\`\``);
    expect(output.split('\n').slice(0, 3)).toEqual([
      'ran read_file config/prod.yaml',
      expect.stringMatching(
        /^blocked read_file config\/prod\.yaml: read_file \{path: "config\/prod\.yaml"\} failed and nothing it depends on has changed since: ENOENT/,
      ),
      'ran read_file config/default.yaml',
    ]);
  });

  it('blocks the missing file on the first attempt when run again, from the state file', () => {
    const output = execFileSync('node', ['quickstart.mjs'], { cwd: dir, encoding: 'utf8' });
    expect(output.split('\n')[0]).toMatch(/^blocked read_file config\/prod\.yaml/);
  });
});
