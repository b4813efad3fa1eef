import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  hostHeaderValidation,
  localhostHostValidation,
  localhostOriginValidation,
  toNodeHandler,
} from '@modelcontextprotocol/node';
import {
  createMcpHandler,
  type McpHttpHandler,
  type Notification,
  ProtocolError,
  ProtocolErrorCode,
} from '@modelcontextprotocol/server';
import { isLoopbackHost, isWildcardHost } from './address.js';
import { bridgeUpstream, type DownstreamPeer } from './bridge.js';
import { InflightCalls } from './inflight.js';
import { Lifecycle } from './lifecycle.js';
import { describeError, stderrLog } from './log.js';
import { createProxyServer } from './proxy.js';
import { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_PROXY_INFO, type ProxyOptions } from './stdio.js';
import { ToolCatalog } from './tool-catalog.js';
import { Upstream } from './upstream.js';

export interface HttpProxyOptions extends ProxyOptions {
  readonly host: string;
  /** 0 picks a free port; `onListening` tells which. */
  readonly port: number;
  /** Required from every request as `Authorization: Bearer <token>` when set. */
  readonly token?: string;
  readonly onListening?: (url: URL) => void;
}

const MCP_PATH = '/mcp';

/** Refuses a configuration that would hand the upstream's tools to anyone on the network. */
export function checkHttpExposure(host: string, token: string | undefined): void {
  if (isLoopbackHost(host) || token) return;
  throw new Error(
    `refusing to serve on ${host} without a token: anyone who can reach that address could call ` +
      "the MCP server's tools. Set --token (or NARROWING_TOKEN), or serve on 127.0.0.1.",
  );
}

/**
 * Serves the proxy over Streamable HTTP until a signal arrives or the upstream is gone.
 *
 * Design: one upstream connection and one guard serve every HTTP client, so what one session
 * teaches protects the others. Requests are answered by the SDK's `createMcpHandler`, which
 * builds a server per request (2025-era clients are served statelessly; 2026-era clients get
 * change notifications through `subscriptions/listen`). Building a server is cheap next to the
 * upstream round trip, and stateless serving means no session table to expire or leak. What it
 * costs: a 2025-era HTTP client receives no unsolicited notifications, and the upstream cannot
 * send requests to HTTP clients (it is connected without the roots, sampling or elicitation
 * capabilities, so it does not try).
 */
export async function runHttpProxy(options: HttpProxyOptions): Promise<number> {
  checkHttpExposure(options.host, options.token);
  const log = options.log ?? stderrLog;
  const catalog = new ToolCatalog();
  const calls = new InflightCalls();
  let handler: McpHttpHandler | undefined;
  const peer = new HttpPeer(() => handler);
  const upstream = new Upstream({
    target: options.target,
    clientInfo: options.proxyInfo ?? DEFAULT_PROXY_INFO,
    clientCapabilities: {},
    prepare: (client) => bridgeUpstream(client, {}, peer, catalog),
    ...(options.restart && { restart: options.restart }),
    log,
  });
  let identity: Awaited<ReturnType<Upstream['start']>>;
  try {
    identity = await upstream.start();
  } catch (error) {
    log(describeError(error));
    await options.guard.close();
    return 1;
  }
  const lifecycle = new Lifecycle(log, { signals: options.handleSignals ?? true, stop: options.signal });
  upstream.onDown = (error) => lifecycle.end(1, `${error.message}; stopping`);
  upstream.onRestarted = () => {
    catalog.clear();
    peer.notify({ method: 'notifications/tools/list_changed' });
  };

  const mcp = createMcpHandler(
    () =>
      createProxyServer({
        upstream,
        identity,
        guard: options.guard,
        catalog,
        calls,
        callTimeoutMs: options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
        log,
      }),
    { legacy: 'stateless', onerror: (error) => log(`from a client: ${describeError(error)}`) },
  );
  handler = mcp;
  const serve = toNodeHandler(mcp, { onerror: (error) => log(`serving a request: ${describeError(error)}`) });
  const admit = admission(options);
  const http = createServer((req, res) => {
    if (!admit(req, res)) return;
    serve(req, res).catch((error) => {
      log(`serving a request: ${describeError(error)}`);
      if (!res.headersSent) reply(res, 500, 'Internal error');
    });
  });

  lifecycle.add('answering the calls still running', () => calls.settled(5_000));
  lifecycle.add('closing the HTTP server', async () => {
    await mcp.close();
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  });
  lifecycle.add('stopping the MCP server', () => upstream.close());
  lifecycle.add('saving what was learned', () => options.guard.close());

  try {
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(options.port, options.host.replace(/^\[|\]$/g, ''), () => {
        http.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    lifecycle.end(1, `could not listen on ${options.host}:${options.port}: ${describeError(error)}`);
    return lifecycle.done;
  }
  const { port } = http.address() as AddressInfo;
  const host =
    options.host.includes(':') && !options.host.startsWith('[') ? `[${options.host}]` : options.host;
  const url = new URL(`http://${host}:${port}${MCP_PATH}`);
  log(`serving the MCP server "${identity.serverInfo.name}" on ${url.href}`);
  options.onListening?.(url);
  return lifecycle.done;
}

/**
 * Who may talk to the proxy: the Host header must name the proxy (a foreign one is a DNS
 * rebinding attempt: 403), a browser page must come from the same machine, and with a token,
 * the request must carry it (401). Answers the refused requests itself.
 */
function admission(options: HttpProxyOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  const loopback = isLoopbackHost(options.host);
  const checkHost = loopback
    ? localhostHostValidation()
    : isWildcardHost(options.host)
      ? undefined // Any of the machine's names may be used; the required token is the protection.
      : hostHeaderValidation([options.host]);
  const checkOrigin = loopback ? localhostOriginValidation() : undefined;
  const expected = options.token === undefined ? undefined : digest(options.token);
  return (req, res) => {
    if (checkHost && !checkHost(req, res)) return false;
    if (checkOrigin && !checkOrigin(req, res)) return false;
    const path = new URL(req.url ?? '/', 'http://proxy').pathname;
    if (path !== MCP_PATH) {
      reply(res, 404, `Not found: the MCP endpoint is ${MCP_PATH}`);
      return false;
    }
    if (expected && !bearerMatches(req.headers.authorization, expected)) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="narrowing"');
      reply(res, 401, 'Unauthorized: send the proxy token as "Authorization: Bearer <token>"');
      return false;
    }
    return true;
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Compares digests in constant time, so that neither content nor length leaks through timing. */
function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1] !== undefined && timingSafeEqual(digest(match[1]), expected);
}

function reply(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/** Change notifications reach 2026-era clients through their subscriptions; nothing else has a channel. */
class HttpPeer implements DownstreamPeer {
  constructor(private readonly handler: () => McpHttpHandler | undefined) {}

  async request(method: string): Promise<never> {
    throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `${method} is not forwarded to HTTP clients`);
  }

  notify(notification: Notification): void {
    const notify = this.handler()?.notify;
    if (!notify) return;
    if (notification.method === 'notifications/tools/list_changed') notify.toolsChanged();
    else if (notification.method === 'notifications/prompts/list_changed') notify.promptsChanged();
    else if (notification.method === 'notifications/resources/list_changed') notify.resourcesChanged();
    else if (notification.method === 'notifications/resources/updated') {
      const uri = notification.params?.uri;
      if (typeof uri === 'string') notify.resourceUpdated(uri);
    }
  }
}
