/**
 * narrowing for the OpenAI Agents SDK (`@openai/agents`): a tool input guardrail checks each call
 * and rejects a refused one with the reason as the tool's output; an `errorFunction` hands the real
 * error to the guard (by default the SDK replaces it with a generic sentence) and to the model; the
 * `agent_tool_end` event records each call that returned. A halt ends the run gracefully: the model
 * reads the halt as the tool's output, every guarded tool is then switched off (`isEnabled`), and
 * the model's next answer, written without tools, is the run's final output.
 *
 * Three ways in: `guard.tool(options)` composes the guard with a tool's own options (its guardrails,
 * error function and `isEnabled` are kept), `guard.agent(agent)` guards every function tool of an
 * agent already built, and `...guard.toolOptions` is the bare spread.
 *
 * The SDK is never imported: the shapes below are the parts of its types this module reads.
 */
import { toolCallToOutcome, toolCallToProposal } from '../../adapters/tool-call/index.js';
import type { CheckResult } from '../../core/types.js';
import {
  checkSafely,
  claimSafely,
  coalesceSafely,
  type GuardFaultOptions,
  type GuardSession,
  type GuardSource,
  guardHandle,
  isTokenCount,
  recordSafely,
  refusalText,
  reportedTokens,
  type TwinAnswer,
  verdictMeta,
  waitForTwin,
} from '../../guard/index.js';
import { asFailure, isCancellation } from '../tool-call-outcomes.js';

/** A function call as the SDK hands it to guardrails, error functions and lifecycle events. */
export interface AgentsToolCall {
  readonly type?: string;
  readonly callId?: string;
  readonly name?: string;
  readonly arguments?: string;
}

/** What a tool guardrail returns (`ToolGuardrailFunctionOutput`). */
export interface AgentsGuardrailOutput {
  outputInfo?: unknown;
  behavior: { type: 'allow' } | { type: 'rejectContent'; message: string } | { type: 'throwException' };
}

/** A tool output guardrail (`ToolOutputGuardrailDefinition`). */
export interface AgentsToolOutputGuardrail {
  readonly type: 'tool_output';
  readonly name: string;
  run(data: { readonly toolCall: AgentsToolCall; readonly output: unknown }): Promise<AgentsGuardrailOutput>;
}

/** A tool input guardrail (`ToolInputGuardrailDefinition`). */
export interface AgentsToolInputGuardrail {
  readonly type: 'tool_input';
  readonly name: string;
  run(data: { readonly toolCall: AgentsToolCall; readonly agent?: unknown }): Promise<AgentsGuardrailOutput>;
}

/** A built function tool's `invoke`. */
type BuiltInvoke = (
  runContext: unknown,
  input: string,
  details?: { toolCall?: AgentsToolCall; signal?: AbortSignal },
) => Promise<unknown>;

/** A tool's error function (`errorFunction` of `tool()`); `null` makes the SDK throw the error. */
export type AgentsErrorFunction = (
  context: unknown,
  error: unknown,
  details?: { toolCall?: AgentsToolCall; signal?: AbortSignal },
) => unknown;

/** What `isEnabled` of `tool()` takes. */
export type AgentsIsEnabled =
  | boolean
  | ((options: { runContext: unknown; agent: unknown }) => boolean | PromiseLike<boolean>);

/** The options of `tool()` that `guard.tool()` composes with; every other option is kept as it is. */
export interface AgentsToolOptions {
  // biome-ignore lint/suspicious/noExplicitAny: the SDK types execute's input from the tool's parameters
  readonly execute?: (input: any, context?: any, details?: any) => unknown;
  readonly inputGuardrails?: readonly unknown[];
  readonly outputGuardrails?: readonly unknown[];
  readonly errorFunction?: AgentsErrorFunction | null;
  readonly isEnabled?: AgentsIsEnabled;
}

/** A function tool as `tool()` builds it: the parts `guard.agent()` composes with. */
export interface AgentsFunctionTool {
  readonly type: string;
  readonly name: string;
  readonly inputGuardrails?: readonly unknown[];
  readonly outputGuardrails?: readonly unknown[];
  readonly isEnabled?: (runContext: unknown, agent: unknown) => boolean | Promise<boolean>;
}

/** An `Agent`, as far as `guard.agent()` reads and copies it. */
export interface AgentsAgent {
  readonly tools: readonly unknown[];
  clone(config: { tools?: readonly unknown[] }): unknown;
  // biome-ignore lint/suspicious/noExplicitAny: the SDK types each event's arguments
  on(event: 'agent_tool_end', listener: (...args: any[]) => void): unknown;
}

export interface AgentsGuardOptions extends GuardFaultOptions {
  /**
   * How long a call identical to one still running waits for it before it runs on its own, in
   * milliseconds. Default 120000.
   */
  readonly coalesceWaitMs?: number;
}

export interface AgentsGuard {
  /**
   * Spread into each `tool({ … })`: the input guardrail and the error function. A tool built
   * without them is not guarded.
   */
  readonly toolOptions: {
    /**
     * False once the run is halted, its budget is spent or within its reserve, or nothing is left to
     * try: the model then answers without tools. It counts the run's token usage (read from the run
     * context the SDK passes) against the budget.
     */
    readonly isEnabled: (options?: { readonly runContext?: unknown }) => boolean;
    readonly inputGuardrails: AgentsToolInputGuardrail[];
    /** Tells identical calls held back while this one ran what it returned. */
    readonly outputGuardrails: AgentsToolOutputGuardrail[];
    readonly errorFunction: (
      context: unknown,
      error: unknown,
      details?: { toolCall?: AgentsToolCall },
    ) => string;
  };
  /**
   * The options of a `tool({ … })` with the guard composed in: narrowing's input guardrail after
   * the tool's own (it counts only the calls they let through), its output guardrail after the
   * tool's own, the tool's `errorFunction` deciding what the model reads once the guard has
   * recorded the real error, `isEnabled` true only when both say so. Its `execute` turns a thrown
   * `null` or `undefined` into an error and tells the guard when the call was cancelled.
   */
  tool<OPTIONS extends AgentsToolOptions>(options: OPTIONS): OPTIONS;
  /**
   * A copy of the agent whose function tools are all guarded (composed as `tool()` does, their
   * own guardrails and `isEnabled` kept) and which records each call as it ends: no runner hook is
   * needed. Hosted tools, MCP servers and the agents of handoffs are not guarded.
   */
  agent<AGENT extends AgentsAgent>(agent: AGENT): AGENT;
  /**
   * True once a check of this guard said halt. A model that calls a tool although none is offered
   * makes the SDK throw `ModelBehaviorError` ("Tool … not found"): after a halt, that is the
   * error to catch.
   */
  readonly halted: boolean;
  /** For `runner.on('agent_tool_end', …)`: records each guarded call that returned. */
  readonly onToolEnd: (
    context: unknown,
    agent: unknown,
    tool: unknown,
    result: string,
    details: { readonly toolCall: AgentsToolCall | { readonly type: string } },
  ) => void;
  /** The guard session (opened on first use when options were given). */
  session(): GuardSession;
  /** Writes what was learned and closes the session, when this guard opened it. */
  close(): Promise<void>;
}

/** The guardrail's name, as it appears in the run's guardrail results. */
export const NARROWING_GUARDRAIL = 'narrowing';

/**
 * Guards the tools of an OpenAI Agents SDK agent. `source` is an open session, or the options to
 * open one on first use.
 */
export function narrowingForAgents(source: GuardSource = {}, options: AgentsGuardOptions = {}): AgentsGuard {
  const handle = guardHandle(source);
  /**
   * The calls the input guardrail let through, until their end is recorded: `returned` once they
   * passed the output guardrail, `recorded` once the error function recorded their failure, and
   * `cancelled` when their abort signal fired. A call that ends in none of these had its error
   * thrown again by the SDK (a cancellation, a timeout set to raise): it teaches nothing.
   */
  const calls = new Map<string, CallState>();
  /** A check of this guard said halt: the tools stay switched off. */
  let halted = false;
  /** What each run's usage stood at when last counted, by its run context. */
  const counted = new WeakMap<object, { tokens: number; requests: number }>();
  /**
   * Counts the model requests a run made since it was last counted (the SDK adds each response's
   * usage to the run context before the next turn), each on its own so that the reserve grows with
   * the largest.
   */
  const countUsage = (runContext: unknown) => {
    if (typeof runContext !== 'object' || runContext === null) return;
    const usage = (runContext as { usage?: unknown }).usage as AgentsUsage | undefined;
    if (typeof usage !== 'object' || usage === null) return;
    const tokens = reportedTokens(usage.totalTokens, usage.inputTokens, usage.outputTokens) ?? 0;
    const requests = isTokenCount(usage.requests) ? usage.requests : 0;
    const seen = counted.get(runContext) ?? { tokens: 0, requests: 0 };
    if (tokens <= seen.tokens) return;
    counted.set(runContext, { tokens, requests });
    const session = handle.session();
    const entries = Array.isArray(usage.requestUsageEntries) ? usage.requestUsageEntries : [];
    const added = entries.slice(seen.requests, requests);
    const each = added.map((entry) => (isTokenCount(entry?.totalTokens) ? entry.totalTokens : undefined));
    if (
      requests - seen.requests > 1 &&
      each.length === requests - seen.requests &&
      !each.includes(undefined)
    ) {
      for (const requestTokens of each) session.addModelUsage({ tokens: requestTokens as number });
    } else session.addModelUsage({ tokens: tokens - seen.tokens });
  };
  const isEnabled = (options?: { readonly runContext?: unknown }) => {
    try {
      if (halted) return false;
      countUsage(options?.runContext);
      const session = handle.session();
      return !(session.isDone() || session.wrapUpReason() !== undefined);
    } catch {
      // A guard that cannot be asked leaves the tools as they were (its checks report the fault).
      return true;
    }
  };

  /** The `invoke` functions already made null-safe. */
  const nullSafe = new WeakSet<BuiltInvoke>();

  const inputGuardrail: AgentsToolInputGuardrail = {
    type: 'tool_input',
    name: NARROWING_GUARDRAIL,
    async run({ toolCall, agent }) {
      protectSpreadTool(agent, toolCall.name);
      const session = handle.session();
      const proposal = proposalOf(toolCall);
      const claim = claimSafely(session, proposal);
      if (claim?.role === 'duplicate') {
        const timeout = options.coalesceWaitMs === undefined ? {} : { timeoutMs: options.coalesceWaitMs };
        const answer = claim.settled ?? (await waitForTwin(claim.twin, timeout));
        const coalesced = coalesceSafely(session, proposal, answer, options);
        if (coalesced) {
          const message = twinText(coalesced.twin);
          return { outputInfo: { coalesced: true }, behavior: { type: 'rejectContent', message } };
        }
      }
      const first = claim?.role === 'first' ? claim : undefined;
      const verdict = checkSafely(session, proposal, options);
      const refusal = refusalText(verdict, options);
      if (refusal === undefined) {
        if (toolCall.callId !== undefined)
          calls.set(toolCall.callId, { stage: 'allowed', ...(first && { settle: first.settle }) });
        else first?.settle(undefined);
        return { behavior: { type: 'allow' } };
      }
      first?.settle({ status: 'refused', message: refusal });
      const info = verdict.ok ? infoOf(verdict.check, refusal) : { reason: refusal };
      // A halt is read by the model like a block; the tools are switched off from the next turn on.
      if (verdict.ok && verdict.check.verdict === 'halt') halted = true;
      return { outputInfo: info, behavior: { type: 'rejectContent', message: refusal } };
    },
  };

  /** Tells the duplicates held back while the call ran how it ended (once), and returns its state. */
  const settleCall = (callId: string | undefined, answer: TwinAnswer | undefined): CallState | undefined => {
    if (callId === undefined) return undefined;
    const state = calls.get(callId);
    state?.settle?.(answer);
    if (state) delete state.settle;
    return state;
  };

  const errorFunction = (
    _context: unknown,
    error: unknown,
    details?: { toolCall?: AgentsToolCall; signal?: AbortSignal },
  ): string => {
    const toolCall = details?.toolCall;
    const text = errorText(error);
    // Cancelled through its abort signal: nothing is learned, and a duplicate runs on its own.
    const cancelled = details?.signal?.aborted === true || isCancellation(error);
    const state = settleCall(toolCall?.callId, cancelled ? undefined : { status: 'threw', error: text });
    if (state === undefined || state.stage !== 'allowed' || toolCall?.name === undefined) return text;
    if (cancelled) {
      state.stage = 'cancelled';
      return text;
    }
    state.stage = 'recorded';
    recordSafely(handle.session(), outcomeOf(toolCall, asFailure(error)), options);
    return text;
  };

  const outputGuardrail: AgentsToolOutputGuardrail = {
    type: 'tool_output',
    name: NARROWING_GUARDRAIL,
    async run({ toolCall, output }) {
      let answer: TwinAnswer | undefined;
      try {
        answer = { status: 'ran', value: output, failed: outcomeOf(toolCall, output).success === false };
      } catch {
        answer = undefined;
      }
      const state = settleCall(toolCall.callId, answer);
      if (state?.stage !== 'allowed') return { behavior: { type: 'allow' } };
      if (output === SDK_GENERIC_ERROR) {
        // A tool built with the SDK's default error function failed, and its error never reached the
        // guard: the failure is learned without a cause, which never blames the agent on its own.
        state.stage = 'recorded';
        recordSafely(handle.session(), outcomeOf(toolCall, { error: SDK_GENERIC_ERROR }), options);
      } else state.stage = 'returned';
      return { behavior: { type: 'allow' } };
    },
  };

  const onToolEnd: AgentsGuard['onToolEnd'] = (_context, _agent, _tool, result, { toolCall }) => {
    if (!isFunctionCall(toolCall) || toolCall.callId === undefined) return;
    const state = settleCall(toolCall.callId, undefined);
    calls.delete(toolCall.callId);
    if (state?.stage !== 'returned') return;
    recordSafely(handle.session(), outcomeOf(toolCall, result), options);
  };

  /** A tool's `execute`, with the signal watched and any thrown value made an error. */
  const guardedExecute =
    (execute: NonNullable<AgentsToolOptions['execute']>) =>
    async (
      input: unknown,
      context?: unknown,
      details?: { toolCall?: AgentsToolCall; signal?: AbortSignal },
    ) => {
      const cancelled = () => {
        const state =
          details?.toolCall?.callId === undefined ? undefined : calls.get(details.toolCall.callId);
        if (state && details?.signal?.aborted) state.stage = 'cancelled';
      };
      try {
        const value = await execute(input, context, details);
        cancelled();
        return value;
      } catch (error) {
        cancelled();
        // The SDK reads `toString()` of what a tool threw: `throw null` would crash the run.
        throw error === null || error === undefined ? new Error(errorText(error)) : error;
      }
    };

  /**
   * A built tool's `invoke`, made safe against a thrown `null` or `undefined`: once any error function
   * is set, the SDK reads `toString()` of what the tool threw before asking it, and the run crashes.
   * That crash is answered as the error function would have answered the thrown value.
   */
  const nullSafeInvoke =
    (invoke: BuiltInvoke): BuiltInvoke =>
    async (runContext, input, details) => {
      try {
        return await invoke(runContext, input, details);
      } catch (error) {
        const thrown = thrownNothing(error);
        const callId = details?.toolCall?.callId;
        const state = callId === undefined ? undefined : calls.get(callId);
        if (thrown === false || details?.signal?.aborted || state?.stage !== 'allowed') throw error;
        return errorFunction(runContext, new Error(errorText(thrown)), details);
      }
    };

  /** Makes the `invoke` of a tool the guard's guardrail was spread into null-safe, once. */
  const protectSpreadTool = (agent: unknown, name: string | undefined) => {
    const tools = (agent as { tools?: unknown } | undefined)?.tools;
    if (!Array.isArray(tools)) return;
    const found = tools.find(
      (candidate) =>
        isBuiltFunctionTool(candidate) &&
        candidate.name === name &&
        candidate.inputGuardrails?.includes(inputGuardrail) === true,
    ) as (AgentsFunctionTool & { invoke: BuiltInvoke }) | undefined;
    if (found === undefined || nullSafe.has(found.invoke)) return;
    try {
      const safe = nullSafeInvoke(found.invoke);
      nullSafe.add(safe);
      (found as { invoke: BuiltInvoke }).invoke = safe;
    } catch {
      // A frozen tool keeps its own invoke: it crashes on a thrown null as it would without the guard.
    }
  };

  const composeErrorFunction =
    (own: AgentsErrorFunction | null | undefined): AgentsErrorFunction =>
    (context, error, details) => {
      const text = errorFunction(context, error, details);
      if (own === undefined) return text;
      if (own === null) throw error;
      return own(context, error, details);
    };

  const composeIsEnabled =
    (own: AgentsIsEnabled | undefined) =>
    async (enabledOptions: { runContext: unknown; agent: unknown }): Promise<boolean> => {
      if (!isEnabled(enabledOptions)) return false;
      if (typeof own === 'function') return Boolean(await own(enabledOptions));
      return own ?? true;
    };

  function tool<OPTIONS extends AgentsToolOptions>(toolOptions: OPTIONS): OPTIONS {
    return {
      ...toolOptions,
      ...(toolOptions.execute && { execute: guardedExecute(toolOptions.execute) }),
      inputGuardrails: [...(toolOptions.inputGuardrails ?? []), inputGuardrail],
      outputGuardrails: [...(toolOptions.outputGuardrails ?? []), outputGuardrail],
      errorFunction: composeErrorFunction(toolOptions.errorFunction),
      isEnabled: composeIsEnabled(toolOptions.isEnabled),
    };
  }

  function agent<AGENT extends AgentsAgent>(original: AGENT): AGENT {
    const tools = original.tools.map((candidate) =>
      isBuiltFunctionTool(candidate) ? guardedTool(candidate) : candidate,
    );
    const copy = original.clone({ tools }) as AGENT;
    // The agent's own hook: its calls are recorded with no runner hook (and once if there is one too).
    copy.on(
      'agent_tool_end',
      (context: unknown, tool: unknown, result: string, details: { toolCall: AgentsToolCall }) =>
        onToolEnd(context, copy, tool, result, details),
    );
    return copy;
  }

  /** A function tool already built, with narrowing's guardrails beside its own and `isEnabled` composed. */
  function guardedTool(
    built: AgentsFunctionTool & { invoke: BuiltInvoke },
  ): AgentsFunctionTool & { invoke: BuiltInvoke } {
    // Built with guard.tool() or the spread already: guarded once, not twice.
    if (built.inputGuardrails?.includes(inputGuardrail)) return built;
    const own = built.isEnabled;
    const invoke = nullSafeInvoke(built.invoke);
    nullSafe.add(invoke);
    return {
      ...built,
      invoke,
      inputGuardrails: [...(built.inputGuardrails ?? []), inputGuardrail],
      outputGuardrails: [...(built.outputGuardrails ?? []), outputGuardrail],
      isEnabled: async (runContext: unknown, runAgent: unknown) =>
        isEnabled({ runContext }) && (own === undefined || Boolean(await own(runContext, runAgent))),
    };
  }

  return {
    toolOptions: {
      isEnabled,
      inputGuardrails: [inputGuardrail],
      outputGuardrails: [outputGuardrail],
      errorFunction,
    },
    tool,
    agent,
    get halted() {
      return halted;
    },
    onToolEnd,
    session: () => handle.session(),
    close: () => handle.close(),
  };
}

/** A run's usage (`Usage` of the SDK), as far as the guard reads it: totals over the run's requests. */
interface AgentsUsage {
  readonly requests?: unknown;
  readonly inputTokens?: unknown;
  readonly outputTokens?: unknown;
  readonly totalTokens?: unknown;
  readonly requestUsageEntries?: readonly ({ readonly totalTokens?: unknown } | undefined)[];
}

/** Where a call that passed the input guardrail stands, and what tells its held-back duplicates how it ended. */
interface CallState {
  stage: 'allowed' | 'returned' | 'recorded' | 'cancelled';
  settle?: (answer: TwinAnswer | undefined) => void;
}

/**
 * What the SDK's default error function gives the model instead of the error: a tool built without
 * narrowing's error function failed, and its error never reached the guard.
 */
const SDK_GENERIC_ERROR = 'An error occurred while running the tool. Please try again.';

/**
 * The value a tool threw, when `error` is the SDK failing to read it (`Cannot read properties of
 * null (reading 'toString')`); false otherwise.
 */
function thrownNothing(error: unknown): null | undefined | false {
  if (!(error instanceof TypeError)) return false;
  const read = /^Cannot read properties of (null|undefined) \(reading 'toString'\)$/.exec(error.message);
  if (read === null) return false;
  return read[1] === 'null' ? null : undefined;
}

function isBuiltFunctionTool(candidate: unknown): candidate is AgentsFunctionTool & { invoke: BuiltInvoke } {
  const tool = candidate as Partial<AgentsFunctionTool> & { invoke?: unknown };
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    tool.type === 'function' &&
    typeof tool.invoke === 'function'
  );
}

function isFunctionCall(toolCall: AgentsToolCall | { readonly type: string }): toolCall is AgentsToolCall {
  return toolCall.type === 'function_call' && typeof (toolCall as AgentsToolCall).name === 'string';
}

function proposalOf(toolCall: AgentsToolCall) {
  return toolCallToProposal(toolCall.name ?? 'unknown', toolCall.arguments, {
    ...(toolCall.callId !== undefined && { callId: toolCall.callId }),
  });
}

function outcomeOf(toolCall: AgentsToolCall, result: unknown) {
  return toolCallToOutcome(toolCall.name ?? 'unknown', toolCall.arguments, result, {
    ...(toolCall.callId !== undefined && { callId: toolCall.callId }),
  });
}

/**
 * What the model reads of an error: its name and message. Any value may be thrown (`throw null`
 * included), and none of them may make this throw.
 */
function errorText(error: unknown): string {
  try {
    if (error instanceof Error) return `${error.name}: ${error.message}`;
    if (error === null || error === undefined)
      return `the tool failed without an error (it threw ${String(error)})`;
    return String(error);
  } catch {
    return 'the tool failed with an error that cannot be read';
  }
}

/** A coalesced call's answer, as the text the model reads. */
function twinText(twin: TwinAnswer): string {
  if (twin.status === 'refused') return twin.message;
  if (twin.status === 'threw') return typeof twin.error === 'string' ? twin.error : errorText(twin.error);
  return typeof twin.value === 'string' ? twin.value : (JSON.stringify(twin.value) ?? '');
}

function infoOf(check: CheckResult, reason: string) {
  return { reason, verdict: verdictMeta(check) };
}
