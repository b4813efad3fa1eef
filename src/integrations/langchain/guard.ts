/**
 * narrowing for LangChain (`langchain` v1 `createAgent`): one middleware. Its `wrapToolCall` checks
 * each call before it runs and answers a refused one with an error `ToolMessage` carrying the reason;
 * it records what each call that ran teaches, and turns a tool's thrown error into an error
 * `ToolMessage` with the real error text instead of letting it end `invoke`. Once narrowing halts the
 * run (or nothing is left to try), `wrapModelCall` gives the model one last turn without tools, in
 * which it writes its answer; should it call tools anyway, `beforeModel` ends the run after them.
 * `wrapModelCall` also counts each response's tokens against the policy's budget and, within its
 * reserve, gives the model that last turn too, telling it why.
 *
 * LangChain is imported as types only: the middleware is the object `createMiddleware` builds, and
 * `@langchain/core/messages` is loaded on the first call (see `messages.ts`).
 */
import type { ToolMessage } from '@langchain/core/messages';
import type { AgentMiddleware, ToolCallRequest } from 'langchain';
import { toolCallToProposal } from '../../adapters/tool-call/index.js';
import type { CheckResult, Proposal } from '../../core/types.js';
import {
  checkSafely,
  claimSafely,
  coalesceSafely,
  countModelTokensSafely,
  type GuardFaultOptions,
  type GuardSession,
  type GuardSource,
  guardHandle,
  recordSafely,
  refusalText,
  reportedTokens,
  type TwinAnswer,
  VERDICT_META_KEY,
  verdictMeta,
  verdictText,
  waitForTwin,
  wrapUpReasonSafely,
} from '../../guard/index.js';
import { toolCallOutcomes } from '../tool-call-outcomes.js';
import {
  langchainMessages,
  lastToolStep,
  type StateMessage,
  toolMessageResult,
  verdictOf,
} from './messages.js';
import { type Attempts, isEnvironmentFault, markingRequest, TransientToolError } from './retries.js';

/** The middleware's name, as it appears in the agent's graph. */
export const NARROWING_MIDDLEWARE = 'narrowing';

/** Call ids remembered to recognise a retry of a call. */
const MAX_REMEMBERED_CALLS = 1_000;

/**
 * A number for each model turn seen, by its message, over every guard of the process (several may
 * share one session): the calls of one turn share it, and no other turn has it.
 */
const turns = new WeakMap<object, number>();
let turnCount = 0;

/** The brand `createMiddleware` puts on every middleware it builds. */
const MIDDLEWARE_BRAND = Symbol.for('AgentMiddleware');

export interface LangChainGuardOptions extends GuardFaultOptions {}

export interface LangChainGuard {
  /** For `createAgent({ middleware: [guard.middleware] })`. */
  readonly middleware: AgentMiddleware;
  /**
   * For a graph built by hand (`new ToolNode(guard.tools(tools))` of `@langchain/langgraph/prebuilt`):
   * each tool with the guard around its calls, as the middleware guards them in `createAgent`. A
   * call the node makes with a tool call is checked, coalesced with identical calls running, and
   * learned from; any other use of the tool runs it as it is.
   */
  tools<TOOL extends object>(tools: readonly TOOL[]): TOOL[];
  /**
   * Where a run stands after a halt, read from its messages, for a graph built by hand (the
   * middleware does this itself): `tools` while it goes on, `answer` when the model is owed its
   * last turn without tools, `end` once it had that turn.
   */
  stage(messages: readonly StateMessage[]): RunStage;
  /** The guard session (opened on first use when options were given). */
  session(): GuardSession;
  /** Writes what was learned and closes the session, when this guard opened it. */
  close(): Promise<void>;
}

/** Where a run stands after a halt (see `LangChainGuard.stage`). */
export type RunStage = 'tools' | 'answer' | 'end';

type ToolCallResult = Awaited<ReturnType<NonNullable<AgentMiddleware['wrapToolCall']>>>;
type ToolCallHandler = (request: ToolCallRequest) => ToolCallResult | Promise<ToolCallResult>;

/** The part of a model request this middleware reads and changes. */
interface ModelCallRequest {
  readonly state: { readonly messages: readonly StateMessage[] };
  readonly messages?: readonly unknown[];
  readonly tools: readonly unknown[];
  readonly toolChoice?: unknown;
}

/**
 * Guards the tools of a LangChain agent. `source` is an open session, or the options to open one on
 * first use (`{}`: the `precise` preset, state in the project's `.narrowing/`).
 */
export function narrowingForLangChain(
  source: GuardSource = {},
  options: LangChainGuardOptions = {},
): LangChainGuard {
  const handle = guardHandle(source);
  /**
   * The model step of a call: the message of the model turn that asked for it. The length of the
   * conversation alone is not enough: a guard serving many requests sees the same length again.
   */
  const stepOf = (messages: readonly StateMessage[]): string | number => {
    for (let index = messages.length - 1; index >= 0; index -= 1) {
      const message = messages[index];
      if (message?.type !== 'ai') continue;
      // By the message itself: a model's message ids need not be unique (a fake model counts from 0).
      let turn = turns.get(message);
      if (turn === undefined) {
        turnCount += 1;
        turn = turnCount;
        turns.set(message, turn);
      }
      return turn;
    }
    return messages.length;
  };
  /** The ids of the calls this guard saw lately, to tell a retry of one from a duplicate. */
  const attempted = new Set<string>();
  const noteAttempt = (id: string) => {
    attempted.delete(id);
    attempted.add(id);
    if (attempted.size > MAX_REMEMBERED_CALLS) attempted.delete(attempted.values().next().value as string);
  };

  async function wrapToolCall(request: ToolCallRequest, handler: ToolCallHandler): Promise<ToolCallResult> {
    const { toolCall } = request;
    const proposal = toolCallToProposal(toolCall.name, toolCall.args, {
      ...(toolCall.id !== undefined && { callId: toolCall.id }),
      step: stepOf(request.state.messages),
    });
    const session = handle.session();
    // The same call id again is a retry of the call by a middleware outside the guard, not a
    // duplicate of it: it is checked and run, never answered from its own earlier attempt.
    const retry = toolCall.id !== undefined && attempted.has(toolCall.id);
    if (toolCall.id !== undefined) noteAttempt(toolCall.id);
    const claim = retry ? undefined : claimSafely(session, proposal);
    if (claim?.role === 'duplicate') {
      const signal = request.runtime?.signal;
      const answer = claim.settled ?? (await waitForTwin(claim.twin, signal ? { signal } : {}));
      const coalesced = coalesceSafely(session, proposal, answer, options);
      if (coalesced) return coalescedMessage(toolCall, coalesced.twin);
    }
    const first = claim?.role === 'first' ? claim : undefined;
    let answer: TwinAnswer | undefined;
    try {
      const result = await checkedToolCall(request, handler, proposal);
      answer = result.answer;
      if (result.passOn !== undefined) throw result.passOn;
      return result.message as ToolCallResult;
    } finally {
      first?.settle(answer);
    }
  }

  /** The check, the call and the record; with what the call tells its duplicates. */
  async function checkedToolCall(
    request: ToolCallRequest,
    handler: ToolCallHandler,
    proposal: Proposal,
  ): Promise<{ message?: ToolCallResult; passOn?: Error; answer: TwinAnswer | undefined }> {
    const { toolCall } = request;
    const verdict = checkSafely(handle.session(), proposal, options);
    const check = verdict.ok ? verdict.check : undefined;
    const refusal = refusalText(verdict, options);
    const { ToolMessage } = await langchainMessages();
    if (refusal !== undefined) {
      const message = new ToolMessage({
        content: refusal,
        tool_call_id: toolCall.id ?? '',
        name: toolCall.name,
        status: 'error',
        ...(check !== undefined && { metadata: { [VERDICT_META_KEY]: verdictMeta(check) } }),
      });
      return { message, answer: { status: 'refused', message: refusal } };
    }
    const signal = request.runtime?.signal;
    const startedAt = performance.now();
    const session = handle.session();
    const environmentFault = (error: unknown) => isEnvironmentFault(session, proposal, error);
    const attempts: Attempts = {};
    let result: ToolCallResult;
    try {
      result = await handler(markingRequest(request, environmentFault, attempts));
    } catch (error) {
      // An interrupt (a human in the loop), a command to a parent graph, another middleware's own
      // failure or an abandoned run is not the tool's answer: it goes on as LangChain meant it to.
      if (signal?.aborted || isBubbleUp(error) || isMiddlewareError(error)) throw error;
      const durationMs = performance.now() - startedAt;
      recordSafely(session, () => toolCallOutcomes.error(proposal, error, durationMs), options);
      if (environmentFault(error)) {
        // Passed on, so that a retry middleware outside the guard retries it (see `retries.ts`).
        return {
          passOn: new TransientToolError(errorText(error), error),
          answer: { status: 'threw', error },
        };
      }
      result = new ToolMessage({
        content: errorText(error),
        tool_call_id: toolCall.id ?? '',
        name: toolCall.name,
        status: 'error',
      });
      const answer: TwinAnswer = { status: 'threw', error };
      return { message: check?.verdict === 'warn' ? withWarning(result, check) : result, answer };
    }
    // Cancelled through its abort signal: what the tool answered after that teaches nothing, and a
    // duplicate held back runs on its own.
    if (signal?.aborted) return { message: result, answer: undefined };
    const durationMs = performance.now() - startedAt;
    // A retry middleware inside the guard answers a call that failed with a summary of its own: the
    // guard learns from the last error the tool threw instead.
    const retried =
      ToolMessage.isInstance(result) && result.status === 'error' ? attempts.lastError : undefined;
    const value = ToolMessage.isInstance(result) ? toolMessageResult(result) : undefined;
    const record = recordSafely(
      session,
      () =>
        retried === undefined
          ? toolCallOutcomes.result(proposal, value, durationMs)
          : toolCallOutcomes.error(proposal, retried.error, durationMs),
      options,
    );
    // A command (a graph update) is not an answer another call can be given.
    const answer: TwinAnswer | undefined = ToolMessage.isInstance(result)
      ? { status: 'ran', value: result, failed: record?.outcome.success === false }
      : undefined;
    return {
      message:
        check?.verdict === 'warn' && ToolMessage.isInstance(result) ? withWarning(result, check) : result,
      answer,
    };
  }

  /** A duplicate's answer: what its twin answered, under its own call id. */
  async function coalescedMessage(
    toolCall: ToolCallRequest['toolCall'],
    twin: TwinAnswer,
  ): Promise<ToolCallResult> {
    const { ToolMessage } = await langchainMessages();
    const own = { tool_call_id: toolCall.id ?? '', name: toolCall.name };
    if (twin.status === 'refused') return new ToolMessage({ ...own, content: twin.message, status: 'error' });
    if (twin.status === 'threw')
      return new ToolMessage({ ...own, content: errorText(twin.error), status: 'error' });
    const message = twin.value as ToolMessage;
    return new ToolMessage({
      ...own,
      content: message.content,
      ...(message.status !== undefined && { status: message.status }),
      ...(message.artifact !== undefined && { artifact: message.artifact }),
    });
  }

  /**
   * Where the run stands after a halt: `answer` while the model has not yet had its last turn,
   * `end` once it has had it, undefined when the run goes on.
   */
  function ending(
    messages: readonly StateMessage[],
  ): { stage: 'answer' | 'end'; reason: string } | undefined {
    let start = 0;
    for (let index = messages.length - 1; index >= 0; index -= 1) {
      if (messages[index]?.type === 'human') {
        start = index + 1;
        break;
      }
    }
    let haltAt = -1;
    let reason: string | undefined;
    for (let index = start; index < messages.length; index += 1) {
      const meta = verdictOf(messages[index] as StateMessage);
      if (meta?.verdict === 'halt') {
        haltAt = index;
        reason = meta.reason;
        break;
      }
    }
    if (haltAt < 0) {
      if (lastToolStep(messages).length === 0 || !handle.session().isDone()) return undefined;
      haltAt = messages.length - 1;
    }
    let answered = false;
    for (let index = haltAt + 1; index < messages.length; index += 1)
      answered ||= messages[index]?.type === 'ai';
    reason ??= handle.session().engine.getConvergence().reason ?? 'nothing is left to try.';
    return { stage: answered ? 'end' : 'answer', reason };
  }

  /** Counts a model response's tokens (its `usage_metadata`) against the budget. */
  const countUsage = (response: unknown) => {
    const tokens = usageTokens((response as { usage_metadata?: unknown } | null)?.usage_metadata);
    if (tokens !== undefined) countModelTokensSafely(handle, tokens);
  };

  /** Why the next turn is the model's last, for its budget. */
  const budgetEnding = (): string | undefined => wrapUpReasonSafely(handle);

  async function wrapModelCall(
    request: ModelCallRequest,
    handler: (request: ModelCallRequest) => unknown,
  ): Promise<unknown> {
    if (ending(request.state.messages)?.stage === 'answer') {
      // The last turn: the model reads why the run ends (the halted call's message) and answers.
      const response = await handler({ ...request, tools: [], toolChoice: undefined });
      countUsage(response);
      return response;
    }
    const overBudget = budgetEnding();
    if (overBudget === undefined) {
      const response = await handler(request);
      countUsage(response);
      return response;
    }
    // Within the budget's reserve: a last turn without tools, in which the model reads why and answers.
    const { AIMessage, HumanMessage } = await langchainMessages();
    const told = new HumanMessage(`[narrowing] ${overBudget}`);
    const response = await handler({
      ...request,
      messages: [...(request.messages ?? []), told],
      tools: [],
      toolChoice: undefined,
    });
    countUsage(response);
    if (!AIMessage.isInstance(response) || (response.tool_calls?.length ?? 0) === 0) return response;
    // Tools asked for in the last turn cannot run: the run ends with what the model wrote.
    return new AIMessage({
      content: response.text === '' ? `[narrowing ended this run] ${overBudget}` : response.content,
      ...(response.id !== undefined && { id: response.id }),
      ...(response.usage_metadata !== undefined && { usage_metadata: response.usage_metadata }),
      response_metadata: response.response_metadata,
    });
  }

  async function beforeModel(state: { readonly messages: readonly StateMessage[] }) {
    if (lastToolStep(state.messages).length === 0) return undefined;
    const end = ending(state.messages);
    if (end?.stage !== 'end') return undefined;
    const reason = end.reason;
    const { AIMessage } = await langchainMessages();
    return {
      jumpTo: 'end' as const,
      messages: [new AIMessage({ content: `[narrowing ended this run] ${reason}` })],
    };
  }

  /** A tool whose calls by a tool node pass through `wrapToolCall`, as in `createAgent`. */
  function guardedTool<TOOL extends object>(tool: TOOL): TOOL {
    const invoke = (tool as { invoke?: unknown }).invoke;
    if (typeof invoke !== 'function') return tool;
    const guardedInvoke = (input: unknown, config?: ToolNodeRuntime) => {
      if (!isToolCall(input)) return invoke.call(tool, input, config);
      const request = {
        toolCall: input,
        tool,
        state: { messages: messagesOf(config?.state) },
        runtime: config ?? {},
      } as unknown as ToolCallRequest;
      const handler = (marked: ToolCallRequest) =>
        (marked.tool as { invoke: typeof guardedInvoke }).invoke(marked.toolCall, config) as ToolCallResult;
      return wrapToolCall(request, handler);
    };
    return Object.create(tool, { invoke: { value: guardedInvoke } }) as TOOL;
  }

  const middleware = {
    [MIDDLEWARE_BRAND]: true,
    name: NARROWING_MIDDLEWARE,
    wrapToolCall,
    wrapModelCall,
    beforeModel: { canJumpTo: ['end'], hook: beforeModel },
  } as unknown as AgentMiddleware;

  return {
    middleware,
    tools: (tools) => tools.map(guardedTool),
    stage: (messages) => ending(messages)?.stage ?? 'tools',
    session: () => handle.session(),
    close: () => handle.close(),
  };
}

/** What a tool node passes a tool beside the call: the run's config, with the graph's state. */
interface ToolNodeRuntime {
  readonly state?: unknown;
  readonly signal?: AbortSignal;
}

function isToolCall(input: unknown): input is ToolCallRequest['toolCall'] {
  return (
    typeof input === 'object' &&
    input !== null &&
    (input as { type?: unknown }).type === 'tool_call' &&
    typeof (input as { name?: unknown }).name === 'string'
  );
}

/** The messages of a tool node's input: a state with `messages`, or a list of messages. */
function messagesOf(state: unknown): readonly StateMessage[] {
  if (Array.isArray(state)) return state;
  const messages = (state as { messages?: unknown } | undefined)?.messages;
  return Array.isArray(messages) ? messages : [];
}

/** The tokens of a model response (its request and its output), from `usage_metadata`. */
function usageTokens(usage: unknown): number | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined;
  const { total_tokens, input_tokens, output_tokens } = usage as Record<string, unknown>;
  return reportedTokens(total_tokens, input_tokens, output_tokens);
}

/** Appends the warning of a `warn` verdict to what the tool answered: the model reads both. */
function withWarning(message: ToolMessage, check: CheckResult): ToolMessage {
  const warning = verdictText(check);
  message.content =
    typeof message.content === 'string'
      ? `${message.content}\n${warning}`
      : [...message.content, { type: 'text', text: warning }];
  message.metadata = { ...message.metadata, [VERDICT_META_KEY]: verdictMeta(check) };
  return message;
}

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** LangGraph's interrupts and parent commands travel as errors marked `is_bubble_up`. */
function isBubbleUp(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { is_bubble_up?: unknown }).is_bubble_up === true
  );
}

function isMiddlewareError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as Record<string, unknown>)['~brand'] === 'MiddlewareError'
  );
}
