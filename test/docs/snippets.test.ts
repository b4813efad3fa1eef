/**
 * The first hour, as the README and docs tell it: every snippet installs, starts and configures
 * narrowing-guard the way it can be installed today (from a clone or a packed tarball), and shows
 * what the commands really write.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookCommand } from '../../src/install/agent-hooks.js';

const root = resolve(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const documents = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const pkg = JSON.parse(read('package.json')) as {
  name: string;
  version: string;
  repository: { url: string };
};

/** The fenced code blocks of a Markdown text. */
function codeBlocks(text: string): string[] {
  return [...text.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((match) => match[1] ?? '');
}

/** The README's Install section. */
function installSection(): string {
  const readme = read('README.md');
  const start = readme.indexOf('## Install');
  return readme.slice(start, readme.indexOf('\n## ', start + 1));
}

describe('documented snippets', () => {
  it('never start narrowing-guard through `npx -y`, which runs whatever the registry holds under that name', () => {
    for (const document of documents) {
      for (const block of codeBlocks(read(document))) {
        if (block.includes('--launcher npx')) continue;
        const said = block.replace(/\s+/g, ' ');
        expect(said, document).not.toMatch(/\bnpx (?:-y|--yes) narrowing-guard\b/);
        expect(said, document).not.toMatch(/"(?:-y|--yes)",? "narrowing-guard"/);
      }
    }
  });

  it("show in wrap's diffs the very command its messages say the server now runs through", () => {
    let checked = 0;
    for (const document of documents) {
      for (const block of codeBlocks(read(document))) {
        const added = block
          .split('\n')
          .filter((line) => /^\s*\+(?!\+)/.test(line))
          .join('\n');
        if (added === '') continue;
        for (const message of block.matchAll(/now runs through narrowing: (\S+) (\S+) mcp /g)) {
          expect(added, `${document}: ${message[0]}`).toContain(`"command": "${message[1]}"`);
          expect(added, `${document}: ${message[0]}`).toContain(`"${message[2]}"`);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('install the package from a clone or its packed tarball, as named in package.json, never from the registry', () => {
    const install = installSection();
    expect(install).not.toMatch(/published on npm/i);
    const commands = codeBlocks(install).join('\n');
    expect(commands).toContain(`git clone ${pkg.repository.url.replace(/^git\+/, '')}`);
    expect(commands).toMatch(/\bnpm (?:ci|install)\b[^\n]*&& npm pack\b/);
    expect(commands).toContain(`${pkg.name}-${pkg.version}.tgz`);
    expect(commands).not.toMatch(/\bnpm (?:install|i|add)\b[^\n#]*\snarrowing-guard(?![-\w/.])/);
  });

  it("say which command install writes for a project without its own copy: this installation's, by its absolute path", () => {
    const target = {
      agent: 'codex',
      scope: 'project',
      projectDir: join(root, 'no-such-project'),
      homeDir: join(root, 'no-such-home'),
      stateDir: join(root, 'no-such-project', '.narrowing'),
    } as const;
    const command = hookCommand(target, undefined);
    expect(command).toMatch(/^node \S*\/bin\/narrowing\.js'? hook codex$/);
    const hooks = read('docs/hooks.md').replace(/\s+/g, ' ');
    expect(hooks).toContain(
      'by its absolute path (`node /home/dev/tools/narrowing-guard/bin/narrowing.js hook <agent>`)',
    );
    expect(hooks).not.toMatch(/otherwise it runs `npx -y narrowing-guard/);
  });
});

describe('the repository', () => {
  it('lets a contributor use a prebuilt SQLite binary: .npmrc does not force building it from source', () => {
    const npmrc = existsSync(join(root, '.npmrc')) ? read('.npmrc') : '';
    expect(npmrc).not.toMatch(/^\s*build-from-source\s*=\s*true/m);
  });
});
