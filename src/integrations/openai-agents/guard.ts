/**
 * narrowing for the OpenAI Agents SDK (`@openai/agents`): a tool input guardrail checks each call
 * and rejects a refused one with the reason as the tool's output; an `errorFunction` hands the real
 * error to the guard (by default the SDK replaces it with a generic sentence) and to the model; the
 * runner's `agent_tool_end` event records each call that returned. A halt ends the run gracefully:
 * the model reads the halt as the tool's output, every guarded tool is then switched off
 * (`isEnabled`), and the model's next answer, written without tools, is the run's final output.
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
  recordSafely,
  refusalText,
  type TwinAnswer,
  verdictMeta,
  waitForTwin,
} from '../../guard/index.js';
import { asFailure } from '../tool-call-outcomes.js';

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
  run(data: { readonly toolCall: AgentsToolCall }): Promise<AgentsGuardrailOutput>;
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
    /** False once the run is halted or nothing is left to try: the model then answers without tools. */
    readonly isEnabled: () => boolean;
    readonly inputGuardrails: AgentsToolInputGuardrail[];
    /** Tells identical calls held back while this one ran what it returned. */
    readonly outputGuardrails: AgentsToolOutputGuardrail[];
    readonly errorFunction: (
      context: unknown,
      error: unknown,
      details?: { toolCall?: AgentsToolCall },
    ) => string;
  };
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
  /** Calls whose `agent_tool_end` must not be recorded: rejected by the guardrail, or already recorded as failures. */
  const settled = new Set<string>();
  /** A check of this guard said halt: the tools stay switched off. */
  let halted = false;
  const isEnabled = () => {
    try {
      return !(halted || handle.session().isDone());
    } catch {
      // A guard that cannot be asked leaves the tools as they were (its checks report the fault).
      return true;
    }
  };

  const inputGuardrail: AgentsToolInputGuardrail = {
    type: 'tool_input',
    name: NARROWING_GUARDRAIL,
    async run({ toolCall }) {
      const session = handle.session();
      const proposal = proposalOf(toolCall);
      const claim = claimSafely(session, proposal);
      if (claim?.role === 'duplicate') {
        const timeout = options.coalesceWaitMs === undefined ? {} : { timeoutMs: options.coalesceWaitMs };
        const answer = claim.settled ?? (await waitForTwin(claim.twin, timeout));
        const coalesced = coalesceSafely(session, proposal, answer, options);
        if (coalesced) {
          if (toolCall.callId !== undefined) settled.add(toolCall.callId);
          const message = twinText(coalesced.twin);
          return { outputInfo: { coalesced: true }, behavior: { type: 'rejectContent', message } };
        }
      }
      const first = claim?.role === 'first' ? claim : undefined;
      const verdict = checkSafely(session, proposal, options);
      const refusal = refusalText(verdict, options);
      if (refusal === undefined) {
        if (first && toolCall.callId !== undefined) running.set(toolCall.callId, first.settle);
        else first?.settle(undefined);
        return { behavior: { type: 'allow' } };
      }
      first?.settle({ status: 'refused', message: refusal });
      if (toolCall.callId !== undefined) settled.add(toolCall.callId);
      const info = verdict.ok ? infoOf(verdict.check, refusal) : { reason: refusal };
      // A halt is read by the model like a block; the tools are switched off from the next turn on.
      if (verdict.ok && verdict.check.verdict === 'halt') halted = true;
      return { outputInfo: info, behavior: { type: 'rejectContent', message: refusal } };
    },
  };

  const errorFunction = (
    _context: unknown,
    error: unknown,
    details?: { toolCall?: AgentsToolCall },
  ): string => {
    const toolCall = details?.toolCall;
    const text = errorText(error);
    if (toolCall?.name !== undefined) {
      if (toolCall.callId !== undefined) settled.add(toolCall.callId);
      recordSafely(handle.session(), outcomeOf(toolCall, asFailure(error)), options);
      settleRun(toolCall.callId, { status: 'threw', error: text });
    }
    return text;
  };

  /** Calls that passed the input guardrail, with what tells their held-back duplicates how they ended. */
  const running = new Map<string, (answer: TwinAnswer | undefined) => void>();
  const settleRun = (callId: string | undefined, answer: TwinAnswer | undefined) => {
    if (callId === undefined) return;
    running.get(callId)?.(answer);
    running.delete(callId);
  };

  const outputGuardrail: AgentsToolOutputGuardrail = {
    type: 'tool_output',
    name: NARROWING_GUARDRAIL,
    async run({ toolCall, output }) {
      try {
        const failed = outcomeOf(toolCall, output).success === false;
        settleRun(toolCall.callId, { status: 'ran', value: output, failed });
      } catch {
        settleRun(toolCall.callId, undefined);
      }
      return { behavior: { type: 'allow' } };
    },
  };

  const onToolEnd: AgentsGuard['onToolEnd'] = (_context, _agent, _tool, result, { toolCall }) => {
    if (!isFunctionCall(toolCall)) return;
    if (toolCall.callId !== undefined && settled.delete(toolCall.callId)) return;
    recordSafely(handle.session(), outcomeOf(toolCall, result), options);
  };

  return {
    toolOptions: {
      isEnabled,
      inputGuardrails: [inputGuardrail],
      outputGuardrails: [outputGuardrail],
      errorFunction,
    },
    onToolEnd,
    session: () => handle.session(),
    close: () => handle.close(),
  };
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
