import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseLauncher, MCP_CLIENTS, readWrapped, wrapCommand } from '../../src/install/index.js';

const context = { installedLocally: true, entryHasCwd: false, platform: 'linux' as const };

describe('chooseLauncher', () => {
  it('uses this installation by its absolute path, never npx, when narrowing is not installed in the project', () => {
    const launcher = chooseLauncher('auto', {
      ...context,
      client: MCP_CLIENTS.claude,
      installedLocally: false,
    });
    expect(launcher).toEqual({
      command: 'node',
      args: [resolve(import.meta.dirname, '../../bin/narrowing.js')],
    });
  });

  it('uses the absolute bin path for clients that may start servers in a subfolder', () => {
    expect(
      chooseLauncher('auto', { ...context, client: MCP_CLIENTS.codex, projectDir: '/src/app' }).command,
    ).toBe('/src/app/node_modules/.bin/narrowing');
  });

  it('uses the relative bin path for clients that start servers in the project', () => {
    expect(chooseLauncher('auto', { ...context, client: MCP_CLIENTS.gemini }).command).toBe(
      'node_modules/.bin/narrowing',
    );
  });

  it(`uses \${workspaceFolder} for clients that expand it`, () => {
    expect(chooseLauncher('auto', { ...context, client: MCP_CLIENTS.cursor }).command).toBe(
      `\${workspaceFolder}/node_modules/.bin/narrowing`,
    );
  });

  it('uses this installation on Windows, where .bin holds shims a client cannot start', () => {
    expect(
      chooseLauncher('auto', { ...context, client: MCP_CLIENTS.claude, platform: 'win32' }).command,
    ).toBe('node');
  });

  it('uses npx when asked even with a local install', () => {
    expect(chooseLauncher('npx', { ...context, client: MCP_CLIENTS.vscode }).command).toBe('npx');
  });

  it('refuses a local launcher when narrowing is not installed, saying how to install it', () => {
    expect(() =>
      chooseLauncher('local', { ...context, client: MCP_CLIENTS.claude, installedLocally: false }),
    ).toThrow(/npm install --save-dev <path to narrowing-guard>/);
  });
});

describe('readWrapped', () => {
  it('finds the upstream command of a wrapped server', () => {
    const wrapped = wrapCommand({ command: 'npx', args: ['-y', 'narrowing-guard'] }, ['--preset', 'strict'], {
      command: 'uvx',
      args: ['mcp-server-git', '--repository', '.'],
    });
    expect(readWrapped(wrapped)).toEqual({
      wrapped: true,
      upstream: { command: 'uvx', args: ['mcp-server-git', '--repository', '.'] },
    });
  });

  it('recognises a pinned version, a local bin and the package script', () => {
    for (const command of [
      { command: 'npx', args: ['-y', 'narrowing@0.4.1', 'mcp', '--', 'node', 'server.js'] },
      {
        command: `\${workspaceFolder}/node_modules/.bin/narrowing`,
        args: ['mcp', '--', 'node', 'server.js'],
      },
      {
        command: 'node',
        args: ['node_modules/narrowing/bin/narrowing.js', 'mcp', '--', 'node', 'server.js'],
      },
    ]) {
      expect(readWrapped(command)).toEqual({
        wrapped: true,
        upstream: { command: 'node', args: ['server.js'] },
      });
    }
  });

  it('does not take a server that merely mentions narrowing for a wrapped one', () => {
    expect(readWrapped({ command: 'npx', args: ['-y', 'narrowing-docs-mcp', 'mcp'] })).toEqual({
      wrapped: false,
    });
    expect(readWrapped({ command: 'node', args: ['narrowing.js', '--mode', 'mcp'] })).toEqual({
      wrapped: false,
    });
  });

  it('knows a proxy of a URL has no command to restore', () => {
    expect(
      readWrapped({ command: 'narrowing', args: ['mcp', '--upstream-url', 'http://127.0.0.1:3001/mcp'] }),
    ).toEqual({
      wrapped: true,
    });
  });
});
