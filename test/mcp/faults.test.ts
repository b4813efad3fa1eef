import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { VERDICT_META_KEY } from '../../src/guard/verdict.js';
import {
  cleanupsAfterEach,
  probeLog,
  type SpawnedProxy,
  spawnProxy,
  startInProcess,
  tempDir,
  textOf,
} from './support/harness.js';
import { PROBE_SERVER } from './support/paths.js';
import { ScriptedGuard } from './support/scripted-guard.js';

const cleanups = cleanupsAfterEach();

function setup() {
  const dir = tempDir();
  cleanups.push(dir.remove);
  const log = join(dir.path, 'probe.jsonl');
  const state = join(dir.path, 'state');
  return { dir: dir.path, log, state, env: { PROBE_LOG: log } };
}

async function proxyFor(
  flags: string[],
  env: Record<string, string>,
  stateDir: string,
): Promise<SpawnedProxy> {
  const proxy = await spawnProxy(['--state-dir', stateDir, ...flags, '--', process.execPath, PROBE_SERVER], {
    env,
  });
  cleanups.push(() => {
    if (proxy.child.exitCode === null) proxy.child.kill('SIGKILL');
  });
  return proxy;
}

function journal(stateDir: string): { type: string; tool?: string; blame?: string; success?: boolean }[] {
  return readFileSync(join(stateDir, 'journal.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

describe('an upstream that crashes', () => {
  it('answers the call in flight with an error result, says why on stderr and exits non-zero', async () => {
    const { env, state } = setup();
    const proxy = await proxyFor([], env, state);

    const result = (await proxy.client.callTool({ name: 'crash', arguments: {} })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('the server exited while the call was running');
    expect(await proxy.exit).toBe(1);
    expect(proxy.stderr()).toMatch(
      /narrowing: the MCP server `.*probe-server\.mjs` exited with code 3; stopping/,
    );
  });

  it('records the crash as the harness’s fault, not the call’s', async () => {
    const { env, state } = setup();
    const proxy = await proxyFor([], env, state);
    await proxy.client.callTool({ name: 'crash', arguments: {} });
    await proxy.exit;

    const outcome = journal(state).find((entry) => entry.type === 'outcome' && entry.tool === 'crash');
    expect(outcome).toMatchObject({ success: false, blame: 'harness_fault' });
  });

  it('restarts it under --restart, and the next call reaches the new process', async () => {
    const { env, log, state } = setup();
    const proxy = await proxyFor(['--restart'], env, state);

    const crashed = (await proxy.client.callTool({ name: 'crash', arguments: {} })) as CallToolResult;
    expect(crashed.isError).toBe(true);
    const echoed = (await proxy.client.callTool({
      name: 'echo',
      arguments: { text: 'still here' },
    })) as CallToolResult;
    expect(textOf(echoed)).toBe('still here');
    const starts = probeLog(log).filter((entry) => entry.event === 'start');
    expect(new Set(starts.map((entry) => entry.pid)).size).toBe(2);
    expect(await proxy.close()).toBe(0);
    expect(proxy.stderr()).toContain('is back (restart 1 of 5)');
  });

  it('does not hold one crash against the call that was running', async () => {
    const { env, state } = setup();
    const proxy = await proxyFor(['--restart'], env, state);

    const first = (await proxy.client.callTool({ name: 'crash', arguments: {} })) as CallToolResult;
    expect(first._meta?.[VERDICT_META_KEY]).toBeUndefined();
    expect(textOf(first)).toContain('This is not a problem with the call');
    // The retry reaches the server: only a second crash in a row is held against the call.
    const retried = (await proxy.client.callTool({ name: 'crash', arguments: {} })) as CallToolResult;
    expect(retried._meta?.[VERDICT_META_KEY]).toBeUndefined();
    expect(textOf(retried)).toContain('crashed the MCP server twice in a row');
    await proxy.close();
  });
});

describe('an upstream that stops answering', () => {
  it('answers a call that outlives --call-timeout with an error and keeps a server that still answers pings', async () => {
    const { env, state } = setup();
    const proxy = await proxyFor(['--call-timeout', '0.5'], env, state);

    const slow = (await proxy.client.callTool({ name: 'hang', arguments: {} })) as CallToolResult;
    expect(slow.isError).toBe(true);
    expect(textOf(slow)).toContain('did not answer in time');
    const echoed = (await proxy.client.callTool({
      name: 'echo',
      arguments: { text: 'alive' },
    })) as CallToolResult;
    expect(textOf(echoed)).toBe('alive');
    expect(await proxy.close()).toBe(0);
  });

  it('treats a server that no longer answers pings as hung: error result, message, non-zero exit', async () => {
    const { env, state } = setup();
    const proxy = await proxyFor(['--call-timeout', '0.5'], env, state);

    const frozen = (await proxy.client.callTool({ name: 'freeze', arguments: {} })) as CallToolResult;
    expect(frozen.isError).toBe(true);
    expect(textOf(frozen)).toContain('did not answer in time');
    expect(await proxy.exit).toBe(1);
    expect(proxy.stderr()).toContain('treating it as hung');
  });
});

describe('malformed messages', () => {
  it('reports a line of garbage from the server on stderr and goes on', async () => {
    const { env, state } = setup();
    const proxy = await proxyFor([], env, state);

    const garbled = (await proxy.client.callTool({ name: 'garble', arguments: {} })) as CallToolResult;
    expect(textOf(garbled)).toBe('garbled, then answered');
    const echoed = (await proxy.client.callTool({
      name: 'echo',
      arguments: { text: 'after garbage' },
    })) as CallToolResult;
    expect(textOf(echoed)).toBe('after garbage');
    expect(await proxy.close()).toBe(0);
    expect(proxy.stderr()).toContain(
      'narrowing: the MCP server sent a line that is not JSON (ignored): this line is not JSON-RPC',
    );
  });

  it('reports a line of garbage from the client on stderr and goes on', async () => {
    const { env, state } = setup();
    const proxy = await proxyFor([], env, state);

    proxy.transport.writeRaw('{"jsonrpc": "2.0", "method": \n');
    proxy.transport.writeRaw('{"jsonrpc": "2.0", "id": "x"}\n');
    const echoed = (await proxy.client.callTool({
      name: 'echo',
      arguments: { text: 'after garbage' },
    })) as CallToolResult;
    expect(textOf(echoed)).toBe('after garbage');
    expect(await proxy.close()).toBe(0);
    expect(proxy.stderr()).toContain(
      'narrowing: the client sent a line that is not JSON (ignored): {"jsonrpc"',
    );
    expect(proxy.stderr()).toContain(
      'narrowing: the client sent a line that is not a JSON-RPC message (ignored)',
    );
  });
});

describe('every way out closes the guard', () => {
  const probeTarget = (log: string) => ({
    kind: 'command' as const,
    command: process.execPath,
    args: [PROBE_SERVER],
    env: { PROBE_LOG: log },
  });

  it('closes it when the client closes stdin', async () => {
    const { log } = setup();
    const guard = new ScriptedGuard();
    const proxy = await startInProcess({ target: probeTarget(log), guard });
    await proxy.client.callTool({ name: 'echo', arguments: { text: 'one' } });
    expect(await proxy.close()).toBe(0);
    expect(guard.closed).toBe(true);
  });

  it('closes it when the upstream exits', async () => {
    const { log } = setup();
    const guard = new ScriptedGuard();
    const proxy = await startInProcess({ target: probeTarget(log), guard });
    await proxy.client.callTool({ name: 'crash', arguments: {} });
    expect(await proxy.done).toBe(1);
    expect(guard.closed).toBe(true);
    expect(guard.outcomes).toEqual([
      expect.objectContaining({ success: false, exceptionName: 'ConnectionError' }),
    ]);
  });

  it('closes it on SIGTERM', async () => {
    const { log } = setup();
    const guard = new ScriptedGuard();
    const proxy = await startInProcess({ target: probeTarget(log), guard, handleSignals: true });
    await proxy.client.callTool({ name: 'echo', arguments: { text: 'one' } });
    process.emit('SIGTERM', 'SIGTERM');
    expect(await proxy.done).toBe(0);
    expect(guard.closed).toBe(true);
  });

  it('writes the journal and the learned state of a proxy stopped by SIGINT', async () => {
    const { env, state } = setup();
    const proxy = await proxyFor([], env, state);
    await proxy.client.callTool({ name: 'read_note', arguments: { name: 'todo' } });
    proxy.child.kill('SIGINT');
    expect(await proxy.exit).toBe(0);

    expect(journal(state).map((entry) => entry.type)).toEqual(
      expect.arrayContaining(['session', 'proposal', 'outcome', 'constraint_added']),
    );
    const saved = JSON.parse(readFileSync(join(state, 'state.json'), 'utf8')) as { constraints: unknown[] };
    expect(saved.constraints.length).toBeGreaterThan(0);
  });

  it('writes the journal and the learned state of a proxy whose terminal hung up (SIGHUP)', async () => {
    const { env, state } = setup();
    const proxy = await proxyFor([], env, state);
    await proxy.client.callTool({ name: 'read_note', arguments: { name: 'todo' } });
    proxy.child.kill('SIGHUP');
    expect(await proxy.exit).toBe(0);
    const saved = JSON.parse(readFileSync(join(state, 'state.json'), 'utf8')) as { constraints: unknown[] };
    expect(saved.constraints.length).toBeGreaterThan(0);
  });
});

describe('a guard that fails', () => {
  it('lets the call through and says so on stderr', async () => {
    const { log } = setup();
    const guard = new ScriptedGuard(() => {
      throw new Error('index corrupted');
    });
    const proxy = await startInProcess({
      target: { kind: 'command', command: process.execPath, args: [PROBE_SERVER], env: { PROBE_LOG: log } },
      guard,
    });
    try {
      const result = (await proxy.client.callTool({
        name: 'echo',
        arguments: { text: 'through' },
      })) as CallToolResult;
      expect(textOf(result)).toBe('through');
      expect(proxy.logs.join('\n')).toContain(
        'the guard failed to check a call to echo, letting it run: index corrupted',
      );
    } finally {
      await proxy.close();
    }
  });
});
