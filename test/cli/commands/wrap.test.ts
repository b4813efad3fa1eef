import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runUnwrap } from '../../../src/cli/commands/unwrap.js';
import { runWrap } from '../../../src/cli/commands/wrap.js';
import { CLAUDE_MCP_JSON, CODEX_CONFIG_TOML, CURSOR_MCP_JSON } from '../../install/sample-configs.js';
import { captureIO } from './cli-io.js';

const dirs: string[] = [];
const realHome = process.env.HOME;
let home: string;
// The user's own configs are looked up in HOME: each test has an empty one of its own.
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'narrowing-wrap-home-'));
  dirs.push(home);
  process.env.HOME = home;
});
afterEach(() => {
  process.env.HOME = realHome;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'narrowing-wrap-cli-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('narrowing wrap and unwrap', () => {
  it('prints a diff and changes nothing with --dry-run', async () => {
    const cwd = project({ '.mcp.json': CLAUDE_MCP_JSON });
    const { io, stdout } = captureIO();
    expect(await runWrap('github', { cwd, dryRun: true, launcher: 'npx' }, io)).toBe(0);
    expect(stdout()).toContain('--- a/.mcp.json\n+++ b/.mcp.json\n@@ -5,8 +5,8 @@');
    expect(stdout()).toContain('\n-      "command": "docker",\n');
    expect(stdout()).toContain('\n+      "command": "npx",\n');
    expect(stdout()).toContain('Dry run: no file was changed.');
    expect(readFileSync(join(cwd, '.mcp.json'), 'utf8')).toBe(CLAUDE_MCP_JSON);
    expect(existsSync(join(cwd, '.narrowing'))).toBe(false);
  });

  it('wraps, says where the original is and what to do next, and unwraps byte for byte', async () => {
    const cwd = project({ '.mcp.json': CLAUDE_MCP_JSON, '.cursor/mcp.json': CURSOR_MCP_JSON });
    const wrapped = captureIO();
    expect(await runWrap('memory', { cwd, launcher: 'npx' }, wrapped.io)).toBe(0);
    expect(wrapped.stdout()).toBe(
      '"memory" in .cursor/mcp.json now runs through narrowing: ' +
        'npx -y narrowing-guard mcp -- npx -y @modelcontextprotocol/server-memory\n' +
        '  The original is saved in .narrowing/wrapped/cursor-memory.json; `narrowing-guard unwrap memory` puts it back.\n' +
        '  Next: Cursor reloads the file by itself; refresh the server under Settings › MCP if it does not.\n',
    );
    const unwrapped = captureIO();
    expect(await runUnwrap('memory', { cwd }, unwrapped.io)).toBe(0);
    expect(unwrapped.stdout()).toContain('"memory" in .cursor/mcp.json is restored as it was.');
    expect(readFileSync(join(cwd, '.cursor/mcp.json'), 'utf8')).toBe(CURSOR_MCP_JSON);
  });

  it('passes its narrowing options on, with paths relative to the project', async () => {
    const cwd = project({ '.mcp.json': CLAUDE_MCP_JSON, 'config/narrowing.yaml': 'preset: strict\n' });
    const { io } = captureIO();
    const options = {
      cwd,
      launcher: 'npx' as const,
      stateDir: join(cwd, 'var/narrowing'),
      policy: 'config/narrowing.yaml',
    };
    expect(await runWrap('sqlite', options, io)).toBe(0);
    const entry = JSON.parse(readFileSync(join(cwd, '.mcp.json'), 'utf8')).mcpServers.sqlite;
    expect(entry.args).toEqual([
      '-y',
      'narrowing-guard',
      'mcp',
      '--state-dir',
      'var/narrowing',
      '--policy',
      'config/narrowing.yaml',
      '--',
      'uvx',
    ]);
    expect(existsSync(join(cwd, 'var/narrowing/wrapped/claude-sqlite.json'))).toBe(true);
  });

  it('refuses a policy that does not load, before touching the config', async () => {
    const cwd = project({ '.mcp.json': CLAUDE_MCP_JSON, 'narrowing.yaml': 'preset: lenient\n' });
    const { io, stderr } = captureIO();
    expect(await runWrap('sqlite', { cwd, policy: 'narrowing.yaml' }, io)).toBe(2);
    expect(stderr()).toContain('preset');
    expect(readFileSync(join(cwd, '.mcp.json'), 'utf8')).toBe(CLAUDE_MCP_JSON);
  });

  it('exits with 1 and explains when the server is a URL', async () => {
    const cwd = project({ '.mcp.json': CLAUDE_MCP_JSON });
    const { io, stderr } = captureIO();
    expect(await runWrap('sentry', { cwd }, io)).toBe(1);
    expect(stderr()).toContain(
      'narrowing-guard mcp --http 127.0.0.1:8808 --upstream-url https://mcp.sentry.dev/mcp',
    );
  });

  it('exits with 2 when the server is in no config', async () => {
    const cwd = project({ '.mcp.json': CLAUDE_MCP_JSON });
    const { io, stderr } = captureIO();
    expect(await runWrap('puppeteer', { cwd }, io)).toBe(2);
    expect(stderr()).toBe(
      'narrowing-guard wrap: No server named "puppeteer" in .mcp.json (servers: filesystem, github, sqlite, sentry).\n',
    );
  });

  it('exits with 1 when the wrapped entry was edited, and restores it with --force', async () => {
    const cwd = project({ '.mcp.json': CLAUDE_MCP_JSON });
    await runWrap('filesystem', { cwd, launcher: 'npx' }, captureIO().io);
    const path = join(cwd, '.mcp.json');
    writeFileSync(path, readFileSync(path, 'utf8').replace('"./docs"', '"./docs", "./tests"'));
    const refused = captureIO();
    expect(await runUnwrap('filesystem', { cwd }, refused.io)).toBe(1);
    expect(refused.stderr()).toContain('was edited after it was wrapped');
    expect(await runUnwrap('filesystem', { cwd, force: true }, captureIO().io)).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe(CLAUDE_MCP_JSON);
  });

  it('colours the diff on a terminal', async () => {
    const cwd = project({ '.mcp.json': CLAUDE_MCP_JSON });
    const { io, stdout } = captureIO({ tty: true });
    await runWrap('github', { cwd, dryRun: true, launcher: 'npx' }, io);
    expect(stdout()).toContain('\u001b[32m+      "command": "npx",');
  });

  it('finds the server claude mcp add put in ~/.claude.json, and names the file and key in the dry run', async () => {
    const cwd = project({});
    const claudeJson = `${JSON.stringify(
      {
        numStartups: 7,
        projects: {
          [cwd]: {
            mcpServers: {
              memory: {
                type: 'stdio',
                command: 'npx',
                args: ['-y', '@modelcontextprotocol/server-memory'],
                env: {},
              },
            },
          },
          '/home/dana/notes': {
            mcpServers: { memory: { type: 'stdio', command: 'mcp-server-memory', args: [] } },
          },
        },
      },
      null,
      2,
    )}\n`;
    writeFileSync(join(home, '.claude.json'), claudeJson);
    const dry = captureIO();
    expect(await runWrap('memory', { cwd, dryRun: true }, dry.io)).toBe(0);
    expect(dry.stdout()).toContain('--- a/~/.claude.json\n+++ b/~/.claude.json\n');
    expect(dry.stdout()).toContain(
      `"memory" in ~/.claude.json (local scope, projects[${JSON.stringify(cwd)}].mcpServers) now runs through narrowing`,
    );
    expect(readFileSync(join(home, '.claude.json'), 'utf8')).toBe(claudeJson);
    expect(await runWrap('memory', { cwd }, captureIO().io)).toBe(0);
    const after = JSON.parse(readFileSync(join(home, '.claude.json'), 'utf8'));
    expect(after.projects[cwd].mcpServers.memory.command).toBe('node');
    expect(after.projects[cwd].mcpServers.memory.args.slice(0, 3)).toEqual([
      resolve(import.meta.dirname, '../../../bin/narrowing.js'),
      'mcp',
      '--',
    ]);
    expect(after.projects['/home/dana/notes']).toEqual(JSON.parse(claudeJson).projects['/home/dana/notes']);
    expect(existsSync(join(home, '.claude.json.lock'))).toBe(false);
    expect(await runUnwrap('memory', { cwd }, captureIO().io)).toBe(0);
    expect(readFileSync(join(home, '.claude.json'), 'utf8')).toBe(claudeJson);
  });

  it('wraps the user scope rather than the project file, which auto would take, with --scope user', async () => {
    const cwd = project({ '.mcp.json': CLAUDE_MCP_JSON });
    writeFileSync(
      join(home, '.claude.json'),
      '{ "mcpServers": { "github": { "command": "github-mcp-server", "args": ["stdio"] } } }\n',
    );
    const auto = captureIO();
    expect(await runWrap('github', { cwd, client: 'claude', dryRun: true }, auto.io)).toBe(0);
    expect(auto.stdout()).toContain('--- a/.mcp.json');
    const user = captureIO();
    expect(await runWrap('github', { cwd, scope: 'user', client: 'claude', dryRun: true }, user.io)).toBe(0);
    expect(user.stdout()).toContain('--- a/~/.claude.json');
    expect(user.stdout()).toContain(
      '"github" in ~/.claude.json (user scope, mcpServers) now runs through narrowing',
    );
    expect(user.stdout()).not.toContain('.mcp.json');
  });

  it('passes a user-scope server its policy by absolute path, as it runs in every project', async () => {
    const cwd = project({ 'config/narrowing.yaml': 'preset: strict\n' });
    writeFileSync(
      join(home, '.claude.json'),
      '{ "mcpServers": { "fetch": { "command": "uvx", "args": ["mcp-server-fetch"] } } }\n',
    );
    const { io, stdout } = captureIO();
    expect(
      await runWrap('fetch', { cwd, policy: 'config/narrowing.yaml', dryRun: true, launcher: 'npx' }, io),
    ).toBe(0);
    expect(stdout()).toContain(
      `npx -y narrowing-guard mcp --policy ${join(cwd, 'config/narrowing.yaml')} -- uvx mcp-server-fetch`,
    );
  });

  it("wraps a server of Codex's ~/.codex/config.toml with --client codex, and unwraps it byte for byte", async () => {
    const cwd = project({});
    const config = join(home, '.codex', 'config.toml');
    mkdirSync(dirname(config), { recursive: true });
    writeFileSync(config, CODEX_CONFIG_TOML);
    const dry = captureIO();
    expect(await runWrap('github', { cwd, client: 'codex', dryRun: true, launcher: 'npx' }, dry.io)).toBe(0);
    expect(dry.stdout()).toContain('--- a/~/.codex/config.toml\n+++ b/~/.codex/config.toml\n');
    expect(dry.stdout()).toContain('\n-command = \'npx\' # launcher\n+command = "npx" # launcher\n');
    expect(readFileSync(config, 'utf8')).toBe(CODEX_CONFIG_TOML);
    const wrapped = captureIO();
    expect(await runWrap('github', { cwd, client: 'codex', launcher: 'npx' }, wrapped.io)).toBe(0);
    expect(wrapped.stdout()).toContain(
      '"github" in ~/.codex/config.toml (user scope, mcp_servers) now runs through narrowing: ' +
        'npx -y narrowing-guard mcp -- npx -y @modelcontextprotocol/server-github\n',
    );
    expect(wrapped.stdout()).toContain('Next: restart Codex (or start a new session) to pick up the change.');
    const unwrapped = captureIO();
    expect(await runUnwrap('github', { cwd, client: 'codex' }, unwrapped.io)).toBe(0);
    expect(readFileSync(config, 'utf8')).toBe(CODEX_CONFIG_TOML);
  });
});
