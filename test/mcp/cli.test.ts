import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { cleanupsAfterEach, spawnProxy, startCli, tempDir, textOf } from './support/harness.js';
import { BIN, BUILT_CLI, CLI_COMMAND, EVERYTHING_SERVER, PROBE_SERVER, REPO_ROOT } from './support/paths.js';
import { StreamTransport } from './support/stream-transport.js';

const cleanups = cleanupsAfterEach();

function runCli(args: string[]) {
  const { NARROWING_TOKEN: _token, ...env } = process.env;
  const [program = process.execPath, ...prefix] = CLI_COMMAND;
  return spawnSync(program, [...prefix, 'mcp', ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env,
    timeout: 20_000,
  });
}

describe('narrowing mcp on the command line', () => {
  it('explains its options with a .mcp.json example', () => {
    const { status, stdout } = runCli(['--help']);
    expect(status).toBe(0);
    for (const option of [
      '--state-dir',
      '--policy',
      '--preset',
      '--enforcement',
      '--no-receipts',
      '--restart',
    ]) {
      expect(stdout).toContain(option);
    }
    for (const option of ['--http', '--token', '--upstream-url', 'NARROWING_TOKEN'])
      expect(stdout).toContain(option);
    expect(stdout).toContain('"mcpServers"');
    expect(stdout).toContain('"args": ["mcp", "--", "npx"');
  });

  it('exits 2 and says what to do when no server command is given', () => {
    const { status, stderr, stdout } = runCli([]);
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('put its command after --');
  });

  it('exits 2 rather than serve HTTP beyond loopback without a token', () => {
    const { status, stderr } = runCli(['--http', '0.0.0.0:0', '--', process.execPath, EVERYTHING_SERVER]);
    expect(status).toBe(2);
    expect(stderr).toContain('refusing to serve on 0.0.0.0 without a token');
  });

  it('exits 2 and lists the presets when given one it does not know', () => {
    const { status, stderr } = runCli(['--preset', 'lax', '--', process.execPath, EVERYTHING_SERVER]);
    expect(status).toBe(2);
    expect(stderr).toContain('--preset must be one of precise, strict, off (got "lax")');
  });

  it('exits 2 and names the file when the policy file does not exist', () => {
    const { status, stderr } = runCli([
      '--policy',
      'no-such-policy.yaml',
      '--',
      process.execPath,
      EVERYTHING_SERVER,
    ]);
    expect(status).toBe(2);
    expect(stderr).toContain('no-such-policy.yaml');
  });

  it('answers the client with an error and exits 1 when the server cannot be started', async () => {
    const state = tempDir();
    cleanups.push(state.remove);
    const cli = startCli(['--state-dir', state.path, '--', '/nonexistent/mcp-server', '--stdio']);
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    await expect(
      client.connect(new StreamTransport(cli.process.stdout!, cli.process.stdin!)),
    ).rejects.toThrow();
    expect(await cli.exit).toBe(1);
    expect(cli.stderr()).toContain('could not start the MCP server `/nonexistent/mcp-server --stdio`');
    expect(cli.stderr()).toContain('ENOENT');
  });
});

describe('the stdio channel', () => {
  it('carries nothing but JSON-RPC, while the server logs and fails and the guard blocks', async () => {
    const state = tempDir();
    cleanups.push(state.remove);
    const cli = startCli(['--state-dir', state.path, '--', process.execPath, PROBE_SERVER]);
    let stdout = '';
    cli.process.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    await client.connect(new StreamTransport(cli.process.stdout!, cli.process.stdin!));
    await client.callTool({ name: 'garble', arguments: {} });
    for (let attempt = 0; attempt < 3; attempt += 1)
      await client.callTool({ name: 'read_note', arguments: { name: 'x' } });
    await client.close();
    expect(await cli.exit).toBe(0);

    const lines = stdout.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(4);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(cli.stderr()).toContain('not JSON');
  });
});

describe.runIf(existsSync(BUILT_CLI))('the built command', () => {
  it('proxies server-everything end to end through bin/narrowing.js', async () => {
    const state = tempDir();
    cleanups.push(state.remove);
    const proxy = await spawnProxy(['--state-dir', state.path, '--', process.execPath, EVERYTHING_SERVER], {
      command: [process.execPath, BIN],
    });
    cleanups.push(() => proxy.close());
    const result = await proxy.client.callTool({ name: 'echo', arguments: { message: 'built' } });
    expect(textOf(result)).toBe('Echo: built');
    expect(await proxy.close()).toBe(0);
  });
});
