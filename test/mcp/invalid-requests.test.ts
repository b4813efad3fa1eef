import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanupsAfterEach, startOnPipes, tempDir } from './support/harness.js';
import { PROBE_SERVER } from './support/paths.js';
import { RawClient } from './support/raw-client.js';
import { ScriptedGuard } from './support/scripted-guard.js';

const cleanups = cleanupsAfterEach();

async function rawProxy() {
  const dir = tempDir();
  cleanups.push(dir.remove);
  const target = {
    kind: 'command' as const,
    command: process.execPath,
    args: [PROBE_SERVER],
    env: { PROBE_LOG: join(dir.path, 'probe.jsonl') },
  };
  const pipes = startOnPipes({ target, guard: new ScriptedGuard() });
  const client = new RawClient(pipes.toProxy, pipes.fromProxy);
  cleanups.push(async () => {
    pipes.toProxy.end();
    await pipes.done;
  });
  await client.initialize();
  return { client, write: (line: string) => pipes.toProxy.write(`${line}\n`) };
}

describe('requests the proxy cannot read', () => {
  it('answers a request that is not valid JSON-RPC with -32600 and its id', async () => {
    const { client, write } = await rawProxy();
    write('{"jsonrpc":"1.0","id":41,"method":"tools/list"}');
    const answer = await client.answerTo(41);
    expect(answer).toMatchObject({ jsonrpc: '2.0', id: 41, error: { code: -32600 } });
  });

  it('answers a request whose method is not a string with -32600', async () => {
    const { client, write } = await rawProxy();
    write('{"jsonrpc":"2.0","id":"req-7","method":42}');
    expect(await client.answerTo('req-7')).toMatchObject({ error: { code: -32600 } });
  });

  it('answers a line that is not JSON with -32700 and a null id', async () => {
    const { client, write } = await rawProxy();
    write('{"jsonrpc":"2.0","id":5,"method":"tools/list"');
    const answer = await client.waitFor((message) => message.id === null);
    expect(answer).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });

  it('goes on serving after answering', async () => {
    const { client, write } = await rawProxy();
    write('not json at all');
    const answer = await client.request(9, 'ping');
    expect(answer).toMatchObject({ id: 9, result: {} });
  });
});
