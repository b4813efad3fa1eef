import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, type Progress } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openGuardSync } from '../../src/guard/open.js';
import {
  type InProcessProxy,
  nodeServer,
  probeLog,
  startInProcess,
  tempDir,
  textOf,
} from './support/harness.js';
import { EVERYTHING_SERVER, FILESYSTEM_SERVER, PROBE_SERVER } from './support/paths.js';
import { ScriptedGuard } from './support/scripted-guard.js';

const quiet = () => undefined;

/** The same server, connected directly: what the proxy must look like from the client's side. */
async function direct(script: string, ...args: string[]): Promise<Client> {
  const client = new Client({ name: 'proxy-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [script, ...args], stderr: 'ignore' }),
  );
  return client;
}

describe('the stdio proxy in front of server-everything', () => {
  const state = tempDir();
  let proxy: InProcessProxy;
  let plain: Client;

  beforeAll(async () => {
    proxy = await startInProcess({
      target: nodeServer(EVERYTHING_SERVER),
      guard: openGuardSync({ stateDir: state.path, onProblem: quiet }),
    });
    plain = await direct(EVERYTHING_SERVER);
  });
  afterAll(async () => {
    await proxy.close();
    await plain.close();
    state.remove();
  });

  it('lists the same tools as the server itself', async () => {
    const [proxied, own] = await Promise.all([proxy.client.listTools(), plain.listTools()]);
    expect(proxied.tools).toEqual(own.tools);
  });

  it('presents the server under its own name and instructions', () => {
    expect(proxy.client.getServerVersion()).toEqual(plain.getServerVersion());
    expect(proxy.client.getInstructions()).toBe(plain.getInstructions());
  });

  it('advertises what it forwards and leaves out tasks', () => {
    const capabilities = proxy.client.getServerCapabilities();
    expect(plain.getServerCapabilities()?.tasks).toBeDefined();
    expect(capabilities?.tasks).toBeUndefined();
    expect(Object.keys(capabilities ?? {}).sort()).toEqual([
      'completions',
      'logging',
      'prompts',
      'resources',
      'tools',
    ]);
  });

  it('returns a tool result unchanged', async () => {
    const args = { name: 'get-structured-content', arguments: { location: 'New York' } };
    const [proxied, own] = await Promise.all([proxy.client.callTool(args), plain.callTool(args)]);
    expect(proxied).toEqual(own);
  });

  it('forwards prompts, resources, completions, logging levels and pings', async () => {
    const prompts = await proxy.client.listPrompts();
    expect(prompts.prompts.map((prompt) => prompt.name)).toContain('args-prompt');
    const prompt = await proxy.client.getPrompt({ name: 'args-prompt', arguments: { city: 'Lisbon' } });
    expect(JSON.stringify(prompt.messages)).toContain('Lisbon');

    const resources = await proxy.client.listResources();
    const first = resources.resources[0];
    expect(first).toBeDefined();
    const read = await proxy.client.readResource({ uri: first!.uri });
    expect(read.contents[0]?.uri).toBe(first!.uri);
    expect((await proxy.client.listResourceTemplates()).resourceTemplates.length).toBeGreaterThan(0);

    const completion = await proxy.client.complete({
      ref: { type: 'ref/prompt', name: 'completable-prompt' },
      argument: { name: 'department', value: 'Eng' },
    });
    expect(completion.completion.values).toContain('Engineering');

    await expect(proxy.client.setLoggingLevel('error')).resolves.toEqual({});
    await expect(proxy.client.ping()).resolves.toEqual({});
  });

  it('forwards the server’s log messages to the client', async () => {
    const messages: unknown[] = [];
    proxy.client.setNotificationHandler('notifications/message', (notification) => {
      messages.push(notification.params.data);
    });
    await proxy.client.setLoggingLevel('debug');
    await proxy.client.callTool({ name: 'toggle-simulated-logging', arguments: {} });
    await expect.poll(() => messages.length).toBeGreaterThan(0);
    expect(String(messages[0])).toMatch(/message/i);
    await proxy.client.callTool({ name: 'toggle-simulated-logging', arguments: {} });
  });

  it('forwards subscriptions and the server’s resource updates', async () => {
    const updated: string[] = [];
    proxy.client.setNotificationHandler('notifications/resources/updated', (notification) => {
      updated.push(notification.params.uri);
    });
    const { resources } = await proxy.client.listResources();
    const uri = resources[0]!.uri;
    await proxy.client.subscribeResource({ uri });
    await proxy.client.callTool({ name: 'toggle-subscriber-updates', arguments: {} });
    await expect.poll(() => updated).toContain(uri);
    await proxy.client.callTool({ name: 'toggle-subscriber-updates', arguments: {} });
    await proxy.client.unsubscribeResource({ uri });
  });

  it('forwards the server’s progress notifications under the client’s own token', async () => {
    const progress: Progress[] = [];
    const result = await proxy.client.callTool(
      { name: 'trigger-long-running-operation', arguments: { duration: 0.6, steps: 3 } },
      { onprogress: (update) => progress.push(update) },
    );
    expect(textOf(result)).toContain('Long running operation completed');
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress[0]).toMatchObject({ progress: 1, total: 3 });
  });

  it('gives the guard every call with the tool’s annotations and input schema', async () => {
    const guard = new ScriptedGuard();
    const proxied = await startInProcess({ target: nodeServer(EVERYTHING_SERVER), guard });
    try {
      // No tools/list first: the proxy fetches the list itself to describe the call.
      const result = await proxied.client.callTool({ name: 'echo', arguments: { message: 'hello' } });
      expect(textOf(result)).toBe('Echo: hello');
    } finally {
      await proxied.close();
    }
    expect(guard.proposals).toEqual([
      expect.objectContaining({
        tool: 'echo',
        args: { message: 'hello' },
        annotations: expect.objectContaining({ readOnlyHint: true }),
        inputSchema: expect.objectContaining({ required: ['message'] }),
      }),
    ]);
    expect(guard.outcomes).toEqual([expect.objectContaining({ success: true, content: 'Echo: hello' })]);
    expect(guard.closed).toBe(true);
  });
});

describe('requests the server sends to the client', () => {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('forwards a sampling request to a client that can sample', async () => {
    const state = tempDir();
    const proxy = await startInProcess(
      {
        target: nodeServer(EVERYTHING_SERVER),
        guard: openGuardSync({ stateDir: state.path, onProblem: quiet }),
      },
      {
        capabilities: { sampling: {} },
        setup: (client) =>
          client.setRequestHandler('sampling/createMessage', async (request) => ({
            model: 'test-model',
            role: 'assistant',
            content: {
              type: 'text',
              text: `sampled: ${JSON.stringify(request.params.messages[0]?.content)}`,
            },
          })),
      },
    );
    cleanups.push(() => proxy.close(), state.remove);
    await expect
      .poll(async () => (await proxy.client.listTools()).tools.map((tool) => tool.name))
      .toContain('trigger-sampling-request');
    const result = await proxy.client.callTool({
      name: 'trigger-sampling-request',
      arguments: { prompt: 'name a colour', maxTokens: 10 },
    });
    expect(textOf(result)).toContain('test-model');
    expect(textOf(result)).toContain('name a colour');
  });

  it('forwards an elicitation request to a client that can ask its user', async () => {
    const state = tempDir();
    const proxy = await startInProcess(
      {
        target: nodeServer(EVERYTHING_SERVER),
        guard: openGuardSync({ stateDir: state.path, onProblem: quiet }),
      },
      {
        capabilities: { elicitation: { form: {} } },
        setup: (client) =>
          client.setRequestHandler('elicitation/create', async () => ({
            action: 'accept',
            content: { name: 'Ada Lovelace', check: true },
          })),
      },
    );
    cleanups.push(() => proxy.close(), state.remove);
    await expect
      .poll(async () => (await proxy.client.listTools()).tools.map((tool) => tool.name))
      .toContain('trigger-elicitation-request');
    const result = await proxy.client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    expect(textOf(result)).toContain('- Name: Ada Lovelace');
  });

  it('does not declare sampling to the server for a client that cannot sample', async () => {
    const state = tempDir();
    const proxy = await startInProcess({
      target: nodeServer(EVERYTHING_SERVER),
      guard: openGuardSync({ stateDir: state.path, onProblem: quiet }),
    });
    cleanups.push(() => proxy.close(), state.remove);
    // The proxy declares to the server only what the client declared, so the server does not even offer it.
    const { tools } = await proxy.client.listTools();
    expect(tools.map((tool) => tool.name)).not.toContain('trigger-sampling-request');
  });

  it('answers the server’s roots requests with the client’s roots, and passes on their changes', async () => {
    const state = tempDir();
    const work = tempDir();
    const [first, second] = [join(work.path, 'first'), join(work.path, 'second')];
    for (const dir of [first, second]) {
      mkdirSync(dir);
      writeFileSync(join(dir, 'README.md'), '# project\n');
    }
    let root = first;
    const proxy = await startInProcess(
      {
        target: nodeServer(FILESYSTEM_SERVER, work.path),
        // The test polls one tool until its answer changes: identical answers must not be refused.
        guard: openGuardSync({ stateDir: state.path, preset: 'off', onProblem: quiet }),
      },
      {
        capabilities: { roots: { listChanged: true } },
        setup: (client) =>
          client.setRequestHandler('roots/list', async () => ({
            roots: [{ uri: `file://${root}`, name: 'project' }],
          })),
      },
    );
    cleanups.push(() => proxy.close(), state.remove, work.remove);
    const allowed = async () =>
      textOf(await proxy.client.callTool({ name: 'list_allowed_directories', arguments: {} }));
    await expect.poll(allowed).toContain(first);

    root = second;
    await proxy.client.sendRootsListChanged();
    await expect.poll(allowed).toContain(second);
  });
});

describe('cancellation', () => {
  it('reaches the server when the client cancels a call', async () => {
    const state = tempDir();
    const log = join(state.path, 'probe.jsonl');
    const proxy = await startInProcess({
      target: { kind: 'command', command: process.execPath, args: [PROBE_SERVER], env: { PROBE_LOG: log } },
      guard: openGuardSync({ stateDir: state.path, onProblem: quiet }),
    });
    try {
      const controller = new AbortController();
      const call = proxy.client.callTool(
        { name: 'wait_for_cancel', arguments: {} },
        { signal: controller.signal },
      );
      await expect.poll(() => probeLog(log).some((entry) => entry.event === 'call')).toBe(true);
      controller.abort('the user pressed escape');
      await expect(call).rejects.toThrow();
      await expect.poll(() => probeLog(log).map((entry) => entry.event)).toContain('cancelled');
    } finally {
      await proxy.close();
      state.remove();
    }
  });
});
