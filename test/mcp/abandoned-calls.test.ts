import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CallToolResult, Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { openGuard } from '../../src/guard/index.js';
import { VERDICT_META_KEY, type VerdictMeta } from '../../src/guard/verdict.js';
import { runHttpProxy } from '../../src/mcp/http.js';
import {
  cleanupsAfterEach,
  connectModernClient,
  nodeServer,
  startOnPipes,
  tempDir,
} from './support/harness.js';
import { PLAIN_SERVER } from './support/paths.js';
import { RawClient } from './support/raw-client.js';

const cleanups = cleanupsAfterEach();

/** A real guard keeping its state in a folder of the test's own. */
async function realGuard() {
  const dir = tempDir();
  cleanups.push(dir.remove);
  const stateDir = join(dir.path, 'state');
  const guard = await openGuard({ stateDir, onProblem: () => undefined });
  return { guard, stateDir };
}

function journalOutcomes(stateDir: string): { tool?: string; success?: boolean; blame?: string }[] {
  return readFileSync(join(stateDir, 'journal.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .filter((entry) => entry.type === 'outcome');
}

const slowFailure = (name: string, ms = 400) => ({ name: 'read_report', arguments: { name, ms } });
const verdictOf = (result: unknown) =>
  (result as CallToolResult)._meta?.[VERDICT_META_KEY] as VerdictMeta | undefined;

describe('a call the client cancels', () => {
  it('is learned from the answer the server sends anyway: the same call is then blocked', async () => {
    const { guard } = await realGuard();
    const proxy = startOnPipes({ target: nodeServer(PLAIN_SERVER), guard });
    const client = new RawClient(proxy.toProxy, proxy.fromProxy);
    cleanups.push(async () => {
      client.end();
      await proxy.done;
    });
    await client.initialize();
    await client.request('ready', 'ping');

    client.send({ id: 1, method: 'tools/call', params: slowFailure('q4') });
    await new Promise((resolve) => setTimeout(resolve, 100));
    client.send({
      method: 'notifications/cancelled',
      params: { requestId: 1, reason: 'the user pressed escape' },
    });
    await new Promise((resolve) => setTimeout(resolve, 600));

    const again = await client.request(2, 'tools/call', slowFailure('q4'));
    expect(client.answersTo(1)).toEqual([]);
    expect(verdictOf(again.result)?.verdict).toBe('block');
  });

  it('is learned on the SDK path of a 2026-era session too', async () => {
    const { guard } = await realGuard();
    const proxy = startOnPipes({ target: nodeServer(PLAIN_SERVER), guard });
    const client = await connectModernClient(proxy);
    cleanups.push(async () => {
      await client.close();
      await proxy.done;
    });

    const cancel = new AbortController();
    const first = client.callTool(slowFailure('q3'), { signal: cancel.signal });
    first.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
    cancel.abort('the user pressed escape');
    await expect(first).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 600));

    expect(verdictOf(await client.callTool(slowFailure('q3')))?.verdict).toBe('block');
  });
});

describe('a client that closes stdin right after its calls', () => {
  it('has every call finished and learned before the proxy exits', async () => {
    const { guard, stateDir } = await realGuard();
    const proxy = startOnPipes({ target: nodeServer(PLAIN_SERVER), guard });
    const client = new RawClient(proxy.toProxy, proxy.fromProxy);
    await client.initialize();
    await client.request('ready', 'ping');

    for (let index = 0; index < 50; index += 1) {
      client.send({ id: index, method: 'tools/call', params: slowFailure(`r${index}`, 300) });
    }
    client.end();

    expect(await proxy.done).toBe(0);
    const learned = journalOutcomes(stateDir).filter((entry) => entry.tool === 'read_report');
    expect(learned).toHaveLength(50);
    expect(learned.every((entry) => entry.success === false)).toBe(true);
  });
});

describe('an HTTP client that disconnects during a call', () => {
  it('has the call learned from the answer that arrives after it left', async () => {
    const { guard } = await realGuard();
    const stop = new AbortController();
    let listened: (url: URL) => void = () => undefined;
    const listening = new Promise<URL>((resolve) => {
      listened = resolve;
    });
    const done = runHttpProxy({
      target: nodeServer(PLAIN_SERVER),
      guard,
      host: '127.0.0.1',
      port: 0,
      handleSignals: false,
      signal: stop.signal,
      log: () => undefined,
      onListening: (url) => listened(url),
    });
    cleanups.push(async () => {
      stop.abort();
      await done;
    });
    const url = await listening;

    const disconnect = new AbortController();
    const leaving = fetch(url, {
      method: 'POST',
      signal: disconnect.signal,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: slowFailure('q2') }),
    });
    leaving.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 150));
    disconnect.abort();
    await new Promise((resolve) => setTimeout(resolve, 600));

    const client = new Client({ name: 'http-host', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url));
    cleanups.push(() => client.close());
    expect(verdictOf(await client.callTool(slowFailure('q2')))?.verdict).toBe('block');
  });
});
