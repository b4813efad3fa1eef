import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { type CallToolResult, Client, type Progress, ProtocolError } from '@modelcontextprotocol/client';
import { describe, expect, it, vi } from 'vitest';
import type { VerdictKind } from '../../src/core/types.js';
import { VERDICT_META_KEY, type VerdictMeta } from '../../src/guard/verdict.js';
import { runStdioProxy } from '../../src/mcp/stdio.js';
import { UpstreamClient } from '../../src/mcp/upstream-client.js';
import {
  cleanupsAfterEach,
  connectModernClient,
  nodeServer,
  probeLog,
  startInProcess,
  startOnPipes,
  tempDir,
  textOf,
} from './support/harness.js';
import { EVERYTHING_SERVER, PROBE_SERVER } from './support/paths.js';
import { RawClient, type RawMessage, startRawProxy } from './support/raw-client.js';
import { ScriptedGuard } from './support/scripted-guard.js';
import { StreamTransport } from './support/stream-transport.js';

const cleanups = cleanupsAfterEach();

/** The probe server, logging each call it receives (with the request id) to a file of its own. */
function probe() {
  const dir = tempDir();
  cleanups.push(dir.remove);
  const log = join(dir.path, 'probe.jsonl');
  return {
    log,
    calls: () => probeLog(log).filter((entry) => entry.event === 'call'),
    target: {
      kind: 'command' as const,
      command: process.execPath,
      args: [PROBE_SERVER],
      env: { PROBE_LOG: log },
    },
  };
}

async function proxyWith(
  target: ReturnType<typeof nodeServer>,
  guard = new ScriptedGuard(),
  callTimeoutMs?: number,
) {
  const proxy = await startInProcess({
    target,
    guard,
    ...(callTimeoutMs !== undefined && { callTimeoutMs }),
  });
  cleanups.push(() => proxy.close());
  return { ...proxy, guard };
}

async function rawProxyWith(target: ReturnType<typeof nodeServer>, guard = new ScriptedGuard()) {
  const proxy = await startRawProxy({ target, guard });
  cleanups.push(async () => {
    proxy.client.end();
    await proxy.done;
  });
  return { ...proxy, guard };
}

const call = (name: string, args: Record<string, unknown> = {}) => ({ name, arguments: args });
const verdictOf = (result: CallToolResult) => result._meta?.[VERDICT_META_KEY] as VerdictMeta | undefined;
const isRelayId = (id: unknown) => typeof id === 'string' && id.startsWith('narrowing-');

describe('tool calls on the fast path', () => {
  it('reach the server under an id of the proxy’s own in a 2025-era session', async () => {
    const server = probe();
    const proxy = await proxyWith(server.target);

    const result = (await proxy.client.callTool(call('echo', { text: 'fast' }))) as CallToolResult;
    expect(textOf(result)).toBe('fast');
    expect(server.calls().map((entry) => entry.requestId)).toEqual([
      expect.stringMatching(/^narrowing-\d+$/),
    ]);
  });

  it('are left to the SDK server in a 2026-era session, and relayed under the proxy’s ids', async () => {
    const server = probe();
    const proxy = startOnPipes({ target: server.target, guard: new ScriptedGuard() });
    const client = await connectModernClient(proxy);
    cleanups.push(async () => {
      await client.close();
      await proxy.done;
    });

    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(textOf(await client.callTool(call('echo', { text: 'modern' })))).toBe('modern');
    expect(server.calls().map((entry) => isRelayId(entry.requestId))).toEqual([true]);
  });

  it('answer each of many concurrent calls with its own result while other requests are in flight', async () => {
    const proxy = await proxyWith(nodeServer(EVERYTHING_SERVER));
    const messages = Array.from({ length: 40 }, (_, index) => `message ${index}`);

    const [results, tools, prompts] = await Promise.all([
      Promise.all(messages.map((message) => proxy.client.callTool(call('echo', { message })))),
      proxy.client.listTools(),
      proxy.client.listPrompts(),
    ]);
    expect(results.map((result) => textOf(result))).toEqual(messages.map((message) => `Echo: ${message}`));
    expect(tools.tools.map((tool) => tool.name)).toContain('echo');
    expect(prompts.prompts.length).toBeGreaterThan(0);
  });

  it('keep the client’s ids apart from the proxy’s own, even ids written like the proxy’s', async () => {
    const { client } = await rawProxyWith(nodeServer(EVERYTHING_SERVER));
    const ids = ['narrowing-0', 'narrowing-1', 0, 1, '1'];

    ids.forEach((id, index) => {
      client.send({ id, method: 'tools/call', params: call('echo', { message: `for ${index}` }) });
    });
    client.send({ id: 2, method: 'tools/list', params: {} });
    const answers = await Promise.all(ids.map((id) => client.answerTo(id)));
    expect(answers.map((answer) => textOf(answer.result))).toEqual(
      ids.map((_, index) => `Echo: for ${index}`),
    );
    expect((await client.answerTo(2)).result).toMatchObject({ tools: expect.any(Array) });
    for (const id of [...ids, 2]) expect(client.answersTo(id)).toHaveLength(1);
  });

  it('give the same answers, warnings included, as the SDK path', async () => {
    const server = probe();
    const warned = new Set(['search_catalog', 'get-tiny-image']);
    const guard = new ScriptedGuard(
      (proposal): VerdictKind => (warned.has(proposal.tool) ? 'warn' : 'allow'),
    );
    const probeSide = await rawProxyWith(server.target, guard);
    const everythingSide = await rawProxyWith(nodeServer(EVERYTHING_SERVER), guard);
    const cases = [
      { side: probeSide, calls: [call('echo', { text: 'same' }), call('read_note', { name: 'todo' })] },
      { side: probeSide, calls: [call('search_catalog', { query: 'gpu' }), call('reject')] },
      {
        side: probeSide,
        calls: ['without-content', 'unknown-member', 'result-type', 'text-missing', 'error-flag-as-text'].map(
          (shape) => call('odd_result', { shape }),
        ),
      },
      {
        side: everythingSide,
        calls: [
          call('get-structured-content', { location: 'New York' }),
          call('get-annotated-message', { messageType: 'error', includeImage: true }),
          call('get-resource-links', { count: 2 }),
          call('get-tiny-image'),
          call('get-sum', { a: 'one', b: 2 }),
          call('no-such-tool'),
        ],
      },
    ];

    let next = 0;
    for (const { side, calls } of cases) {
      for (const params of calls) {
        // A member the SDK does not know keeps a call off the fast path (and the SDK drops it). One
        // after the other: identical calls in flight together would run once.
        const fast = await side.client.request(`fast-${next}`, 'tools/call', params);
        const sdk = await side.client.request(`sdk-${next}`, 'tools/call', {
          ...params,
          'x-off-the-fast-path': true,
        });
        next += 1;
        const { id: _fastId, ...fastAnswer } = fast;
        const { id: _sdkId, ...sdkAnswer } = sdk;
        expect(fastAnswer, params.name).toEqual(sdkAnswer);
      }
    }
    // Both paths relay a call under an id of the proxy's own, so that a cancelled call is still learned.
    const ids = server.calls().map((entry) => entry.requestId);
    expect(ids.filter(isRelayId)).toHaveLength(18);
  });

  it('relay the server’s results without walking the SDK’s result schema', async () => {
    const validated: string[] = [];
    // The relay's client reaches the SDK's schemas only through its wire codec: watch what it validates.
    const wireCodec =
      Object.getOwnPropertyDescriptor(Client.prototype, '_wireCodec')?.value ??
      Object.getPrototypeOf(Client.prototype)._wireCodec;
    const spy = vi
      .spyOn(UpstreamClient.prototype as unknown as { _wireCodec: () => object }, '_wireCodec')
      .mockImplementation(function (this: UpstreamClient) {
        const codec = wireCodec.call(this);
        return Object.create(codec, {
          validateResult: {
            value: (method: string, raw: unknown) => {
              validated.push(method);
              return codec.validateResult(method, raw);
            },
          },
        });
      });
    cleanups.push(() => spy.mockRestore());
    const { client } = await rawProxyWith(probe().target);

    const shapes = ['without-content', 'unknown-member', 'result-type'];
    shapes.forEach((shape, index) => {
      client.send({ id: index, method: 'tools/call', params: call('odd_result', { shape }) });
    });
    client.send({ id: 'echo', method: 'tools/call', params: call('echo', { text: 'plain' }) });
    const answers = await Promise.all([...shapes.keys(), 'echo'].map((id) => client.answerTo(id)));
    expect(answers.map((answer) => (answer.result as CallToolResult).isError ?? false)).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(validated).not.toContain('tools/call');
  });

  it('put the same arguments to the guard and the server as the SDK path, whatever their keys', async () => {
    const server = probe();
    const { client, guard } = await rawProxyWith(server.target);
    const argumentSets = ['{"text": "plain"}', '{"text": "odd key", "__proto__": {"polluted": true}}'];

    for (const [index, text] of argumentSets.entries()) {
      const params = { name: 'echo', arguments: JSON.parse(text) };
      await client.request(`fast-${index}`, 'tools/call', params);
      await client.request(`sdk-${index}`, 'tools/call', { ...params, 'x-off-the-fast-path': true });
    }
    const proposed = guard.proposals.map((proposal) => JSON.stringify(proposal.args));
    const received = server.calls().map((entry) => JSON.stringify(entry.args));
    for (const seen of [proposed, received]) {
      expect(seen).toHaveLength(4);
      expect(seen[0]).toBe(seen[1]);
      expect(seen[2]).toBe(seen[3]);
    }
  });

  it('append the warning and the verdict to a warned call, keeping the server’s own _meta', async () => {
    const guard = new ScriptedGuard(() => 'warn');
    const proxy = await proxyWith(probe().target, guard);

    const result = (await proxy.client.callTool(
      call('search_catalog', { query: 'gpu quota' }),
    )) as CallToolResult;
    expect(result.content).toEqual([
      { type: 'text', text: 'No items matched "gpu quota".' },
      { type: 'text', text: '[narrowing warning (scripted)] scripted reason\nscripted suggestion' },
    ]);
    expect(result._meta).toMatchObject({
      'dev.narrowing/non-advancing': true,
      'dev.example/source': 'probe',
    });
    expect(verdictOf(result)).toMatchObject({ verdict: 'warn', rule: 'scripted', reason: 'scripted reason' });
    expect(guard.outcomes).toEqual([expect.objectContaining({ success: true })]);
  });

  it('do not reach the server when the guard blocks them', async () => {
    const server = probe();
    const guard = new ScriptedGuard(() => 'block');
    const proxy = await proxyWith(server.target, guard);

    const result = (await proxy.client.callTool(call('read_note', { name: 'todo' }))) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      '[narrowing blocked this call (scripted)] scripted reason\nscripted suggestion',
    );
    expect(verdictOf(result)).toMatchObject({ verdict: 'block' });
    // One round trip more, so that a call that did go out would have been logged by now.
    await proxy.client.callTool(call('echo', { text: 'after' })).catch(() => undefined);
    expect(server.calls()).toEqual([]);
    expect(guard.outcomes).toEqual([]);
  });

  it('pass the server’s JSON-RPC error on unchanged, and record it as the server’s answer', async () => {
    const guard = new ScriptedGuard();
    const proxy = await proxyWith(probe().target, guard);

    const error = await proxy.client.callTool(call('reject')).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: -32602, data: { parameter: 'depth' } });
    expect((error as Error).message).toContain('Unknown parameter: depth');
    expect(guard.outcomes).toEqual([
      expect.objectContaining({ success: false, errorCode: '-32602', exceptionName: 'ProtocolError' }),
    ]);
  });

  it('write a result to the client before the guard learns from it, and check the next call against what it learned', async () => {
    const learnedBeforeCheck: number[] = [];
    const guard = new ScriptedGuard(() => {
      learnedBeforeCheck.push(guard.outcomes.length);
      return 'allow';
    });
    const written: string[] = [];
    const answeredBeforeLearning: boolean[] = [];
    const record = guard.record.bind(guard);
    guard.record = (outcome) => {
      answeredBeforeLearning.push(written.join('').includes(`"id":"call-${guard.outcomes.length + 1}"`));
      return record(outcome);
    };
    const { toProxy, fromProxy, done } = startOnPipes({ target: nodeServer(EVERYTHING_SERVER), guard });
    const write = fromProxy.write.bind(fromProxy) as (...args: unknown[]) => boolean;
    fromProxy.write = ((chunk: unknown, ...rest: unknown[]) => {
      written.push(String(chunk));
      return write(chunk, ...rest);
    }) as typeof fromProxy.write;
    const client = new RawClient(toProxy, fromProxy);
    cleanups.push(async () => {
      client.end();
      await done;
    });
    await client.initialize();
    await client.request('ready', 'ping');

    const first = await client.request('call-1', 'tools/call', call('echo', { message: 'first' }));
    const second = await client.request('call-2', 'tools/call', call('echo', { message: 'second' }));
    expect([first, second].map((answer) => textOf(answer.result))).toEqual(['Echo: first', 'Echo: second']);
    expect(answeredBeforeLearning).toEqual([true, true]);
    expect(learnedBeforeCheck).toEqual([0, 1]);
  });

  it('leave a malformed call to the SDK, which answers it with a JSON-RPC error', async () => {
    const server = probe();
    const { client, guard } = await rawProxyWith(server.target);

    const answers = await Promise.all([
      client.request(1, 'tools/call', { arguments: { text: 'no name' } }),
      client.request(2, 'tools/call', { name: 'echo', arguments: ['not', 'an', 'object'] }),
      client.request(3, 'tools/call', { name: 'echo', arguments: 'text' }),
      client.request(4, 'tools/call'),
    ]);
    for (const answer of answers) {
      expect(answer.result).toBeUndefined();
      expect(answer.error).toMatchObject({ code: expect.any(Number), message: expect.any(String) });
    }
    expect(guard.proposals).toEqual([]);
    expect(server.calls()).toEqual([]);
  });
});

describe('cancelling a call on the fast path', () => {
  it('cancels it at the server under the proxy’s id and sends no answer', async () => {
    const server = probe();
    const { client, guard } = await rawProxyWith(server.target);

    client.send({ id: 5, method: 'tools/call', params: call('wait_for_cancel') });
    await expect.poll(() => server.calls().map((entry) => entry.tool)).toEqual(['wait_for_cancel']);
    client.send({
      method: 'notifications/cancelled',
      params: { requestId: 5, reason: 'the user pressed escape' },
    });
    await expect.poll(() => probeLog(server.log).map((entry) => entry.event)).toContain('cancelled');

    // Answers come in order of readiness: one for a later call shows the cancelled one had its chance.
    expect(textOf((await client.request(6, 'tools/call', call('echo', { text: 'next' }))).result)).toBe(
      'next',
    );
    expect(client.answersTo(5)).toEqual([]);
    expect(isRelayId(server.calls()[0]?.requestId)).toBe(true);
    // The probe server's SDK sends no answer to a cancelled call: there is nothing to learn.
    expect(guard.outcomes.map((outcome) => outcome.proposal.tool)).toEqual(['echo']);
  });
});

describe('a client that leaves during a call', () => {
  it('has the call finished and learned, not cancelled, on the fast path as on the SDK path', async () => {
    for (const era of ['2025', '2026'] as const) {
      const server = probe();
      const guard = new ScriptedGuard();
      const toProxy = new PassThrough();
      const fromProxy = new PassThrough();
      const done = runStdioProxy({
        target: server.target,
        guard,
        input: toProxy,
        output: fromProxy,
        handleSignals: false,
        log: () => undefined,
      });
      const client = new Client(
        { name: `${era}-host`, version: '1.0.0' },
        era === '2026' ? { versionNegotiation: { mode: 'auto' } } : {},
      );
      await client.connect(new StreamTransport(fromProxy, toProxy));
      const running = client.callTool({ name: 'slow_fail', arguments: { ms: '400' } });
      running.catch(() => undefined);
      await expect.poll(() => server.calls().length).toBe(1);

      await client.close();
      expect(await done, era).toBe(0);
      expect(
        probeLog(server.log).map((entry) => entry.event),
        era,
      ).not.toContain('cancelled');
      expect(isRelayId(server.calls()[0]?.requestId), era).toBe(true);
      expect(
        guard.outcomes.map((outcome) => [outcome.proposal.tool, outcome.success]),
        era,
      ).toEqual([['slow_fail', false]]);
    }
  });
});

describe('progress on the fast path', () => {
  const longRun = call('trigger-long-running-operation', { duration: 0.9, steps: 6 });

  it('reaches the client under its own token and keeps a slow call from timing out', async () => {
    const proxy = await proxyWith(nodeServer(EVERYTHING_SERVER), new ScriptedGuard(), 600);

    const progress: Progress[] = [];
    const result = await proxy.client.callTool(longRun, { onprogress: (update) => progress.push(update) });
    expect(textOf(result)).toContain('Long running operation completed');
    expect(progress.map((update) => update.progress)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(progress[0]).toMatchObject({ total: 6 });
  });

  it('does not save a call that asked for none: it times out with the fault result, not the call’s fault', async () => {
    const proxy = await proxyWith(nodeServer(EVERYTHING_SERVER), new ScriptedGuard(), 600);

    const result = (await proxy.client.callTool(longRun)) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('did not answer in time. This is not a problem with the call.');
    expect(proxy.guard.outcomes).toEqual([expect.objectContaining({ exceptionName: 'TimeoutError' })]);
    // The server still answers pings, so it was a slow tool, not a hung server: the proxy stays.
    expect(textOf(await proxy.client.callTool(call('echo', { message: 'alive' })))).toBe('Echo: alive');
  });
});

describe('an upstream that exits during fast-path calls', () => {
  it('answers every call in flight with the fault result and records each as the harness’s fault', async () => {
    const server = probe();
    const guard = new ScriptedGuard();
    const proxy = await startInProcess({ target: server.target, guard });

    const results = (await Promise.all([
      proxy.client.callTool(call('hang', { attempt: 'first' })),
      proxy.client.callTool(call('hang', { attempt: 'second' })),
      proxy.client.callTool(call('crash')),
    ])) as CallToolResult[];
    for (const result of results) {
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('the server exited while the call was running');
    }
    expect(await proxy.done).toBe(1);
    expect(guard.outcomes).toHaveLength(3);
    for (const outcome of guard.outcomes) expect(outcome).toMatchObject({ exceptionName: 'ConnectionError' });
  });
});

describe('stopping with fast-path calls in flight', () => {
  it('waits for them to be answered and recorded before closing the guard', async () => {
    const stop = new AbortController();
    const guard = new ScriptedGuard();
    const { client, done } = await startRawProxy({
      target: nodeServer(EVERYTHING_SERVER),
      guard,
      signal: stop.signal,
    });

    const params = call('trigger-long-running-operation', { duration: 0.4, steps: 2 });
    client.send({ id: 'last', method: 'tools/call', params });
    await expect.poll(() => guard.proposals.length).toBe(1);
    stop.abort();
    const answer: RawMessage = await client.answerTo('last');
    expect(textOf(answer.result)).toContain('Long running operation completed');
    expect(await done).toBe(0);
    expect(guard.outcomes).toEqual([expect.objectContaining({ success: true })]);
    expect(guard.closed).toBe(true);
  });
});
