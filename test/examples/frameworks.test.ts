import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');

/** Each framework's example, the page that shows it, and the packages a user's project installs for it. */
const EXAMPLES = [
  { name: 'ai-sdk', packages: ['ai', 'zod'] },
  { name: 'openai-agents', packages: ['@openai/agents', 'zod'] },
  { name: 'langchain', packages: ['langchain', 'zod'] },
] as const;

/** A project that depends on this package and on the framework, as a user's would. */
function userProject(example: string, packages: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), `narrowing-${example}-`));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(root, join(dir, 'node_modules', 'narrowing-guard'), 'dir');
  for (const name of packages) {
    mkdirSync(dirname(join(dir, 'node_modules', name)), { recursive: true });
    symlinkSync(join(root, 'node_modules', name), join(dir, 'node_modules', name), 'dir');
  }
  copyFileSync(join(root, 'examples', `${example}.mjs`), join(dir, `${example}.mjs`));
  return dir;
}

beforeAll(() => {
  if (!EXAMPLES.every(({ name }) => existsSync(join(root, 'dist', 'integrations', name, 'index.js'))))
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
});

describe.each(EXAMPLES)('the $name example', ({ name, packages }) => {
  let dir: string;
  beforeAll(() => {
    dir = userProject(name, packages);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const page = () => readFileSync(join(root, 'docs', `${name}.md`), 'utf8');

  it('is the very code its page shows', () => {
    expect(page()).toContain(readFileSync(join(root, 'examples', `${name}.mjs`), 'utf8').trim());
  });

  it('runs as written: the repeated read is refused, and the model reads what the page shows', () => {
    const output = execFileSync('node', [`${name}.mjs`], { cwd: dir, encoding: 'utf8' });
    expect(page()).toContain(`\`\`\`\n${output}\`\`\``);
    const lines = output.split('\n');
    expect(lines[0]).toMatch(/ENOENT: no such file or directory, open 'config\/prod\.yaml'/);
    expect(lines[1]).toMatch(
      /^the model reads: \[narrowing blocked this call \(identical-failure\)\] read_file/,
    );
  });

  it('refuses the first read when run again, from the state file', () => {
    const output = execFileSync('node', [`${name}.mjs`], { cwd: dir, encoding: 'utf8' });
    expect(output.split('\n')[0]).toMatch(/^the model reads: \[narrowing blocked this call/);
  });
});
