import { request } from 'node:http';
import { join } from 'node:path';
import { type CallToolResult, Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openGuardSync } from '../../src/guard/open.js';
import { VERDICT_META_KEY } from '../../src/guard/verdict.js';
import { runHttpProxy } from '../../src/mcp/http.js';
import { startInProcess, tempDir, textOf } from './support/harness.js';
import { EVERYTHING_SERVER, PROBE_SERVER } from './support/paths.js';

const TOKEN = 'correct-horse-battery-staple';
const quiet = () => undefined;

interface RunningHttpProxy {
  readonly url: URL;
  stop(): Promise<number>;
}

async function serveHttp(
  script: string,
  options: { token?: string; stateDir: string; preset?: 'off' },
): Promise<RunningHttpProxy> {
  let resolveUrl!: (url: URL) => void;
  const listening = new Promise<URL>((resolve) => {
    resolveUrl = resolve;
  });
  const stopper = new AbortController();
  const done = runHttpProxy({
    target: { kind: 'command', command: process.execPath, args: [script] },
    guard: openGuardSync({
      stateDir: options.stateDir,
      onProblem: quiet,
      ...(options.preset && { preset: options.preset }),
    }),
    host: '127.0.0.1',
    port: 0,
    ...(options.token && { token: options.token }),
    log: quiet,
    handleSignals: false,
    signal: stopper.signal,
    onListening: resolveUrl,
  });
  const url = await Promise.race([
    listening,
    done.then((code) => Promise.reject(new Error(`exited ${code}`))),
  ]);
  return {
    url,
    stop: async () => {
      stopper.abort();
      return done;
    },
  };
}

/** A raw POST, so that the test controls every header, Host included. */
function post(url: URL, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          'Content-Length': String(Buffer.byteLength(body)),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('the proxy over Streamable HTTP, with a token', () => {
  const state = tempDir();
  let proxy: RunningHttpProxy;

  beforeAll(async () => {
    proxy = await serveHttp(EVERYTHING_SERVER, { token: TOKEN, stateDir: state.path });
  });
  afterAll(async () => {
    expect(await proxy.stop()).toBe(0);
    state.remove();
  });

  it('serves the server’s tools to a v2 client that sends the token', async () => {
    const client = new Client({ name: 'http-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(proxy.url, {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((tool) => tool.name)).toContain('echo');
      const result = await client.callTool({ name: 'echo', arguments: { message: 'over http' } });
      expect(textOf(result)).toBe('Echo: over http');
    } finally {
      await client.close();
    }
  });

  it('serves a v1 client that sends the token', async () => {
    const client = new V1Client({ name: 'http-test-v1', version: '1.0.0' });
    await client.connect(
      new V1StreamableHTTPClientTransport(proxy.url, {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
    try {
      const result = await client.callTool({ name: 'echo', arguments: { message: 'from v1' } });
      expect(textOf(result)).toBe('Echo: from v1');
    } finally {
      await client.close();
    }
  });

  it('rejects a request with a wrong token with 401', async () => {
    const response = await post(proxy.url, { Authorization: 'Bearer not-the-token' });
    expect(response.status).toBe(401);
    expect(response.body).toContain('Unauthorized');
  });

  it('rejects a request without a token with 401', async () => {
    expect((await post(proxy.url, {})).status).toBe(401);
  });

  it('rejects a foreign Host header with 403, whatever the token', async () => {
    const response = await post(proxy.url, { Host: 'attacker.example:80', Authorization: `Bearer ${TOKEN}` });
    expect(response.status).toBe(403);
  });

  it('answers a request with the token', async () => {
    const response = await post(proxy.url, { Authorization: `Bearer ${TOKEN}` });
    expect(response.status).toBe(200);
    expect(response.body).toContain('"result"');
  });
});

describe('the proxy over Streamable HTTP', () => {
  it('refuses to listen beyond loopback without a token', async () => {
    const state = tempDir();
    try {
      await expect(
        runHttpProxy({
          target: { kind: 'command', command: process.execPath, args: [EVERYTHING_SERVER] },
          guard: openGuardSync({ stateDir: state.path, onProblem: quiet }),
          host: '0.0.0.0',
          port: 0,
          log: quiet,
          handleSignals: false,
        }),
      ).rejects.toThrow(/refusing to serve on 0\.0\.0\.0 without a token/);
    } finally {
      state.remove();
    }
  });

  it('guards an HTTP upstream given by --upstream-url, and remembers across sessions', async () => {
    const state = tempDir();
    // The upstream is itself a proxy, with nothing to enforce: every verdict below is the outer proxy's.
    const upstream = await serveHttp(PROBE_SERVER, { stateDir: join(state.path, 'upstream'), preset: 'off' });
    try {
      const call = { name: 'read_note', arguments: { name: 'todo' } };
      for (const session of [1, 2]) {
        const proxy = await startInProcess({
          target: { kind: 'url', url: upstream.url },
          guard: openGuardSync({ stateDir: join(state.path, 'proxy'), onProblem: quiet }),
        });
        try {
          const result = (await proxy.client.callTool(call)) as CallToolResult;
          const verdict = result._meta?.[VERDICT_META_KEY];
          if (session === 1) expect(textOf(result)).toContain('ENOENT');
          else expect(verdict).toMatchObject({ verdict: 'block' });
        } finally {
          await proxy.close();
        }
      }
    } finally {
      await upstream.stop();
      state.remove();
    }
  });
});
