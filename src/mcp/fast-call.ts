import {
  type CallToolRequestParams,
  type CallToolResult,
  type JSONRPCMessage,
  type Progress,
  type ProgressToken,
  ProtocolError,
  ProtocolErrorCode,
  type RequestId,
} from '@modelcontextprotocol/client';
import { RecencyMap } from '../core/recency-map.js';
import type { Proposal } from '../core/types.js';
import type { TwinAnswer } from '../guard/in-flight.js';
import type { TracedEnd } from '../telemetry/tool-spans.js';
import { type DuplicateClaim, ranAnswer, refusedAnswer, rpcErrorAnswer } from './coalesce.js';
import type { InflightCalls } from './inflight.js';
import { describeError } from './log.js';
import { relayCall } from './relay-call.js';
import {
  type DispatchedCall,
  faultResult,
  ToolCallSteps,
  type ToolCallStepsOptions,
} from './tool-call-steps.js';
import { inToolSpan } from './tool-span.js';
import type { RelayOutcome, UpstreamClient } from './upstream-client.js';
import type { UpstreamLink } from './upstream-link.js';
import { refusedResult } from './verdict-result.js';

/** The upstream, with the client that can relay calls. */
export interface RelayingUpstream extends UpstreamLink {
  client(): Promise<UpstreamClient>;
  /** The client when the upstream is up, so that a call need not wait a turn for `client()`. */
  readonly connected?: UpstreamClient | undefined;
}

export interface FastToolCallsOptions extends ToolCallStepsOptions {
  readonly upstream: RelayingUpstream;
  readonly calls: InflightCalls;
  /**
   * Writes a message to the client: at once, or, as the line transport does, with the other messages
   * of the same turn on the next tick of the event loop (`process.nextTick`).
   */
  readonly send: (message: JSONRPCMessage) => Promise<void>;
}

/** A call taken from the client and not answered yet. */
interface OpenCall {
  readonly id: RequestId;
  readonly params: CallToolRequestParams;
  /**
   * The client cancelled it: it gets no answer, and is not sent to the server if it has not been
   * yet. Once it has, what the server answers anyway is still learned.
   */
  cancelled: boolean;
  /** Tells the server the call is abandoned, once the exchange is under way. */
  abandon?: (reason: string) => void;
  /** Its answer has been handed to the client already. */
  answered?: boolean;
}

/** What `AbortSignal.reason` says, and so what the SDK tells the server, when the client gives no reason. */
const NO_REASON = 'AbortError: This operation was aborted';

/**
 * The fast path for `tools/call`. Through the SDK, a call is parsed, validated and wrapped in
 * promises, contexts and abort signals twice (server side and client side), which costs the proxy
 * several times the CPU that the server spends on a cheap tool. Here a call is taken as it arrives
 * from the client, put to the guard with the same steps, relayed to the server under an id of the
 * proxy's own, and answered with the server's checked result: the same answer, cancellation,
 * progress, timeout and crash handling as the SDK path, for a fraction of the work.
 *
 * It takes only what the SDK would pass on unchanged: a 2025-era session after its handshake (the
 * caller enables it then), and params with nothing but `name`, object `arguments` and a `_meta`
 * without reserved keys. Anything else (a malformed call, a task, a 2026-era session) is left to the
 * SDK, which answers it as it always has.
 */
export class FastToolCalls {
  private enabled = false;
  /** The client has gone: calls run to their end and are learned, and nothing is sent. */
  private clientLeft = false;
  /** Calls come and go all the time: a RecencyMap keeps its table young, where a Map's would age. */
  private readonly open = new RecencyMap<RequestId, OpenCall>();
  private readonly steps: ToolCallSteps;

  constructor(private readonly options: FastToolCallsOptions) {
    this.steps = new ToolCallSteps(options);
  }

  /** From now on, take the calls it can. */
  enable(): void {
    this.enabled = true;
  }

  /**
   * The client has gone. The calls it sent still run to their end (the proxy waits for them a
   * bounded time on its way out) and what they did is learned; nobody is left to answer.
   */
  clientGone(): void {
    this.enabled = false;
    this.clientLeft = true;
  }

  /** Offered each message from the client before the SDK sees it; true when it took the message. */
  take(message: JSONRPCMessage): boolean {
    if (!this.enabled || !('method' in message)) return false;
    if ('id' in message) {
      if (message.method !== 'tools/call' || this.open.has(message.id)) return false;
      const params = plainToolCallParams(message.params);
      if (!params) return false;
      this.start({ id: message.id, params, cancelled: false });
      return true;
    }
    return message.method === 'notifications/cancelled' && this.cancel(message.params);
  }

  private start(call: OpenCall): void {
    this.open.set(call.id, call);
    void this.options.calls.track(this.run(call));
  }

  private async run(call: OpenCall): Promise<void> {
    let answer: JSONRPCMessage | undefined;
    try {
      const { params } = call;
      // Without telemetry there is no span to open: the call is answered without the wrapper's closures.
      answer =
        this.options.guard.toolCalls === undefined
          ? await this.answer(call)
          : await inToolSpan(
              this.options.guard,
              { name: params.name, id: call.id, meta: params._meta },
              () => this.answer(call),
              answerErrorType,
            );
    } catch (error) {
      // What the SDK answers when a request handler throws.
      answer = {
        jsonrpc: '2.0',
        id: call.id,
        error: { code: ProtocolErrorCode.InternalError, message: describeError(error) },
      };
    }
    // Answered already (`checkAndRelay` hands a server's result over before learning from it), the
    // call left `open` then; a call taken since under the same id is another's to close.
    if (call.answered) return;
    if (answer) await this.reply(call, answer);
    else this.open.delete(call.id);
  }

  /**
   * Hands the call's answer to the client, unless the call was cancelled or the client has gone;
   * the call leaves `open` here, once.
   */
  private async reply(call: OpenCall, answer: JSONRPCMessage): Promise<void> {
    call.answered = true;
    this.open.delete(call.id);
    if (call.cancelled || this.clientLeft) return;
    try {
      await this.options.send(answer);
    } catch (error) {
      this.options.log(`the client: Failed to send response: ${describeError(error)}`);
    }
  }

  /** The message for the client; undefined when the call was cancelled. */
  private async answer(call: OpenCall): Promise<JSONRPCMessage | undefined> {
    const { steps } = this;
    const { id, params } = call;
    const proposed = steps.propose(params.name, params.arguments, id);
    const proposal = proposed instanceof Promise ? await proposed : proposed;
    const claim = steps.identical?.claim(proposal);
    if (claim?.role === 'duplicate') {
      const answered = await this.fromTwin(call, proposal, claim);
      if (answered) return answered.message;
    }
    if (claim?.role !== 'first') return (await this.checkAndRelay(call, proposal)).message;
    let twin: TwinAnswer | undefined;
    try {
      const ended = await this.checkAndRelay(call, proposal);
      twin = ended.twin;
      return ended.message;
    } finally {
      claim.settle(twin);
    }
  }

  /**
   * A duplicate of a call in flight, held until that call is answered (or twice the call timeout passes,
   * or the client cancels it): its answer from its twin, or undefined when it goes to the server.
   */
  private async fromTwin(
    call: OpenCall,
    proposal: Proposal,
    claim: DuplicateClaim,
  ): Promise<{ readonly message: JSONRPCMessage | undefined } | undefined> {
    const identical = this.steps.identical;
    if (!identical) return undefined;
    const cancelled = new AbortController();
    call.abandon = () => cancelled.abort();
    const twin = await identical.twinAnswer(claim, cancelled.signal);
    call.abandon = undefined;
    if (call.cancelled) return { message: undefined };
    const answer = identical.answer(proposal, twin);
    if (!answer) return undefined;
    if ('result' in answer) return { message: resultMessage(call.id, answer.result) };
    return { message: { jsonrpc: '2.0', id: call.id, error: answer.rpcError.wire } };
  }

  /**
   * The guard's verdict and, when allowed, the server's answer: the message for the client
   * (undefined when the call was cancelled), and what its duplicates may be answered with.
   */
  private async checkAndRelay(
    call: OpenCall,
    proposal: Proposal,
  ): Promise<{ readonly message: JSONRPCMessage | undefined; readonly twin?: TwinAnswer }> {
    const { steps } = this;
    const { id, params } = call;
    const verdict = steps.check(proposal);
    if (call.cancelled) return { message: undefined };
    if (verdict && !verdict.allowed) {
      const refused = refusedResult(verdict);
      return { message: resultMessage(id, refused), twin: refusedAnswer(refused) };
    }

    const started = performance.now();
    let outcome: RelayOutcome | undefined;
    let dispatch: DispatchedCall;
    try {
      const { upstream } = this.options;
      const client = upstream.connected ?? (await upstream.client());
      if (call.cancelled) return { message: undefined };
      dispatch = steps.dispatched(proposal);
      outcome = await this.exchange(client, call);
    } catch (error) {
      outcome = { error: error instanceof Error ? error : new Error(String(error)) };
    }
    // A call the client cancelled is learned all the same: cancelling must not dodge learning.
    if (!outcome) return { message: undefined };
    if ('result' in outcome) {
      const raw = outcome.result;
      const durationMs = steps.received(started, dispatch);
      const result = steps.relayed(verdict, raw);
      if (call.cancelled) {
        steps.learn(proposal, raw, durationMs);
        return { message: undefined };
      }
      // The answer goes out before the guard learns from it, and the learning follows the write at
      // once, before the proxy reads another message: the client waits less, and whatever it sends
      // after reading the answer is still checked against what the answer taught.
      const message = resultMessage(id, result);
      void this.reply(call, message);
      const failed = await afterQueuedWrites(() => steps.learn(proposal, raw, durationMs));
      return { message, twin: ranAnswer(result, failed) };
    }
    const ended = steps.failed(proposal, outcome.error, started, dispatch);
    if (call.cancelled) return { message: undefined };
    // The server's own JSON-RPC errors (unknown tool, invalid params) reach the client unchanged.
    if (outcome.passOn && outcome.error instanceof ProtocolError) {
      const error = { jsonrpc: '2.0' as const, id, error: outcome.passOn };
      return { message: error, twin: rpcErrorAnswer(outcome.error, outcome.passOn) };
    }
    if (outcome.passOn) return { message: { jsonrpc: '2.0', id, error: outcome.passOn } };
    const fault = faultResult(params.name, ended);
    return { message: resultMessage(id, fault), twin: ranAnswer(fault, true) };
  }

  /** Relays the call; resolves with how it ended, or undefined when it was abandoned and never answered. */
  private exchange(client: UpstreamClient, call: OpenCall): Promise<RelayOutcome | undefined> {
    const token = call.params._meta?.progressToken;
    const pending = relayCall(client, call.params, {
      timeoutMs: this.options.callTimeoutMs,
      // Progress is asked for only when the client asked for it, and then it keeps the call alive.
      ...(token !== undefined && {
        onProgress: (progress: Progress) => {
          if (!this.clientLeft) this.forwardProgress(token, progress);
        },
      }),
    });
    call.abandon = (reason) => pending.abandon(reason);
    return pending.outcome;
  }

  private forwardProgress(token: ProgressToken, progress: Progress): void {
    this.options
      .send({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { ...progress, progressToken: token },
      })
      .catch((error: unknown) => this.options.log(`could not forward progress: ${describeError(error)}`));
  }

  /** A `notifications/cancelled` for one of its calls; anything else is the SDK's to handle. */
  private cancel(params: unknown): boolean {
    if (!isPlainObject(params)) return false;
    const { requestId, reason } = params;
    // The SDK drops a cancellation whose reason is not text, so it cancels nothing.
    if (reason !== undefined && typeof reason !== 'string') return false;
    const call =
      typeof requestId === 'string' || typeof requestId === 'number' ? this.open.get(requestId) : undefined;
    if (!call || call.cancelled) return false;
    call.cancelled = true;
    call.abandon?.(reason ?? NO_REASON);
    return true;
  }
}

/** `error.type` of a call answered with a JSON-RPC error, or not answered (cancelled). */
function answerErrorType(ended: TracedEnd<JSONRPCMessage | undefined>): string | undefined {
  if (!('value' in ended)) return undefined;
  if (ended.value === undefined) return 'cancelled';
  return 'error' in ended.value ? String(ended.value.error.code) : undefined;
}

/**
 * Runs `work` on the next tick, after the writes `send` has queued by now (the line transport writes
 * on the next tick too, and ticks run in order), and before the event loop reads anything new.
 */
function afterQueuedWrites<T>(work: () => T): Promise<T> {
  return new Promise((resolve, reject) => {
    process.nextTick(() => {
      try {
        resolve(work());
      } catch (error) {
        reject(error);
      }
    });
  });
}

function resultMessage(id: RequestId, result: CallToolResult): JSONRPCMessage {
  return { jsonrpc: '2.0', id, result };
}

/**
 * The params of a call the SDK server would hand its handler as they are: `name`, object
 * `arguments`, and a `_meta` with a valid progress token and none of the protocol's reserved keys
 * (which the SDK lifts out or validates). Undefined for anything else.
 */
function plainToolCallParams(params: unknown): CallToolRequestParams | undefined {
  if (!isPlainObject(params) || typeof params.name !== 'string') return undefined;
  for (const key in params) {
    if (key !== 'name' && key !== 'arguments' && key !== '_meta') return undefined;
  }
  if (params.arguments !== undefined && !isPlainArguments(params.arguments)) return undefined;
  if (params._meta !== undefined && !isPlainMeta(params._meta)) return undefined;
  return params as CallToolRequestParams;
}

/** An object the SDK's copy keeps whole: its copy by assignment would drop an own `__proto__` key. */
function isPlainArguments(args: unknown): boolean {
  return isPlainObject(args) && !Object.hasOwn(args, '__proto__');
}

const RESERVED_META_PREFIX = 'io.modelcontextprotocol/';

function isPlainMeta(meta: unknown): boolean {
  if (!isPlainObject(meta)) return false;
  for (const key in meta) if (key.startsWith(RESERVED_META_PREFIX)) return false;
  const token = meta.progressToken;
  return token === undefined || typeof token === 'string' || Number.isSafeInteger(token);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
