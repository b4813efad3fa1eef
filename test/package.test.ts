import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'narrowing-pack-'));

describe('the published package', () => {
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('installs from `npm pack` into an empty project where the main entry, both adapters and the CLI work', () => {
    execFileSync('npm', ['pack', '--silent', '--pack-destination', work], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
    expect(tarball).toBeDefined();
    const project = join(work, 'project');
    execFileSync('mkdir', ['-p', project]);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'user-project', private: true, type: 'module' }),
    );
    execFileSync(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', join(work, tarball as string)],
      {
        cwd: project,
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    writeFileSync(
      join(project, 'check.mjs'),
      [
        "import { NarrowingLoop } from 'narrowing';",
        "import { createToolCallAdapter, toolCallToProposal } from 'narrowing/adapters/tool-call';",
        "import { createMlTrainingAdapter } from 'narrowing/adapters/ml-training';",
        'const tools = new NarrowingLoop({ adapter: createToolCallAdapter() });',
        'const ml = new NarrowingLoop({ adapter: createMlTrainingAdapter() });',
        "console.log(tools.checkProposal(toolCallToProposal('read_file', { path: 'a.ts' })).verdict, typeof ml.isDone());",
      ].join('\n'),
    );
    expect(execFileSync('node', ['check.mjs'], { cwd: project, encoding: 'utf8' }).trim()).toBe(
      'allow boolean',
    );
    const help = execFileSync(join(project, 'node_modules', '.bin', 'narrowing'), ['--help'], {
      encoding: 'utf8',
    });
    expect(help).toContain('replay');
  }, 240_000);
});
