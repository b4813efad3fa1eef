import type { Readable, Writable } from 'node:stream';
import type {
  Implementation,
  InitializeRequestParams,
  JSONRPCMessage,
  Transport,
} from '@modelcontextprotocol/server';
import { isInitializeRequest } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { InFlightCalls } from '../guard/in-flight.js';
import type { CallGuard } from '../guard/session.js';
import { bridgeUpstream, forwardableClientCapabilities, ServerPeer } from './bridge.js';
import { FastToolCalls } from './fast-call.js';
import { InflightCalls } from './inflight.js';
import { Lifecycle } from './lifecycle.js';
import { JsonLineTransport } from './line-transport.js';
import { describeError, describeFrom, type Log, stderrLog } from './log.js';
import { createProxyServer } from './proxy.js';
import { ToolCatalog } from './tool-catalog.js';
import { type RestartPolicy, Upstream, type UpstreamIdentity, type UpstreamTarget } from './upstream.js';
import { canRelay } from './upstream-client.js';

export interface ProxyOptions {
  readonly target: UpstreamTarget;
  readonly guard: CallGuard;
  /** Restart a crashed upstream; without it, the proxy ends when the upstream does. */
  readonly restart?: RestartPolicy;
  /** A tool call without an answer or progress for this long is answered with an error. */
  readonly callTimeoutMs?: number;
  /** Who the proxy says it is to the upstream when the client did not say who it is. */
  readonly proxyInfo?: Implementation;
  readonly log?: Log;
  /** End cleanly on SIGINT and SIGTERM (off when embedded in a process that owns its signals). */
  readonly handleSignals?: boolean;
  /** Ends the proxy, the way a signal does, when aborted. */
  readonly signal?: AbortSignal;
}

export interface StdioProxyOptions extends ProxyOptions {
  readonly input?: Readable;
  readonly output?: Writable;
}

export const DEFAULT_CALL_TIMEOUT_MS = 10 * 60_000;
export const DEFAULT_PROXY_INFO: Implementation = { name: 'narrowing', version: '0.0.0' };

/**
 * Serves the proxy on this process's stdin and stdout until the client goes away, a signal
 * arrives, or the upstream is gone for good. Resolves with the exit code.
 *
 * The upstream is connected when the client opens the conversation rather than before: the
 * client's `initialize` says which server→client requests (roots, sampling, elicitation) it
 * can answer, and the proxy declares exactly those upstream, so the server behaves as it would
 * with the client connected directly. The client's first message waits for that connection.
 */
export async function runStdioProxy(options: StdioProxyOptions): Promise<number> {
  const log = options.log ?? stderrLog;
  const lifecycle = new Lifecycle(log, { signals: options.handleSignals ?? true, stop: options.signal });
  const catalog = new ToolCatalog();
  const calls = new InflightCalls();
  /** The one client's identical calls in flight, whichever way each travels: they run once. */
  const inFlight = new InFlightCalls();
  const peer = new ServerPeer(log);
  const logOnce = onceLogger(log);
  /** The upstream's failure to start, already said: the SDK reports it again as the client's. */
  let startFailure: unknown;
  let opening: InitializeRequestParams | undefined;
  let upstream: Upstream | undefined;
  let connection: Promise<{ link: Upstream; identity: UpstreamIdentity }> | undefined;
  let fastCalls: FastToolCalls | undefined;
  const callTimeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;

  const connect = () => {
    connection ??= (async () => {
      const declared = forwardableClientCapabilities(opening?.capabilities);
      const link = new Upstream({
        target: options.target,
        clientInfo: opening?.clientInfo ?? options.proxyInfo ?? DEFAULT_PROXY_INFO,
        clientCapabilities: declared,
        prepare: (client) => bridgeUpstream(client, declared, peer, catalog),
        ...(options.restart && { restart: options.restart }),
        log,
      });
      upstream = link;
      link.onDown = (error) => lifecycle.end(1, `${error.message}; stopping`);
      link.onRestarted = () => {
        catalog.clear();
        if (link.started.capabilities.tools?.listChanged) {
          peer.notify({ method: 'notifications/tools/list_changed' });
        }
      };
      try {
        return { link, identity: await link.start() };
      } catch (error) {
        startFailure = error;
        lifecycle.end(1, describeError(error));
        throw error;
      }
    })();
    return connection;
  };

  const wire = new WatchedTransport(
    new JsonLineTransport(
      options.input ?? process.stdin,
      options.output ?? process.stdout,
      'the client',
      true,
    ),
    (message) => {
      // The method first: the full check parses every message against the schema.
      if ('method' in message && message.method === 'initialize' && isInitializeRequest(message)) {
        opening ??= message.params;
      }
      return fastCalls?.take(message) ?? false;
    },
    () => {
      fastCalls?.clientGone();
      lifecycle.end(0);
    },
  );
  const handle = serveStdio(
    async ({ era }) => {
      const { link, identity } = await connect();
      const server = createProxyServer({
        upstream: link,
        identity,
        guard: options.guard,
        catalog,
        calls,
        callTimeoutMs,
        log,
        inFlight,
      });
      server.onerror = logOnce;
      // The 2026 era has no handshake to wait for; the 2025 era ends its handshake with `initialized`.
      if (era === 'modern') {
        peer.attach(server);
        return server;
      }
      // The SDK passes a 2025-era session's tool calls and results on unchanged, whatever its
      // version, so the fast path can serve them; a 2026-era session keeps the SDK path.
      fastCalls =
        identity.capabilities.tools && canRelay()
          ? new FastToolCalls({
              upstream: link,
              guard: options.guard,
              catalog,
              calls,
              callTimeoutMs,
              send: (message) => wire.send(message),
              log,
              inFlight,
            })
          : undefined;
      server.oninitialized = () => {
        peer.attach(server);
        fastCalls?.enable();
      };
      return server;
    },
    {
      transport: wire,
      onerror: (error) => {
        if (error !== startFailure && (error as { cause?: unknown }).cause !== startFailure) logOnce(error);
      },
    },
  );

  lifecycle.add('answering the calls still running', () => calls.settled(5_000));
  lifecycle.add('closing the client connection', () => handle.close());
  lifecycle.add('stopping the MCP server', () => upstream?.close());
  lifecycle.add('saving what was learned', () => options.guard.close());
  return lifecycle.done;
}

/**
 * A transport that lets the proxy see each message before the SDK does (to read the client's
 * capabilities from `initialize`, and to take tool calls onto the fast path) and learn when the
 * client has gone.
 */
class WatchedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  constructor(
    private readonly inner: Transport,
    /** True when it took the message: the SDK does not see it. */
    take: (message: JSONRPCMessage) => boolean,
    closed: () => void,
  ) {
    inner.onmessage = (message, extra) => {
      if (!take(message)) this.onmessage?.(message, extra);
    };
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => {
      this.onclose?.();
      closed();
    };
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(...args: Parameters<Transport['send']>): Promise<void> {
    return this.inner.send(...args);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** The SDK reports a malformed message both to the entry and to the server: say it once. */
function onceLogger(log: Log): (error: Error) => void {
  const seen = new WeakSet<Error>();
  return (error) => {
    if (seen.has(error)) return;
    seen.add(error);
    log(describeFrom('the client', error));
  };
}
