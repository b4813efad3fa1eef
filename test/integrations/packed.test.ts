import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyOfPackedProject, PACKED_PROJECT_REMOVAL_MS } from '../packed-package.js';

const root = resolve(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'narrowing-packed-'));
// copyOfPackedProject puts the project here.
const project = join(work, 'project');

/** Each framework's example, as its page shows it, and the packages a user installs to run it. */
const EXAMPLES = [
  { name: 'ai-sdk', packages: ['ai', 'zod'] },
  { name: 'openai-agents', packages: ['@openai/agents', 'zod'] },
  { name: 'langchain', packages: ['langchain', '@langchain/core', 'zod'] },
] as const;

/** The versions installed here, which are in the npm cache: the install needs no registry. */
function installedVersion(name: string): string {
  const manifest = JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8'));
  return `${name}@${manifest.version as string}`;
}

function npmInstall(specs: readonly string[]): void {
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...specs], {
    cwd: project,
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 180_000,
  });
}

beforeAll(() => {
  copyOfPackedProject(work);
}, 300_000);

afterAll(() => rmSync(work, { recursive: true, force: true }), PACKED_PROJECT_REMOVAL_MS);

describe('the packed package', () => {
  it('loads every framework subpath and makes its guard in a project that has none of the frameworks', () => {
    for (const framework of ['ai', '@openai/agents', 'langchain', '@langchain/core']) {
      expect(existsSync(join(project, 'node_modules', framework))).toBe(false);
    }
    writeFileSync(
      join(project, 'no-framework.mjs'),
      [
        "const { narrowingForAiSdk } = await import('narrowing-guard/ai-sdk');",
        "const { narrowingForAgents } = await import('narrowing-guard/openai-agents');",
        "const { narrowingForLangChain } = await import('narrowing-guard/langchain');",
        'console.log([',
        '  typeof narrowingForAiSdk().toolApproval,',
        '  typeof narrowingForAgents().toolOptions.errorFunction,',
        '  typeof narrowingForLangChain().middleware.wrapToolCall,',
        "].join(' '));",
      ].join('\n'),
    );
    const output = execFileSync('node', ['no-framework.mjs'], { cwd: project, encoding: 'utf8' });
    expect(output.trim()).toBe('function function function');
  });

  describe('with each framework installed beside it', () => {
    beforeAll(() => {
      npmInstall([...new Set(EXAMPLES.flatMap(({ packages }) => packages))].map(installedVersion));
    }, 300_000);

    it.each(EXAMPLES)(
      'runs the $name example as its page shows it: the model reads the refused repeat and why',
      ({ name }) => {
        rmSync(join(project, '.narrowing'), { recursive: true, force: true });
        copyFileSync(
          join(project, 'node_modules', 'narrowing-guard', 'examples', `${name}.mjs`),
          join(project, `${name}.mjs`),
        );
        const output = execFileSync('node', [`${name}.mjs`], {
          cwd: project,
          encoding: 'utf8',
          timeout: 60_000,
        });
        const lines = output.split('\n');
        expect(lines[0]).toBe(
          "the model reads: Error: ENOENT: no such file or directory, open 'config/prod.yaml'",
        );
        expect(lines[1]).toMatch(
          /^the model reads: \[narrowing blocked this call \(identical-failure\)\] read_file \{path: "config\/prod\.yaml"\} failed and nothing it depends on has changed since: ENOENT/,
        );
        expect(readFileSync(join(root, 'docs', `${name}.md`), 'utf8')).toContain(`\`\`\`\n${output}\`\`\``);
      },
    );
  });
});
