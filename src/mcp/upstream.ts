import type {
  Client,
  ClientCapabilities,
  Implementation,
  ServerCapabilities,
  Transport,
} from '@modelcontextprotocol/client';
import { ChildProcessTransport } from './child-transport.js';
import { CrashLedger } from './crash-ledger.js';
import { describeError, describeFrom, type Log } from './log.js';
import {
  describeRemoteFailure,
  type RemoteServer,
  type RemoteTransportKind,
  redactedUrl,
  remoteTransport,
  suggestsSse,
} from './remote.js';
import { UpstreamClient } from './upstream-client.js';

/** The MCP server behind the proxy: a command to spawn, or an HTTP endpoint (Streamable HTTP or SSE). */
export type UpstreamTarget =
  | {
      readonly kind: 'command';
      readonly command: string;
      readonly args: readonly string[];
      readonly env?: Readonly<Record<string, string>>;
      readonly cwd?: string;
    }
  | ({ readonly kind: 'url' } & RemoteServer);

/** The target as messages may show it: a URL without its password or query values, never its headers. */
export function describeTarget(target: UpstreamTarget): string {
  return target.kind === 'url' ? redactedUrl(target.url) : [target.command, ...target.args].join(' ');
}

/** How a crashed upstream is brought back: exponential back-off, a bounded number of attempts. */
export interface RestartPolicy {
  readonly maxAttempts: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  /** An upstream that stayed up this long gets its full number of attempts again. */
  readonly stableAfterMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicy = {
  maxAttempts: 5,
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  stableAfterMs: 60_000,
};

export interface UpstreamOptions {
  readonly target: UpstreamTarget;
  readonly clientInfo: Implementation;
  readonly clientCapabilities: ClientCapabilities;
  /** Installs handlers on every new client before it connects (server→client requests, notifications). */
  readonly prepare: (client: Client) => void;
  readonly restart?: RestartPolicy;
  readonly log: Log;
}

/** What the first connection told us; the proxy advertises it downstream for its whole life. */
export interface UpstreamIdentity {
  readonly serverInfo: Implementation;
  readonly capabilities: ServerCapabilities;
  readonly instructions?: string;
}

/** Raised to every caller once the upstream is gone for good. */
export class UpstreamDownError extends Error {
  override readonly name = 'UpstreamDownError';
}

type State =
  | { readonly kind: 'idle' }
  | { readonly kind: 'up'; readonly client: UpstreamClient; readonly since: number }
  | { readonly kind: 'restarting'; readonly ready: Promise<UpstreamClient> }
  | { readonly kind: 'down'; readonly error: UpstreamDownError }
  | { readonly kind: 'closed' };

/**
 * One supervised connection to the upstream server. It hands out the live client, notices when
 * the server exits (or hangs), and either restarts it with back-off or declares it down.
 */
export class Upstream {
  private state: State = { kind: 'idle' };
  private attempts = 0;
  private identity: UpstreamIdentity | undefined;
  /** The process behind the current connection, when the upstream is a command: it knows how it ended. */
  private child: ChildProcessTransport | undefined;
  /** The HTTP transport the remote server took, once one has: restarts use it again. */
  private remoteKind: RemoteTransportKind | undefined;
  /** Which calls were running each time the server went down on its own. */
  readonly crashes = new CrashLedger();
  /** Called once when the upstream is down for good: no restart policy, or attempts exhausted. */
  onDown: ((error: UpstreamDownError) => void) | undefined;
  /** Called after a successful restart, with the new client. */
  onRestarted: ((client: UpstreamClient) => void) | undefined;

  constructor(private readonly options: UpstreamOptions) {}

  /** Connects for the first time. A failure here is final: the message says what to fix. */
  async start(): Promise<UpstreamIdentity> {
    let client: UpstreamClient;
    try {
      client = await this.open();
    } catch (error) {
      throw new UpstreamDownError(
        `could not start the MCP server \`${describeTarget(this.options.target)}\`: ${this.describeFailure(error)}`,
      );
    }
    this.identity = {
      serverInfo: client.getServerVersion() ?? { name: 'upstream', version: '0.0.0' },
      capabilities: client.getServerCapabilities() ?? {},
      ...(client.getInstructions() !== undefined && { instructions: client.getInstructions() }),
    };
    this.state = { kind: 'up', client, since: Date.now() };
    return this.identity;
  }

  get started(): UpstreamIdentity {
    if (!this.identity) throw new Error('Upstream.start() must be awaited before the proxy serves requests.');
    return this.identity;
  }

  /** The live client when the upstream is up: what `client()` resolves with, without waiting a turn. */
  get connected(): UpstreamClient | undefined {
    const state = this.state;
    return state.kind === 'up' ? state.client : undefined;
  }

  /** The live client; waits while a restart is under way; throws once the upstream is down. */
  async client(): Promise<UpstreamClient> {
    const state = this.state;
    if (state.kind === 'up') return state.client;
    if (state.kind === 'restarting') return state.ready;
    if (state.kind === 'down') throw state.error;
    throw new UpstreamDownError('the MCP server is not connected');
  }

  /**
   * A call timed out: a server that no longer answers a ping is hung, and is treated like one
   * that crashed (killed, then restarted or declared down). A slow tool is left alone.
   */
  async suspectHang(timeoutMs: number): Promise<void> {
    const state = this.state;
    if (state.kind !== 'up') return;
    try {
      await state.client.ping({ timeout: timeoutMs });
    } catch {
      if (this.state !== state) return;
      this.options.log(`the MCP server did not answer a ping within ${timeoutMs} ms: treating it as hung`);
      await state.client.close().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    const state = this.state;
    this.state = { kind: 'closed' };
    if (state.kind === 'up') await state.client.close().catch(() => undefined);
  }

  /**
   * A new connection. A remote server is tried with Streamable HTTP first; a 4xx answer to that
   * handshake's POST means a legacy HTTP+SSE server, which is then tried with the SSE transport
   * (as the SDK documents for backwards compatibility). What worked is kept for restarts.
   */
  private async open(): Promise<UpstreamClient> {
    const { target } = this.options;
    if (target.kind !== 'url') return this.openWith(this.childTransport(target));
    if (this.remoteKind) return this.openWith(remoteTransport(target, this.remoteKind));
    try {
      const client = await this.openWith(remoteTransport(target, 'streamable-http'));
      this.remoteKind = 'streamable-http';
      return client;
    } catch (error) {
      if (!suggestsSse(error)) throw error;
      let client: UpstreamClient;
      try {
        client = await this.openWith(remoteTransport(target, 'sse'));
      } catch {
        // Neither transport: what Streamable HTTP was told says more than SSE's failure.
        throw error;
      }
      this.remoteKind = 'sse';
      this.options.log(`${describeTarget(target)} speaks the legacy HTTP+SSE transport: connected with it`);
      return client;
    }
  }

  private async openWith(transport: Transport): Promise<UpstreamClient> {
    const { clientInfo, clientCapabilities, log, prepare } = this.options;
    const client = new UpstreamClient(clientInfo, { capabilities: clientCapabilities });
    prepare(client);
    // A failed handshake is reported once, by its rejection below: not also by the transport.
    let connected = false;
    client.onerror = (error) => {
      if (connected)
        log(
          describeFrom(
            'the MCP server',
            this.options.target.kind === 'url' ? new Error(describeRemoteFailure(error)) : error,
          ),
        );
    };
    let exited = false;
    client.onclose = () => {
      exited = true;
      this.lost(client);
    };
    try {
      await client.connect(transport);
      connected = true;
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
    if (exited) throw new Error('it exited right after the handshake');
    return client;
  }

  private childTransport(target: Extract<UpstreamTarget, { kind: 'command' }>): Transport {
    const child = new ChildProcessTransport({
      command: target.command,
      args: target.args,
      env: target.env ?? inheritedEnvironment(),
      ...(target.cwd !== undefined && { cwd: target.cwd }),
    });
    this.child = child;
    return child;
  }

  private lost(client: UpstreamClient): void {
    const state = this.state;
    if (state.kind !== 'up' || state.client !== client) return;
    const how = this.child?.exit ?? 'exited';
    this.crashes.crashed(how);
    const what = `the MCP server \`${describeTarget(this.options.target)}\` ${how}`;
    const policy = this.options.restart;
    if (policy && Date.now() - state.since >= policy.stableAfterMs) this.attempts = 0;
    if (!policy || this.attempts >= policy.maxAttempts) {
      const tried = policy ? ` (after ${policy.maxAttempts} restart attempts)` : '';
      this.goDown(new UpstreamDownError(`${what}${tried}`));
      return;
    }
    this.options.log(`${what}; restarting it`);
    const ready = this.restartLoop(policy);
    ready.catch(() => undefined);
    this.state = { kind: 'restarting', ready };
  }

  private async restartLoop(policy: RestartPolicy): Promise<UpstreamClient> {
    let lastError: unknown;
    while (this.attempts < policy.maxAttempts) {
      const delay = Math.min(policy.initialDelayMs * 2 ** this.attempts, policy.maxDelayMs);
      this.attempts += 1;
      await new Promise((resolve) => setTimeout(resolve, delay));
      if (this.isClosed()) break;
      try {
        const client = await this.open();
        if (this.isClosed()) {
          await client.close().catch(() => undefined);
          break;
        }
        this.state = { kind: 'up', client, since: Date.now() };
        this.options.log(`the MCP server is back (restart ${this.attempts} of ${policy.maxAttempts})`);
        this.onRestarted?.(client);
        return client;
      } catch (error) {
        lastError = error;
        this.options.log(
          `restart ${this.attempts} of ${policy.maxAttempts} failed: ${this.describeFailure(error)}`,
        );
      }
    }
    const error = new UpstreamDownError(
      `the MCP server \`${describeTarget(this.options.target)}\` could not be restarted` +
        (lastError === undefined ? '' : `: ${this.describeFailure(lastError)}`),
    );
    if (!this.isClosed()) this.goDown(error);
    throw error;
  }

  /** One line on why a connection failed: for a remote server, what to do and never the page it sent. */
  private describeFailure(error: unknown): string {
    return this.options.target.kind === 'url' ? describeRemoteFailure(error) : describeError(error);
  }

  /** A method, not a field read, so that checks after an `await` are not narrowed away. */
  private isClosed(): boolean {
    return this.state.kind === 'closed';
  }

  private goDown(error: UpstreamDownError): void {
    this.state = { kind: 'down', error };
    this.onDown?.(error);
  }
}

/** The proxy's whole environment: the client configured it for the server, not for the proxy. */
function inheritedEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return env;
}
