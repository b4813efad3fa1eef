import {
  type CallToolRequest,
  type CallToolResult,
  ProtocolError,
  type RequestOptions,
  SdkError,
  SdkErrorCode,
  type ServerCapabilities,
} from '@modelcontextprotocol/client';
import { type JSONRPCRequest, Server, type ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { Proposal } from '../core/types.js';
import type { InFlightCalls, TwinAnswer } from '../guard/in-flight.js';
import type { CallGuard } from '../guard/session.js';
import { ranAnswer, refusedAnswer, rpcErrorAnswer } from './coalesce.js';
import type { InflightCalls } from './inflight.js';
import { describeError, type Log } from './log.js';
import { relayCall } from './relay-call.js';
import { type DispatchedCall, faultResult, ToolCallSteps } from './tool-call-steps.js';
import type { ToolCatalog } from './tool-catalog.js';
import { inToolSpan } from './tool-span.js';
import type { UpstreamIdentity } from './upstream.js';
import { type RelayOutcome, UpstreamClient } from './upstream-client.js';
import type { UpstreamLink } from './upstream-link.js';
import { refusedResult } from './verdict-result.js';

export interface ProxyServerOptions {
  readonly upstream: UpstreamLink;
  readonly identity: UpstreamIdentity;
  readonly guard: CallGuard;
  readonly catalog: ToolCatalog;
  readonly calls: InflightCalls;
  /** How long a tool call may run without progress before it is answered with an error. */
  readonly callTimeoutMs: number;
  readonly log: Log;
  /** The client connection's calls in flight: identical ones run once (see `coalesce.ts`). */
  readonly inFlight?: InFlightCalls;
}

/**
 * The capabilities the proxy serves: the upstream's, minus what it does not forward (tasks
 * would let a tool call bypass the guard; extensions and experimental features are unknown).
 */
export function mirroredCapabilities(upstream: ServerCapabilities): ServerCapabilities {
  const { tools, resources, prompts, logging, completions } = upstream;
  return {
    ...(tools && { tools }),
    ...(resources && { resources }),
    ...(prompts && { prompts }),
    ...(logging && { logging }),
    ...(completions && { completions }),
  };
}

const anyResult = z.looseObject({});

/** Requests answered by the upstream exactly as it answers them. */
type PassThroughMethod =
  | 'ping'
  | 'resources/list'
  | 'resources/templates/list'
  | 'resources/read'
  | 'resources/subscribe'
  | 'resources/unsubscribe'
  | 'prompts/list'
  | 'prompts/get'
  | 'completion/complete'
  | 'logging/setLevel';

/**
 * A downstream MCP server whose every request is answered by the upstream, except that each
 * `tools/call` is first put to the guard and its outcome reported back to it.
 */
export function createProxyServer(options: ProxyServerOptions): Server {
  const { identity, upstream, log } = options;
  const capabilities = mirroredCapabilities(identity.capabilities);
  const server = new Server(identity.serverInfo, {
    capabilities,
    ...(identity.instructions !== undefined && { instructions: identity.instructions }),
  });
  const relay = (ctx: ServerContext, timeout?: number) => relayOptions(ctx, log, timeout);

  const forward = (methods: readonly PassThroughMethod[]) => {
    for (const method of methods) {
      server.setRequestHandler(method, async (request, ctx) =>
        (await upstream.client()).request({ method, params: request.params }, relay(ctx)),
      );
    }
  };

  forward(['ping']);
  if (capabilities.tools) {
    server.setRequestHandler('tools/list', async (request, ctx) => {
      const client = await upstream.client();
      const result = await client.request({ method: 'tools/list', params: request.params }, relay(ctx));
      options.catalog.remember(result.tools, { lastPage: result.nextCursor === undefined });
      return result;
    });
    const callTool = toolCallHandler(options);
    server.setRequestHandler('tools/call', (request, ctx) => {
      const call = { name: request.params.name, id: ctx.mcpReq.id, meta: request.params._meta };
      return options.calls.track(inToolSpan(options.guard, call, () => callTool(request, ctx)));
    });
  }
  if (capabilities.resources) forward(['resources/list', 'resources/templates/list', 'resources/read']);
  if (capabilities.resources?.subscribe) forward(['resources/subscribe', 'resources/unsubscribe']);
  if (capabilities.prompts) forward(['prompts/list', 'prompts/get']);
  if (capabilities.completions) forward(['completion/complete']);
  if (capabilities.logging) forward(['logging/setLevel']);
  // Methods outside the specification (a server's own extensions) pass through untouched.
  server.fallbackRequestHandler = async (request: JSONRPCRequest, ctx: ServerContext) =>
    (await upstream.client()).request(
      { method: request.method, ...(request.params && { params: request.params }) },
      anyResult,
      relay(ctx),
    );
  server.setNotificationHandler('notifications/roots/list_changed', async () => {
    try {
      await (await upstream.client()).sendRootsListChanged();
    } catch {
      // An upstream connected without the roots capability has no use for the news.
    }
  });
  return server;
}

/**
 * Forwarding options for one request: the client's cancellation reaches the upstream through
 * the abort signal, and the upstream's progress reaches the client under the client's own token.
 */
function relayOptions(ctx: ServerContext, log: Log, timeout?: number): RequestOptions {
  const token = ctx.mcpReq._meta?.progressToken;
  return {
    signal: ctx.mcpReq.signal,
    ...(timeout !== undefined && { timeout }),
    ...(token !== undefined && {
      resetTimeoutOnProgress: true,
      onprogress: (progress) => {
        ctx.mcpReq
          .notify({ method: 'notifications/progress', params: { ...progress, progressToken: token } })
          .catch((error) => log(`could not forward progress: ${describeError(error)}`));
      },
    }),
  };
}

function toolCallHandler(options: ProxyServerOptions) {
  const { upstream, log, callTimeoutMs } = options;
  const steps = new ToolCallSteps(options);

  const checkAndRelay = async (
    request: CallToolRequest,
    ctx: ServerContext,
    proposal: Proposal,
    tell: (twin: TwinAnswer) => void,
  ): Promise<CallToolResult> => {
    const { name } = request.params;
    const verdict = steps.check(proposal);
    if (verdict && !verdict.allowed) {
      const refused = refusedResult(verdict);
      tell(refusedAnswer(refused));
      return refused;
    }

    const started = performance.now();
    const { signal } = ctx.mcpReq;
    let outcome: RelayOutcome | undefined;
    let dispatch: DispatchedCall;
    try {
      const client = await upstream.client();
      dispatch = steps.dispatched(proposal);
      outcome =
        client instanceof UpstreamClient
          ? await relayWatched(client, request.params, ctx, log, callTimeoutMs)
          : {
              result: await client.request(
                { method: 'tools/call', params: request.params },
                relayOptions(ctx, log, callTimeoutMs),
              ),
            };
    } catch (error) {
      outcome = { error: error instanceof Error ? error : new Error(String(error)) };
    }
    // Abandoned and never answered: nothing to learn, and the client expects no answer.
    if (!outcome) throw signal.reason;
    // What the call did is learned even when the client cancelled it or went away.
    if ('result' in outcome) {
      const { result, failed } = steps.answered(proposal, verdict, outcome.result, started, dispatch);
      if (!signal.aborted) tell(ranAnswer(result, failed));
      return result;
    }
    const ended = steps.failed(proposal, outcome.error, started, dispatch);
    if (signal.aborted) throw ended;
    // The server's own JSON-RPC errors (unknown tool, invalid params) reach the client unchanged.
    if (ended instanceof ProtocolError) {
      tell(rpcErrorAnswer(ended));
      throw ended;
    }
    const fault = faultResult(name, ended);
    tell(ranAnswer(fault, true));
    return fault;
  };

  return async (request: CallToolRequest, ctx: ServerContext): Promise<CallToolResult> => {
    const proposed = steps.propose(request.params.name, request.params.arguments, ctx.mcpReq.id);
    const proposal = proposed instanceof Promise ? await proposed : proposed;
    const claim = steps.identical?.claim(proposal);
    if (claim?.role === 'duplicate' && steps.identical) {
      // Held until the identical call in flight is answered, at most twice the call timeout.
      const twin = await steps.identical.twinAnswer(claim, ctx.mcpReq.signal);
      if (ctx.mcpReq.signal.aborted) throw ctx.mcpReq.signal.reason;
      const answer = steps.identical.answer(proposal, twin);
      if (answer && 'result' in answer) return answer.result;
      if (answer) throw answer.rpcError.error;
    }
    let twin: TwinAnswer | undefined;
    try {
      return await checkAndRelay(request, ctx, proposal, (answer) => {
        twin = answer;
      });
    } finally {
      if (claim?.role === 'first') claim.settle(twin);
    }
  };
}

/**
 * Relays a call, watching the client's abort signal. A cancellation is passed on to the server; a
 * closed connection is not (the client went away, it did not ask for the work to stop, and an HTTP
 * client that disconnects has not cancelled). Either way the answer is still awaited and learned.
 */
async function relayWatched(
  client: UpstreamClient,
  params: CallToolRequest['params'],
  ctx: ServerContext,
  log: Log,
  timeoutMs: number,
): Promise<RelayOutcome | undefined> {
  const { signal } = ctx.mcpReq;
  const token = ctx.mcpReq._meta?.progressToken;
  const pending = relayCall(client, params, {
    timeoutMs,
    ...(token !== undefined && {
      onProgress: (progress) => {
        ctx.mcpReq
          .notify({ method: 'notifications/progress', params: { ...progress, progressToken: token } })
          .catch((error) => log(`could not forward progress: ${describeError(error)}`));
      },
    }),
  });
  const onAbort = () => {
    const reason = signal.reason;
    const closed = reason instanceof SdkError && reason.code === SdkErrorCode.ConnectionClosed;
    pending.abandon(reason instanceof Error ? String(reason) : String(reason ?? 'cancelled'), {
      tellServer: !closed,
    });
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await pending.outcome;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
