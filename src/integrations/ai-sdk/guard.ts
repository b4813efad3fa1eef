/**
 * narrowing for the AI SDK (`ai`): `toolApproval` checks each call before it runs and denies a
 * refused one with the reason, which the model reads as an `execution-denied` tool result;
 * `onToolExecutionEnd` records what each call that ran teaches; once the run is halted or nothing
 * is left to try, `prepareStep` gives the model one last step without tools to answer and
 * `stopWhen` ends the loop after it. For versions without `toolApproval`, `wrapTools` guards
 * each tool's `execute` instead.
 *
 * The SDK is never imported: the shapes below are the parts of its types this module reads, so one
 * build serves every version of the SDK that has them.
 */
import { toolCallToOutcome, toolCallToProposal } from '../../adapters/tool-call/index.js';
import { isNarrowingError, NarrowingError } from '../../core/errors.js';
import type { Proposal } from '../../core/types.js';
import {
  checkSafely,
  claimSafely,
  coalescedText,
  coalesceSafely,
  countModelTokensSafely,
  type GuardFaultOptions,
  type GuardSession,
  type GuardSource,
  guardedCall,
  guardHandle,
  recordSafely,
  refusalText,
  reportedTokens,
  type SafeCheck,
  type TwinAnswer,
  verdictText,
  waitForTwin,
  wrapUpReasonSafely,
} from '../../guard/index.js';
import { asFailure, isCancellation, toolCallOutcomes } from '../tool-call-outcomes.js';
import { type StepMessage, withWarnings } from './warnings.js';

/** The tool call the SDK asks about and reports on. */
export interface AiSdkToolCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
}

/** What `toolApproval`, given as one function for every tool, receives. */
export interface AiSdkApprovalRequest {
  readonly toolCall: AiSdkToolCall;
  /** The messages sent to the model for the step that made the call. */
  readonly messages: readonly unknown[];
  /** The loop's tools (the SDK 7 passes them): their names are what `prepareStep` offers. */
  readonly tools?: unknown;
}

/** The statuses a `toolApproval` function returns (`undefined` means `not-applicable`). */
export type AiSdkApprovalStatus =
  | undefined
  | 'not-applicable'
  | 'approved'
  | 'denied'
  | 'user-approval'
  | { readonly type: 'not-applicable' }
  | { readonly type: 'approved' | 'denied' | 'user-approval'; readonly reason?: string };

export type AiSdkToolApproval = (
  request: AiSdkApprovalRequest,
) => AiSdkApprovalStatus | PromiseLike<AiSdkApprovalStatus>;

/** What `onToolExecutionEnd` receives. */
export interface AiSdkToolExecutionEnd {
  readonly toolCall: AiSdkToolCall;
  readonly toolOutput:
    | { readonly type: 'tool-result'; readonly output: unknown }
    | { readonly type: 'tool-error'; readonly error: unknown };
  readonly toolExecutionMs: number;
  readonly messages: readonly unknown[];
}

/** The part of a tool the wrapper needs: its `execute`, called with the call's id and signal. */
export interface AiSdkExecutableTool {
  // biome-ignore lint/suspicious/noExplicitAny: the SDK's execute is generic in its input and options
  readonly execute?: ((input: any, options: any) => unknown) | undefined;
}

export interface AiSdkGuardOptions extends GuardFaultOptions {}

/** What `prepareStep` changes for a step; undefined when it changes nothing. */
export interface AiSdkStepSettings<MESSAGE, TOOL_NAME extends string = string> {
  /** The tools offered: every tool but those switched off, or none for the last step. */
  activeTools?: TOOL_NAME[];
  toolChoice?: 'none';
  /** The step's messages with the guard's warnings beside the results they are about. */
  messages?: MESSAGE[];
}

/** Refusals after which a tool stays switched off for the rest of the run. */
const SWITCHING_OFF_RULES: ReadonlySet<string> = new Set(['non-advancing', 'tool-health']);

/** Warnings kept for delivery: the most recent calls' (the SDK 6 re-sends them every step). */
const MAX_WARNINGS = 1_000;

export interface AiSdkGuard {
  /** For `generateText`, `streamText` or `ToolLoopAgent`: denies a refused call with the reason. */
  readonly toolApproval: (request: AiSdkApprovalRequest) => AiSdkApprovalStatus;
  /** For the same call: records the outcome of each call that ran (denied calls never run). */
  readonly onToolExecutionEnd: (event: AiSdkToolExecutionEnd) => void;
  /**
   * For the same call, before each step:
   * - the warnings of `warn` verdicts are appended to the results of the calls they were about, so
   *   the model reads them (the approval hook can only allow or deny);
   * - a tool the guard has switched off for the run (`non-advancing`, `tool-health`) is no longer
   *   offered (`activeTools`);
   * - each step's token usage counts against the policy's `budget`; within its reserve (at least
   *   twice the largest request seen) the step offers the model no tools and tells it why, so the
   *   run ends with an answer rather than out of budget;
   * - once the run is halted (the same refused call proposed again and again) or nothing is left to
   *   try, the step offers the model no tools, so it writes its answer.
   */
  readonly prepareStep: <MESSAGE, TOOL_NAME extends string = string>(options: {
    readonly stepNumber: number;
    readonly steps?: readonly unknown[];
    readonly messages?: MESSAGE[];
  }) => AiSdkStepSettings<MESSAGE, TOOL_NAME> | undefined;
  /**
   * A stop condition: true after the step without tools that `prepareStep` gave the model, or, when
   * `prepareStep` is not used, as soon as the run is halted, its budget spent or nothing is left to try.
   */
  readonly stopWhen: (options: { readonly steps: readonly unknown[] }) => boolean;
  /**
   * The same tools with a guarded `execute`, for SDK versions without `toolApproval`: a refused call
   * throws the reason, which the model reads as a tool error; every call that ran is recorded. Use
   * it instead of `toolApproval` and `onToolExecutionEnd`, never beside them.
   */
  wrapTools<TOOLS extends Record<string, AiSdkExecutableTool>>(tools: TOOLS): TOOLS;
  /** The guard session (opened on first use when options were given). */
  session(): GuardSession;
  /** Writes what was learned and closes the session, when this guard opened it. */
  close(): Promise<void>;
}

/**
 * Guards an AI SDK agent loop. `source` is an open session, or the options to open one on first use
 * (`{}`: the `precise` preset, state in the project's `.narrowing/`).
 */
export function narrowingForAiSdk(source: GuardSource = {}, options: AiSdkGuardOptions = {}): AiSdkGuard {
  const handle = guardHandle(source);
  /** A check of this guard said halt: the run is over once the model has answered. */
  let halted = false;
  /** Whether `prepareStep` is in use, and the step it gave the model to answer without tools. */
  let prepares = false;
  let answerStep: number | undefined;

  /** The tools the loop offers (seen in an approval request, or given to `wrapTools`). */
  let toolNames: readonly string[] | undefined;
  /** Tools refused for the rest of the run: no longer offered. */
  const switchedOff = new Set<string>();
  /** The warning of each warned call, by call id, until the model has read it. */
  const warnings = new Map<string, string>();

  /** What a verdict means for the loop: a halt ends it, a switch-off hides a tool, a warning travels. */
  const noteVerdict = (verdict: SafeCheck, toolName: string, callId: string | undefined) => {
    if (!verdict.ok) return;
    const { check } = verdict;
    if (check.verdict === 'halt') halted = true;
    if ((check.verdict === 'block' || check.verdict === 'halt') && SWITCHING_OFF_RULES.has(check.rule ?? ''))
      switchedOff.add(toolName);
    if (check.verdict === 'warn' && callId !== undefined) {
      warnings.set(callId, verdictText(check));
      if (warnings.size > MAX_WARNINGS) warnings.delete(warnings.keys().next().value as string);
    }
  };

  const ending = () => halted || handle.session().isDone();

  /** The steps whose usage the budget has counted (`prepareStep` and `stopWhen` both see them). */
  const counted = new WeakSet<object>();
  /** Counts the usage of the steps not counted yet. */
  const countUsage = (steps: readonly unknown[] | undefined) => {
    if (!Array.isArray(steps)) return;
    for (const step of steps) {
      if (typeof step !== 'object' || step === null || counted.has(step)) continue;
      counted.add(step);
      const tokens = stepTokens((step as { usage?: unknown }).usage);
      if (tokens !== undefined) countModelTokensSafely(handle, tokens);
    }
  };
  /** Why the next step is the model's last, for its budget. */
  const budgetEnding = (): string | undefined => wrapUpReasonSafely(handle);

  /** The calls approved in the current step, each with what tells its duplicates how it ended. */
  const approved = new Map<string, (answer: TwinAnswer | undefined) => void>();
  let approvalStep: number | undefined;

  const toolApproval = ({ toolCall, messages, tools }: AiSdkApprovalRequest): AiSdkApprovalStatus => {
    if (tools !== undefined && tools !== null && typeof tools === 'object') toolNames ??= Object.keys(tools);
    const proposal = toolCallToProposal(toolCall.toolName, toolCall.input, {
      callId: toolCall.toolCallId,
      step: messages.length,
    });
    const session = handle.session();
    if (approvalStep !== messages.length) {
      // Calls of an earlier step whose end was never reported hold no duplicate back.
      for (const settle of approved.values()) settle(undefined);
      approved.clear();
      approvalStep = messages.length;
    }
    const claim = claimSafely(session, proposal);
    if (claim?.role === 'duplicate') return coalescedApproval(session, proposal, claim.settled);
    const verdict = checkSafely(session, proposal, options);
    noteVerdict(verdict, toolCall.toolName, toolCall.toolCallId);
    const refusal = refusalText(verdict, options);
    if (claim?.role === 'first') {
      if (refusal !== undefined) claim.settle({ status: 'refused', message: refusal });
      else approved.set(toolCall.toolCallId, claim.settle);
    }
    return refusal === undefined ? 'not-applicable' : { type: 'denied', reason: refusal };
  };

  /**
   * A duplicate of a call in the same step: the SDK runs approved calls only after every call of
   * the step was approved, so it cannot wait for its twin. It is denied, and the model reads the
   * twin's refusal, or that the twin's result, beside it, is the answer to both.
   */
  function coalescedApproval(
    session: GuardSession,
    proposal: Proposal,
    settled: TwinAnswer | undefined,
  ): AiSdkApprovalStatus {
    if (settled?.status === 'refused') {
      coalesceSafely(session, proposal, settled, options);
      return { type: 'denied', reason: settled.message };
    }
    const reason = coalescedText(proposal);
    try {
      session.noteCoalesced(proposal, reason);
    } catch {
      // The journal reports its own problems; the duplicate is denied all the same.
    }
    return { type: 'denied', reason };
  }

  const onToolExecutionEnd = ({ toolCall, toolOutput, toolExecutionMs, messages }: AiSdkToolExecutionEnd) => {
    const settle = approved.get(toolCall.toolCallId);
    approved.delete(toolCall.toolCallId);
    if (toolOutput.type === 'tool-error' && isCancellation(toolOutput.error)) {
      // Cancelled through its abort signal: nothing is learned, and a duplicate runs on its own.
      settle?.(undefined);
      return;
    }
    const result = toolOutput.type === 'tool-result' ? toolOutput.output : asFailure(toolOutput.error);
    const outcome = () =>
      toolCallToOutcome(toolCall.toolName, toolCall.input, result, {
        callId: toolCall.toolCallId,
        step: messages.length,
        durationMs: toolExecutionMs,
      });
    const record = recordSafely(handle.session(), outcome, options);
    settle?.(
      toolOutput.type === 'tool-result'
        ? { status: 'ran', value: toolOutput.output, failed: record?.outcome.success === false }
        : { status: 'threw', error: toolOutput.error },
    );
  };

  const prepareStep: AiSdkGuard['prepareStep'] = <MESSAGE, TOOL_NAME extends string = string>({
    stepNumber,
    steps,
    messages,
  }: {
    readonly stepNumber: number;
    readonly steps?: readonly unknown[];
    readonly messages?: MESSAGE[];
  }) => {
    if (stepNumber === 0) {
      // A new call of the loop: its own last step is still to come, and its tools are all offered.
      answerStep = undefined;
      switchedOff.clear();
      if (!handle.session().isDone()) halted = false;
    }
    prepares = true;
    countUsage(steps);
    const settings: AiSdkStepSettings<MESSAGE, TOOL_NAME> = {};
    const warned = messages === undefined ? undefined : withWarnings(messages as StepMessage[], warnings);
    if (warned !== undefined) settings.messages = warned as MESSAGE[];
    const overBudget = answerStep === undefined && !ending() ? budgetEnding() : undefined;
    if (answerStep !== undefined || overBudget !== undefined || ending()) {
      answerStep ??= stepNumber;
      settings.activeTools = [];
      settings.toolChoice = 'none';
      if (overBudget !== undefined && messages !== undefined) {
        // The model reads why it has no tools left, and answers with what it has.
        const told = { role: 'user', content: `[narrowing] ${overBudget}` } as MESSAGE;
        settings.messages = [...(settings.messages ?? messages), told];
      }
    } else if (switchedOff.size > 0 && toolNames !== undefined) {
      settings.activeTools = toolNames.filter((name) => !switchedOff.has(name)) as TOOL_NAME[];
    }
    return Object.keys(settings).length === 0 ? undefined : settings;
  };

  const stopWhen = ({ steps }: { readonly steps: readonly unknown[] }) => {
    if (!prepares) {
      countUsage(steps);
      return ending() || budgetEnding() !== undefined;
    }
    return answerStep !== undefined && steps.length > answerStep;
  };

  function wrapTools<TOOLS extends Record<string, AiSdkExecutableTool>>(tools: TOOLS): TOOLS {
    toolNames = Object.keys(tools);
    const wrapped: Record<string, AiSdkExecutableTool> = {};
    for (const [name, tool] of Object.entries(tools)) {
      const execute = tool.execute;
      wrapped[name] =
        execute === undefined
          ? tool
          : {
              ...tool,
              execute: isAsyncGeneratorFunction(execute)
                ? guardedStream(name, execute.bind(tool) as StreamingExecute)
                : guardedExecute(name, execute.bind(tool)),
            };
    }
    return wrapped as TOOLS;
  }

  /**
   * A streaming tool (`execute` is an `async function*`) stays one: each value it yields is passed
   * on as it comes, and the last one is what the guard learns from, as it is what the model reads.
   */
  function guardedStream(name: string, execute: StreamingExecute) {
    return async function* (input: unknown, callOptions: ExecuteOptions) {
      const proposal = proposalFor(name, input, callOptions);
      const session = handle.session();
      const claim = claimSafely(session, proposal);
      if (claim?.role === 'duplicate') {
        const answer =
          claim.settled ??
          (await waitForTwin(
            claim.twin,
            callOptions?.abortSignal ? { signal: callOptions.abortSignal } : {},
          ));
        const coalesced = coalesceSafely(session, proposal, answer, options);
        if (coalesced) {
          yield answerFrom(coalesced.twin);
          return;
        }
      }
      const first = claim?.role === 'first' ? claim : undefined;
      let settled: TwinAnswer | undefined;
      try {
        settled = yield* checkedStream(proposal, input, callOptions, execute);
      } catch (error) {
        settled = callOptions?.abortSignal?.aborted ? undefined : failureAnswer(error);
        throw error;
      } finally {
        first?.settle(settled);
      }
    };
  }

  /** Checks a streaming call, passes on what it yields, and records the last value. */
  async function* checkedStream(
    proposal: ReturnType<typeof proposalFor>,
    input: unknown,
    callOptions: ExecuteOptions,
    execute: StreamingExecute,
  ): AsyncGenerator<unknown, TwinAnswer | undefined> {
    const verdict = checkSafely(handle.session(), proposal, options);
    noteVerdict(verdict, proposal.tool, proposal.callId);
    const refusal = refusalText(verdict, options);
    if (refusal !== undefined) throw new NarrowingError('CALL_REFUSED', refusal);
    const signal = callOptions?.abortSignal;
    const startedAt = performance.now();
    let last: unknown;
    try {
      for await (const value of execute(input, callOptions)) {
        last = value;
        yield value;
      }
    } catch (error) {
      const durationMs = performance.now() - startedAt;
      if (!signal?.aborted)
        recordSafely(handle.session(), () => toolCallOutcomes.error(proposal, error, durationMs), options);
      throw error;
    }
    if (signal?.aborted) return undefined;
    const durationMs = performance.now() - startedAt;
    const record = recordSafely(
      handle.session(),
      () => toolCallOutcomes.result(proposal, last, durationMs),
      options,
    );
    return { status: 'ran', value: last, failed: record?.outcome.success === false };
  }

  function proposalFor(name: string, input: unknown, callOptions: ExecuteOptions | undefined) {
    return toolCallToProposal(name, input, {
      ...(callOptions?.toolCallId !== undefined && { callId: callOptions.toolCallId }),
      ...(Array.isArray(callOptions?.messages) && { step: callOptions.messages.length }),
    });
  }

  function guardedExecute(name: string, execute: (input: unknown, options: unknown) => unknown) {
    return async (input: unknown, callOptions: ExecuteOptions) => {
      const proposal = toolCallToProposal(name, input, {
        ...(callOptions?.toolCallId !== undefined && { callId: callOptions.toolCallId }),
        ...(Array.isArray(callOptions?.messages) && { step: callOptions.messages.length }),
      });
      const result = await guardedCall(
        handle.session(),
        proposal,
        () => execute(input, callOptions),
        toolCallOutcomes,
        { ...options, ...(callOptions?.abortSignal && { signal: callOptions.abortSignal }) },
      );
      if (result.check !== undefined) noteVerdict({ ok: true, check: result.check }, name, proposal.callId);
      switch (result.status) {
        case 'ran':
          return result.value;
        case 'refused':
          throw new NarrowingError('CALL_REFUSED', result.message);
        case 'threw':
          throw result.error;
        case 'cancelled':
          throw result.reason;
        case 'coalesced':
          return answerFrom(result.twin);
      }
    };
  }

  return {
    toolApproval,
    onToolExecutionEnd,
    prepareStep,
    stopWhen,
    wrapTools,
    session: () => handle.session(),
    close: () => handle.close(),
  };
}

/** The tokens of a step (its request and its output), from its `usage`; undefined when not reported. */
function stepTokens(usage: unknown): number | undefined {
  if (typeof usage !== 'object' || usage === null) return undefined;
  const { totalTokens, inputTokens, outputTokens } = usage as Record<string, unknown>;
  return reportedTokens(totalTokens, inputTokens, outputTokens);
}

/** The answer of a call coalesced with `twin`: the twin's value, or the twin's error thrown again. */
function answerFrom(twin: TwinAnswer): unknown {
  if (twin.status === 'ran') return twin.value;
  if (twin.status === 'threw') throw twin.error;
  throw new NarrowingError('CALL_REFUSED', twin.message);
}

/** What a thrown refusal or error tells the duplicates of the call. */
function failureAnswer(error: unknown): TwinAnswer {
  if (isNarrowingError(error) && error.code === 'CALL_REFUSED')
    return { status: 'refused', message: error.message };
  return { status: 'threw', error };
}

type StreamingExecute = (input: unknown, options: unknown) => AsyncIterable<unknown>;

function isAsyncGeneratorFunction(fn: unknown): boolean {
  return Object.prototype.toString.call(fn) === '[object AsyncGeneratorFunction]';
}

interface ExecuteOptions {
  readonly toolCallId?: string;
  readonly messages?: readonly unknown[];
  readonly abortSignal?: AbortSignal;
}
