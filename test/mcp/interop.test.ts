import { join } from 'node:path';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { VERDICT_META_KEY } from '../../src/guard/verdict.js';
import {
  cleanupsAfterEach,
  connectModernClient,
  nodeServer,
  startOnPipes,
  tempDir,
  textOf,
} from './support/harness.js';
import { CLI_COMMAND, EVERYTHING_SERVER, MEMORY_SERVER, REPO_ROOT } from './support/paths.js';
import { ScriptedGuard } from './support/scripted-guard.js';

const cleanups = cleanupsAfterEach();
const [CLI_PROGRAM = process.execPath, ...CLI_PREFIX] = CLI_COMMAND;

/** A client built on the v1 SDK, as most hosts still are, talking to `narrowing mcp` over stdio. */
async function v1Client(proxyArgs: string[], env: Record<string, string> = {}): Promise<V1Client> {
  const client = new V1Client({ name: 'v1-host', version: '1.0.0' });
  await client.connect(
    new V1StdioClientTransport({
      command: CLI_PROGRAM,
      args: [...CLI_PREFIX, 'mcp', ...proxyArgs],
      cwd: REPO_ROOT,
      env: { ...(process.env as Record<string, string>), ...env },
      stderr: 'ignore',
    }),
  );
  cleanups.push(() => client.close());
  return client;
}

describe('a v1 client through the proxy', () => {
  it('lists and calls the tools of server-everything, with progress', async () => {
    const state = tempDir();
    cleanups.push(state.remove);
    const client = await v1Client(['--state-dir', state.path, '--', process.execPath, EVERYTHING_SERVER]);

    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['echo', 'trigger-long-running-operation']),
    );
    const progress: number[] = [];
    const result = await client.callTool(
      { name: 'trigger-long-running-operation', arguments: { duration: 0.6, steps: 3 } },
      undefined,
      { onprogress: (update) => progress.push(update.progress) },
    );
    expect(textOf(result)).toContain('Long running operation completed');
    expect(progress.slice(0, 2)).toEqual([1, 2]);
  });

  it('works with server-memory, and is refused a repeated failing call', async () => {
    const state = tempDir();
    cleanups.push(state.remove);
    const client = await v1Client(['--state-dir', state.path, '--', process.execPath, MEMORY_SERVER], {
      MEMORY_FILE_PATH: join(state.path, 'memory.jsonl'),
    });

    const created = await client.callTool({
      name: 'create_entities',
      arguments: {
        entities: [{ name: 'narrowing', entityType: 'project', observations: ['guards tool calls'] }],
      },
    });
    expect(created.isError ?? false).toBe(false);
    const found = await client.callTool({ name: 'search_nodes', arguments: { query: 'narrowing' } });
    expect(textOf(found)).toContain('guards tool calls');

    const malformed = { name: 'delete_entities', arguments: { entityNames: 'narrowing' } };
    const results = [];
    for (let attempt = 0; attempt < 3; attempt += 1) results.push(await client.callTool(malformed));
    expect(textOf(results[0])).toContain('Input validation error');
    expect(
      results.some((result) => (result._meta as Record<string, unknown> | undefined)?.[VERDICT_META_KEY]),
    ).toBe(true);
  });
});

describe('a client of the 2026-07-28 revision through the proxy', () => {
  it('negotiates the new revision and calls tools, with progress, in front of a 2025-era server', async () => {
    const guard = new ScriptedGuard();
    const proxy = startOnPipes({ target: nodeServer(EVERYTHING_SERVER), guard });
    const { done } = proxy;
    const client = await connectModernClient(proxy);
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      const progress: number[] = [];
      const result = await client.callTool(
        { name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } },
        { onprogress: (update) => progress.push(update.progress) },
      );
      expect(textOf(result)).toContain('Long running operation completed');
      expect(progress.length).toBeGreaterThanOrEqual(2);
      expect(guard.proposals.map((proposal) => proposal.tool)).toEqual(['trigger-long-running-operation']);
    } finally {
      await client.close();
    }
    expect(await done).toBe(0);
  });
});
