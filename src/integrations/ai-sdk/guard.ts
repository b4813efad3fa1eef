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
import { NarrowingError } from '../../core/errors.js';
import {
  checkSafely,
  type GuardFaultOptions,
  type GuardSession,
  type GuardSource,
  guardedCall,
  guardHandle,
  recordSafely,
  refusalText,
  type SafeCheck,
} from '../../guard/index.js';
import { asFailure, toolCallOutcomes } from '../tool-call-outcomes.js';

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

export interface AiSdkGuard {
  /** For `generateText`, `streamText` or `ToolLoopAgent`: denies a refused call with the reason. */
  readonly toolApproval: (request: AiSdkApprovalRequest) => AiSdkApprovalStatus;
  /** For the same call: records the outcome of each call that ran (denied calls never run). */
  readonly onToolExecutionEnd: (event: AiSdkToolExecutionEnd) => void;
  /**
   * For the same call: once the run is halted (the same refused call proposed again and again) or
   * nothing is left to try, the next step offers the model no tools, so it writes its answer.
   */
  readonly prepareStep: (options: {
    readonly stepNumber: number;
  }) => { activeTools: never[]; toolChoice: 'none' } | undefined;
  /**
   * A stop condition: true after the step without tools that `prepareStep` gave the model, or, when
   * `prepareStep` is not used, as soon as the run is halted or nothing is left to try.
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

  const noteHalt = (verdict: SafeCheck) => {
    if (verdict.ok && verdict.check.verdict === 'halt') halted = true;
  };
  const ending = () => halted || handle.session().isDone();

  const toolApproval = ({ toolCall, messages }: AiSdkApprovalRequest): AiSdkApprovalStatus => {
    const proposal = toolCallToProposal(toolCall.toolName, toolCall.input, {
      callId: toolCall.toolCallId,
      step: messages.length,
    });
    const verdict = checkSafely(handle.session(), proposal, options);
    noteHalt(verdict);
    const refusal = refusalText(verdict, options);
    return refusal === undefined ? 'not-applicable' : { type: 'denied', reason: refusal };
  };

  const onToolExecutionEnd = ({ toolCall, toolOutput, toolExecutionMs, messages }: AiSdkToolExecutionEnd) => {
    const result = toolOutput.type === 'tool-result' ? toolOutput.output : asFailure(toolOutput.error);
    const outcome = toolCallToOutcome(toolCall.toolName, toolCall.input, result, {
      callId: toolCall.toolCallId,
      step: messages.length,
      durationMs: toolExecutionMs,
    });
    recordSafely(handle.session(), outcome, options);
  };

  const prepareStep: AiSdkGuard['prepareStep'] = ({ stepNumber }) => {
    if (stepNumber === 0) {
      // A new call of the loop: its own last step is still to come.
      answerStep = undefined;
      if (!handle.session().isDone()) halted = false;
    }
    prepares = true;
    if (answerStep === undefined && !ending()) return undefined;
    answerStep ??= stepNumber;
    return { activeTools: [], toolChoice: 'none' };
  };

  const stopWhen = ({ steps }: { readonly steps: readonly unknown[] }) => {
    if (!prepares) return ending();
    return answerStep !== undefined && steps.length > answerStep;
  };

  function wrapTools<TOOLS extends Record<string, AiSdkExecutableTool>>(tools: TOOLS): TOOLS {
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
      const verdict = checkSafely(handle.session(), proposal, options);
      if (verdict.ok && verdict.check.verdict === 'halt') halted = true;
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
        if (!signal?.aborted)
          recordSafely(
            handle.session(),
            toolCallOutcomes.error(proposal, error, performance.now() - startedAt),
            options,
          );
        throw error;
      }
      if (!signal?.aborted)
        recordSafely(
          handle.session(),
          toolCallOutcomes.result(proposal, last, performance.now() - startedAt),
          options,
        );
    };
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
      if (result.check?.verdict === 'halt') halted = true;
      switch (result.status) {
        case 'ran':
          return result.value;
        case 'refused':
          throw new NarrowingError('CALL_REFUSED', result.message);
        case 'threw':
          throw result.error;
        case 'cancelled':
          throw result.reason;
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

type StreamingExecute = (input: unknown, options: unknown) => AsyncIterable<unknown>;

function isAsyncGeneratorFunction(fn: unknown): boolean {
  return Object.prototype.toString.call(fn) === '[object AsyncGeneratorFunction]';
}

interface ExecuteOptions {
  readonly toolCallId?: string;
  readonly messages?: readonly unknown[];
  readonly abortSignal?: AbortSignal;
}
