import { execFile, execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptedServer } from '../agent/support/agent.js';

const root = resolve(import.meta.dirname, '..', '..');
const example = join(root, 'examples', 'agent.mjs');
const filesystemServer = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-filesystem/dist/index.js',
);

/** A project that depends on this package and the AI SDK provider, as a user's would. */
function userProject(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'narrowing-agent-example-')));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(root, join(dir, 'node_modules', 'narrowing-guard'), 'dir');
  symlinkSync(join(root, 'node_modules', '@ai-sdk'), join(dir, 'node_modules', '@ai-sdk'), 'dir');
  copyFileSync(example, join(dir, 'agent.mjs'));
  writeFileSync(join(dir, 'README.md'), '# Demo\nA tiny project that greets.\n');
  return dir;
}

describe('the README agent example', () => {
  let dir: string;
  beforeAll(() => {
    if (!existsSync(join(root, 'dist', 'agent', 'index.js')))
      execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
    dir = userProject();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is the very code the README shows', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme).toContain(readFileSync(example, 'utf8').trim());
  });

  it('runs as written against an OpenAI-compatible endpoint, with the files of the folder as tools', async () => {
    const server = await scriptedServer([
      { toolCalls: [{ name: 'read_text_file', args: { path: join(dir, 'README.md') } }] },
      { text: 'A tiny project that greets.' },
    ]);
    const { stdout } = await promisify(execFile)('node', ['agent.mjs', 'Summarise README.md'], {
      cwd: dir,
      env: {
        ...process.env,
        OPENAI_BASE_URL: server.baseURL,
        MODEL: 'scripted',
        MCP_SERVER: `"${process.execPath}" "${filesystemServer}" "${dir}"`,
      },
      timeout: 30_000,
    });
    expect(stdout).toBe('allow read_text_file\ncompleted: A tiny project that greets.\n');
    expect(JSON.stringify(server.requests[0]?.messages)).toContain('Summarise README.md');
  });
});
