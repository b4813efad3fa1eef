import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isNarrowingError } from '../../src/core/errors.js';
import { parseHeader, parseHeaders, redactedUrl } from '../../src/mcp/remote.js';
import {
  cleanupsAfterEach,
  type SpawnedProxy,
  spawnProxy,
  startCli,
  tempDir,
  textOf,
} from './support/harness.js';
import { startRemoteServer } from './support/remote-server.js';

const cleanups = cleanupsAfterEach();
const TOKEN = 'tok-7f3a91c2e5';

async function remote(kind: 'streamable-http' | 'sse') {
  const server = await startRemoteServer(kind, TOKEN);
  cleanups.push(() => server.close());
  const dir = tempDir();
  cleanups.push(dir.remove);
  return { server, stateDir: join(dir.path, 'state') };
}

async function proxyTo(url: URL, stateDir: string, headers: string[]): Promise<SpawnedProxy> {
  const proxy = await spawnProxy([
    '--state-dir',
    stateDir,
    '--upstream-url',
    url.href,
    ...headers.flatMap((header) => ['--header', header]),
  ]);
  cleanups.push(() => {
    if (proxy.child.exitCode === null) proxy.child.kill('SIGKILL');
  });
  return proxy;
}

/** Every file the proxy wrote under the state directory, as text. */
function stateText(stateDir: string): string {
  return readdirSync(stateDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}

describe('a remote MCP server', () => {
  for (const kind of ['streamable-http', 'sse'] as const) {
    it(`is reached over ${kind} with the --header it requires, which never reaches the state or the log`, async () => {
      const { server, stateDir } = await remote(kind);
      const proxy = await proxyTo(server.url, stateDir, [`Authorization: Bearer ${TOKEN}`]);

      const result = await proxy.client.callTool({ name: 'lookup_order', arguments: { id: 'A-1042' } });
      expect(textOf(result)).toBe('Order A-1042: shipped.');
      expect(await proxy.close()).toBe(0);

      const authorized = server.authorizations.filter((value) => value === `Bearer ${TOKEN}`);
      expect(authorized.length).toBeGreaterThan(0);
      expect(stateText(stateDir)).toContain('lookup_order');
      expect(stateText(stateDir)).not.toContain(TOKEN);
      expect(proxy.stderr()).not.toContain(TOKEN);
    });
  }

  it('says on one line that credentials are missing, without the page the server sent', async () => {
    const { server, stateDir } = await remote('sse');
    const cli = startCli(['--state-dir', stateDir, '--upstream-url', server.url.href]);
    cleanups.push(() => {
      if (cli.process.exitCode === null) cli.process.kill('SIGKILL');
    });
    cli.process.stdin?.write(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'host', version: '1' },
        },
      })}\n`,
    );

    expect(await cli.exit).toBe(1);
    const lines = cli.stderr().trim().split('\n');
    expect(lines, cli.stderr()).toHaveLength(1);
    expect(lines[0]).toContain('HTTP 401');
    expect(lines[0]).toContain('--header "Authorization: Bearer <token>"');
    expect(cli.stderr()).not.toMatch(/<html|<!doctype/i);
  });

  it('refuses a header value with a line break before connecting, without repeating the value', async () => {
    const cli = startCli([
      '--upstream-url',
      'http://127.0.0.1:9/mcp',
      '--header',
      'X-Api-Key: abc\r\nX-Admin: 1',
    ]);
    expect(await cli.exit).toBe(2);
    expect(cli.stderr()).toContain('line break');
    expect(cli.stderr()).not.toContain('abc');
  });
});

describe('parsing --header', () => {
  it('keeps the name and the trimmed value', () => {
    expect(parseHeader('Authorization:  Bearer abc.def ')).toEqual(['Authorization', 'Bearer abc.def']);
  });

  it('refuses any value with CR, LF or NUL, and never puts the value in the message', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40 }),
        fc.constantFrom('\r', '\n', '\r\n', '\0'),
        fc.string({ maxLength: 40 }),
        (before, breaker, after) => {
          const secret = `s3cret${before}${breaker}${after}`;
          try {
            parseHeader(`X-Api-Key: ${secret}`);
            return false;
          } catch (error) {
            return isNarrowingError(error) && !(error as Error).message.includes('s3cret');
          }
        },
      ),
    );
  });

  it('refuses a name that is not an HTTP token, one the transport sets, and a name given twice', () => {
    expect(() => parseHeader('X Api: 1')).toThrow(/not an HTTP header name/);
    expect(() => parseHeader('Mcp-Session-Id: 1')).toThrow(/set by the MCP transport/);
    expect(() => parseHeaders(['X-A: 1', 'x-a: 2'])).toThrow(/given twice/);
    expect(() => parseHeader('Bearer abc')).toThrow(/Name: value/);
  });

  it('bounds the size of a value and the number of headers', () => {
    expect(() => parseHeader(`X-Big: ${'a'.repeat(8 * 1024 + 1)}`)).toThrow(/over 8192 bytes/);
    expect(() => parseHeaders(Array.from({ length: 33 }, (_, index) => `X-H${index}: 1`))).toThrow(
      /at most 32/,
    );
  });

  it('accepts what an HTTP client would send as it is', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,30}$/),
        fc.stringMatching(/^[\x21-\x7e]([\x20-\x7e]{0,60}[\x21-\x7e])?$/),
        (name, value) => {
          fc.pre(
            !['accept', 'content-type', 'content-length', 'host', 'connection'].includes(name.toLowerCase()),
          );
          fc.pre(!name.toLowerCase().startsWith('mcp-') && name.toLowerCase() !== 'last-event-id');
          fc.pre(name.toLowerCase() !== 'transfer-encoding');
          expect(parseHeader(`${name}: ${value}`)).toEqual([name, value]);
        },
      ),
    );
  });
});

describe('showing a remote URL', () => {
  it('hides its password and query values', () => {
    expect(redactedUrl(new URL('https://bot:hunter2@mcp.example.com/sse?api_key=abc&team=x'))).toBe(
      'https://bot:redacted@mcp.example.com/sse?api_key=redacted&team=redacted',
    );
  });
});
