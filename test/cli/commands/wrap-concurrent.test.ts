import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { nodeValue, parseJsonc } from '../../../src/install/index.js';

const root = resolve(import.meta.dirname, '..', '..', '..');
const BIN = join(root, 'bin', 'narrowing.js');

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const SERVERS = {
  filesystem: ['npx', '-y', '@modelcontextprotocol/server-filesystem', '.'],
  memory: ['npx', '-y', '@modelcontextprotocol/server-memory'],
  fetch: ['uvx', 'mcp-server-fetch'],
  git: ['uvx', 'mcp-server-git', '--repository', '.'],
  sqlite: ['uvx', 'mcp-server-sqlite', '--db-path', 'shop.db'],
  playwright: ['npx', '@playwright/mcp@latest'],
} as const;

const CONFIG = `${JSON.stringify(
  {
    mcpServers: Object.fromEntries(
      Object.entries(SERVERS).map(([name, [command, ...args]]) => [name, { command, args }]),
    ),
  },
  null,
  2,
)}\n`;

function project(): { dir: string; home: string } {
  const dir = mkdtempSync(join(tmpdir(), 'narrowing-wrap-race-'));
  dirs.push(dir);
  const home = join(dir, 'home');
  mkdirSync(home);
  writeFileSync(join(dir, '.mcp.json'), CONFIG);
  return { dir, home };
}

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** One real `narrowing-guard` process, started at once; resolves when it exits. */
function narrowing(args: readonly string[], home: string): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, HOME: home, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

function commandOf(dir: string, server: string): string[] {
  const value = nodeValue(parseJsonc(readFileSync(join(dir, '.mcp.json'), 'utf8')).root) as {
    mcpServers: Record<string, { command: string; args: string[] }>;
  };
  const entry = value.mcpServers[server]!;
  return [entry.command, ...entry.args];
}

describe('concurrent wraps of one config', () => {
  beforeAll(() => {
    if (!existsSync(join(root, 'dist', 'cli', 'main.js'))) spawnSync('npm', ['run', 'build'], { cwd: root });
  });

  it('wraps every server that concurrent processes each say they wrapped', async () => {
    const { dir, home } = project();
    const names = Object.keys(SERVERS);
    const runs = await Promise.all(
      names.map((name) => narrowing(['wrap', name, '--cwd', dir, '--launcher', 'npx'], home)),
    );
    for (const [index, name] of names.entries()) {
      expect(runs[index]?.stderr).toBe('');
      expect(runs[index]?.code).toBe(0);
      expect(runs[index]?.stdout).toContain(`"${name}" in .mcp.json now runs through narrowing`);
      expect(commandOf(dir, name)).toEqual([
        'npx',
        '-y',
        'narrowing-guard',
        'mcp',
        '--',
        ...SERVERS[name as keyof typeof SERVERS],
      ]);
    }
    const unwraps = names.map((name) => narrowing(['unwrap', name, '--cwd', dir], home));
    expect((await Promise.all(unwraps)).map((run) => run.code)).toEqual(names.map(() => 0));
    expect(readFileSync(join(dir, '.mcp.json'), 'utf8')).toBe(CONFIG);
  }, 60_000);

  it('reports one wrap and the rest as no-ops when four processes wrap the same server', async () => {
    const { dir, home } = project();
    const runs = await Promise.all([1, 2, 3, 4].map(() => narrowing(['wrap', 'memory', '--cwd', dir], home)));
    expect(runs.map((run) => run.code)).toEqual([0, 0, 0, 0]);
    const said = runs.map((run) => run.stdout).join('\n');
    expect(said.match(/now runs through narrowing/g)).toHaveLength(1);
    expect(said.match(/already runs through narrowing/g)).toHaveLength(3);
    expect((await narrowing(['unwrap', 'memory', '--cwd', dir], home)).code).toBe(0);
    expect(readFileSync(join(dir, '.mcp.json'), 'utf8')).toBe(CONFIG);
  }, 60_000);
});
