import {
  type Client,
  type ClientCapabilities,
  type CreateMessageResult,
  type ElicitResult,
  type ListRootsResult,
  type Notification,
  ProtocolError,
  ProtocolErrorCode,
  type Result,
} from '@modelcontextprotocol/client';
import type { Server } from '@modelcontextprotocol/server';
import { describeError, type Log } from './log.js';
import type { ToolCatalog } from './tool-catalog.js';

/** Requests an upstream server may send to its client, and the client capability each one needs. */
const SERVER_REQUESTS = {
  'roots/list': 'roots',
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
} as const;

export type ServerRequestMethod = keyof typeof SERVER_REQUESTS;

/** Notifications an upstream server sends on its own, passed to the client unchanged. */
const SERVER_NOTIFICATIONS = [
  'notifications/tools/list_changed',
  'notifications/resources/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/updated',
  'notifications/message',
] as const;

/** A human answers sampling and elicitation requests: give them far longer than a protocol round trip. */
const SERVER_REQUEST_TIMEOUT_MS = 10 * 60_000;

/** Where the upstream's own traffic goes: the connected client, when there is one that can take it. */
export interface DownstreamPeer {
  request(method: ServerRequestMethod, params: unknown, signal: AbortSignal): Promise<Result>;
  notify(notification: Notification): void;
}

/** The client capabilities worth declaring upstream: only those the proxy can honour by forwarding. */
export function forwardableClientCapabilities(
  downstream: ClientCapabilities | undefined,
): ClientCapabilities {
  const { roots, sampling, elicitation } = downstream ?? {};
  return { ...(roots && { roots }), ...(sampling && { sampling }), ...(elicitation && { elicitation }) };
}

/** Installs, on a fresh upstream client, the forwarding of everything the server sends unasked. */
export function bridgeUpstream(
  client: Client,
  declared: ClientCapabilities,
  peer: DownstreamPeer,
  catalog: ToolCatalog,
): void {
  // Each answer is the client's own, validated by the SDK on both legs.
  if (declared.roots) {
    client.setRequestHandler(
      'roots/list',
      (request, ctx) =>
        peer.request('roots/list', request.params, ctx.mcpReq.signal) as Promise<ListRootsResult>,
    );
  }
  if (declared.sampling) {
    client.setRequestHandler(
      'sampling/createMessage',
      (request, ctx) =>
        peer.request(
          'sampling/createMessage',
          request.params,
          ctx.mcpReq.signal,
        ) as Promise<CreateMessageResult>,
    );
  }
  if (declared.elicitation) {
    client.setRequestHandler(
      'elicitation/create',
      (request, ctx) =>
        peer.request('elicitation/create', request.params, ctx.mcpReq.signal) as Promise<ElicitResult>,
    );
  }
  for (const method of SERVER_NOTIFICATIONS) {
    client.setNotificationHandler(method, (notification: Notification) => {
      if (method === 'notifications/tools/list_changed') catalog.clear();
      peer.notify(notification);
    });
  }
}

/**
 * The stdio client, once it has finished its handshake. Requests that arrive earlier (a server
 * asking for roots as soon as it is initialized) wait for it; requests the client cannot take
 * are refused the way a client without the capability would refuse them.
 */
export class ServerPeer implements DownstreamPeer {
  private server: Server | undefined;
  private resolveReady!: (server: Server) => void;
  private readonly ready = new Promise<Server>((resolve) => {
    this.resolveReady = resolve;
  });

  constructor(private readonly log: Log) {}

  /** Called when the client has sent `notifications/initialized`. */
  attach(server: Server): void {
    this.server = server;
    this.resolveReady(server);
  }

  async request(method: ServerRequestMethod, params: unknown, signal: AbortSignal): Promise<Result> {
    const server = await this.ready;
    const capabilities = server.getClientCapabilities() ?? {};
    if (!(SERVER_REQUESTS[method] in capabilities)) {
      throw new ProtocolError(
        ProtocolErrorCode.MethodNotFound,
        `the client connected through narrowing does not support ${method}`,
      );
    }
    return server.request(
      { method, params: params as Record<string, unknown> },
      { signal, timeout: SERVER_REQUEST_TIMEOUT_MS, resetTimeoutOnProgress: true },
    );
  }

  notify(notification: Notification): void {
    // Before the handshake the client may not receive notifications; they describe a state it will list anyway.
    this.server?.notification(notification).catch((error) => {
      this.log(`could not forward ${notification.method}: ${describeError(error)}`);
    });
  }
}
