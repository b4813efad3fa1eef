import {
  type CallToolRequestParams,
  type CallToolResult,
  Client,
  type ConnectOptions,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCResponse,
  type MessageExtraInfo,
  type Progress,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  type Transport,
} from '@modelcontextprotocol/client';
import { RecencyMap } from '../core/recency-map.js';
import { checkToolResult } from './tool-result.js';

/** How a relayed call ended: the server's result, checked for what the proxy reads, or why there is none. */
export type RelayOutcome =
  | { readonly result: CallToolResult }
  | {
      /** What the SDK client's `request()` would have rejected with. */
      readonly error: Error;
      /** When the server answered with a JSON-RPC error: that error, as an SDK server passes it on. */
      readonly passOn?: JSONRPCErrorResponse['error'];
    };

export interface RelayListener {
  /** Called once: the answer, a send failure, or the connection closing. Not called after `forget`. */
  settled(outcome: RelayOutcome): void;
  /** Set when the caller wants progress: the server's updates, without its token. */
  readonly progressed?: (progress: Progress) => void;
}

export interface RelayedCall {
  /**
   * Tells the server the call is abandoned (`notifications/cancelled`). The listener still hears an
   * answer the server sends anyway: what the call did is learned even when nobody wants the answer.
   */
  cancel(reason: string): void;
  /** Stops listening: the listener hears nothing more. */
  forget(): void;
}

/** The SDK client's methods a relayed call depends on: its answers, progress and close arrive there. */
const RELAY_SEAMS = ['_onresponse', '_onnotification', '_onclose', '_wireCodec'] as const;

/**
 * Whether a client class still has every seam the relay overrides or calls. A version of the SDK
 * without one would never deliver a relayed answer, so the proxy then leaves every call to the SDK.
 */
export function canRelay(prototype: object = Client.prototype): boolean {
  return RELAY_SEAMS.every((name) => typeof (prototype as Record<string, unknown>)[name] === 'function');
}

/** Ids of the proxy's own requests: strings, where the SDK client numbers its requests, so they never meet. */
const RELAY_ID_PREFIX = 'narrowing-';

/**
 * The SDK client for the upstream server, with a second way to call a tool: `relayToolCall` sends the
 * request as it is, and the answer comes back through the client's own response, progress and close
 * seams (which the SDK documents for subclasses). The answer is checked by hand (`checkToolResult`)
 * for what the proxy reads, rather than through the SDK's schemas, and otherwise passed on as the
 * server sent it. It spares the client's per-request machinery for the one request that is hot.
 */
export class UpstreamClient extends Client {
  /** One entry a call, removed on its answer: see `FastToolCalls.open` for why not a Map. */
  private readonly relays = new RecencyMap<string, RelayListener>();
  private nextRelay = 0;

  relayToolCall(params: CallToolRequestParams, listener: RelayListener): RelayedCall {
    const id = `${RELAY_ID_PREFIX}${this.nextRelay++}`;
    const transport = this.transport;
    if (!transport) {
      queueMicrotask(() => listener.settled({ error: new Error('Not connected') }));
      return { cancel: () => undefined, forget: () => undefined };
    }
    this.relays.set(id, listener);
    // As the SDK client does: the server reports progress under the request's id.
    const sent = listener.progressed ? { ...params, _meta: { ...params._meta, progressToken: id } } : params;
    transport.send({ jsonrpc: '2.0', id, method: 'tools/call', params: sent }).catch((error: unknown) => {
      if (this.relays.delete(id)) listener.settled({ error: asError(error) });
    });
    return {
      forget: () => {
        this.relays.delete(id);
      },
      cancel: (reason) => {
        if (!this.relays.has(id)) return;
        transport
          .send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } })
          .catch((error: unknown) => this.onerror?.(new Error(`Failed to send cancellation: ${error}`)));
      },
    };
  }

  /**
   * Connects as the SDK client does, with one difference: an answer to a relayed call goes straight
   * to the relay, without the SDK's schema walk of every message it receives (the line transport
   * has already read it as a JSON-RPC message). Everything else reaches the SDK as before.
   */
  override connect(transport: Transport, options?: ConnectOptions): Promise<void> {
    this.tapRelayAnswers(transport);
    return super.connect(transport, options);
  }

  /** Puts the relay in front of whatever handler the SDK installs on the transport. */
  private tapRelayAnswers(transport: Transport): void {
    let handler: Transport['onmessage'];
    const tapped: NonNullable<Transport['onmessage']> = (message, extra) => {
      if (isRelayAnswer(message) && this.relays.has(message.id)) this._onresponse(message);
      else handler?.(message, extra);
    };
    Object.defineProperty(transport, 'onmessage', {
      configurable: true,
      enumerable: true,
      get: () => (handler ? tapped : undefined),
      set: (next: Transport['onmessage']) => {
        handler = next;
      },
    });
  }

  protected override _onresponse(response: JSONRPCResponse | JSONRPCErrorResponse): void {
    const listener = typeof response.id === 'string' ? this.relays.get(response.id) : undefined;
    if (!listener) {
      super._onresponse(response);
      return;
    }
    this.relays.delete(response.id as string);
    listener.settled(this.outcomeOf(response));
  }

  protected override _onnotification(notification: JSONRPCNotification, extra?: MessageExtraInfo): void {
    const token =
      notification.method === 'notifications/progress' ? notification.params?.progressToken : undefined;
    const progressed = typeof token === 'string' ? this.relays.get(token)?.progressed : undefined;
    if (!progressed) {
      super._onnotification(notification, extra);
      return;
    }
    const checked = this._wireCodec().validateNotification('notifications/progress', notification);
    if (!checked.ok) {
      const why = checked.reason === 'invalid' ? checked.message : 'not in this protocol era';
      this.onerror?.(new Error(`Uncaught error in notification handler: Error: ${why}`));
      return;
    }
    const { progressToken: _token, ...progress } = checked.value.params;
    progressed(progress);
  }

  protected override _onclose(): void {
    const listeners = [...this.relays.values()];
    this.relays.clear();
    const error = new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');
    // Settling only schedules the callers' continuations: they run after the SDK's own teardown below.
    for (const listener of listeners) listener.settled({ error });
    super._onclose();
  }

  /** What the SDK client's `request()` resolves or rejects with for this answer. */
  private outcomeOf(response: JSONRPCResponse | JSONRPCErrorResponse): RelayOutcome {
    if ('error' in response) {
      const { code, message, data } = response.error;
      const error = ProtocolError.fromError(code, message, data);
      return { error, passOn: this.wireError(error) };
    }
    // By hand, not through the SDK's schemas: walking them cost more than the rest of the relay.
    const checked = checkToolResult(response.result);
    if (checked.ok) return { result: checked.result };
    return {
      error: new SdkError(
        SdkErrorCode.InvalidResult,
        `Invalid result for tools/call: ${this.whyInvalid(response.result, checked.message)}`,
      ),
    };
  }

  /**
   * Why a result was refused, in the SDK client's words when its schema refuses it too, so that a
   * client hears what it would hear through the SDK. Only a refused result ever meets the schema.
   */
  private whyInvalid(raw: unknown, own: string): string {
    const codec = this._wireCodec();
    const decoded = codec.decodeResult('tools/call', raw);
    if (decoded.kind !== 'complete') return own;
    const checked = codec.validateResult('tools/call', decoded.result);
    return !checked.ok && checked.reason === 'invalid' ? checked.message : own;
  }

  /**
   * The JSON-RPC error an SDK server of this connection's era answers with when a handler throws
   * `error`: the codec maps a few codes on their way to the wire.
   */
  private wireError(error: ProtocolError): JSONRPCErrorResponse['error'] {
    return {
      code: this._wireCodec().encodeErrorCode(error.code),
      message: error.message,
      ...(error.data !== undefined && { data: error.data }),
    };
  }
}

/** An answer under one of the proxy's own ids. */
function isRelayAnswer(
  message: JSONRPCMessage,
): message is (JSONRPCResponse | JSONRPCErrorResponse) & { readonly id: string } {
  return typeof (message as { id?: unknown }).id === 'string' && ('result' in message || 'error' in message);
}

function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
