/**
 * The guarded agent loop: control flow only. Each step checks the stopping conditions, fits the
 * context, asks the model (through the provider runner), accounts for what it spent, and then runs
 * the tool calls through the guard or ends the turn. Every change of state goes through the state
 * machine and is reported as an event.
 */
import type {
  LanguageModelV3,
  LanguageModelV3Message,
  LanguageModelV3ToolCallPart,
  LanguageModelV3ToolResultPart,
} from '@ai-sdk/provider';
import { toolCallToOutcome, toolCallToProposal } from '../adapters/tool-call/convert.js';
import { BUDGET_RULES } from '../core/budget.js';
import { isNarrowingError, NarrowingError } from '../core/errors.js';
import { ToolPolicyIndex } from '../core/policy.js';
import { REPEATED_REFUSAL_RULE } from '../core/refusal-streak.js';
import type { Outcome } from '../core/types.js';
import { guardedCall } from '../guard/guarded-call.js';
import { COALESCED_RULE, type TwinAnswer } from '../guard/in-flight.js';
import { type OpenGuardOptions, openGuard } from '../guard/open.js';
import type { GuardSession } from '../guard/session.js';
import { type AgentBudget, RunBudget } from './budget.js';
import { type ContextOptions, type ConversationEntry, fitContext, type InternalReason } from './context.js';
import type { AgentEvent, RunTotals, ToolResultStatus } from './events.js';
import { type AgentModel, asLanguageModelV3 } from './model.js';
import {
  type AgentRunState,
  loadRunState,
  RUN_STATE_VERSION,
  runStatePath,
  saveRunState,
} from './persist.js';
import {
  type ModelResponse,
  type ModelToolCall,
  type RetryOptions,
  requestModel,
  type TokenUsage,
} from './provider.js';
import { type AgentState, StateMachine, type TerminalState } from './states.js';
import { inToolSpan } from './tool-span.js';
import { type AgentTool, modelTools } from './tools.js';

export interface AgentOptions {
  /**
   * Any AI SDK language model of the AI SDK 6 line (`LanguageModelV3`) or the AI SDK 5 line
   * (`LanguageModelV2`): OpenAI-compatible servers, OpenAI, Anthropic… Other versions are refused
   * with `MODEL_UNSUPPORTED`.
   */
  readonly model: AgentModel;
  readonly tools?: readonly AgentTool[];
  /** An open guard session (kept open by the agent), or the options to open one (closed with the agent). */
  readonly guard?: GuardSession | OpenGuardOptions;
  readonly system?: string;
  /** Stream the model's responses (default) or wait for each whole. */
  readonly stream?: boolean;
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
  /** Steps, tokens, cost and time. Default: the guard policy's `budget`. */
  readonly budget?: AgentBudget;
  /** The price of a model response in US dollars, for the cost limit. Default: free. */
  readonly cost?: (usage: TokenUsage) => number;
  readonly context?: ContextOptions;
  /** Responses cut off by the output limit that are continued in a run. Default 3. */
  readonly maxTokensRecoveries?: number;
  readonly retry?: Partial<RetryOptions>;
  /**
   * Asked for the next user message when the model ends its turn; the run waits for input
   * meanwhile. Undefined (or no function) completes the run; a throw ends it in `error`.
   */
  readonly input?: (run: {
    readonly text: string;
    /** Aborted when the run is cancelled or runs out of time. */
    readonly signal: AbortSignal;
  }) => Promise<string | undefined> | string | undefined;
  readonly onEvent?: (event: AgentEvent) => void;
  /**
   * Where the run state is kept between steps, to resume from. Default: in the guard's state
   * directory, by session id, when the guard keeps state on disk; `false` for nowhere.
   */
  readonly persist?: string | false;
  /** Milliseconds, for the run's time limit. Default `Date.now`. */
  readonly clock?: () => number;
  /** Waits between retries (tests pass one that does not wait). */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly random?: () => number;
}

export interface AgentResult {
  readonly state: TerminalState;
  /** Why the run ended, in a sentence. */
  readonly reason: string;
  /** The model's last answer (continuations included). */
  readonly text: string;
  /** The conversation as the user sees it: without the loop's internal messages. */
  readonly messages: readonly LanguageModelV3Message[];
  readonly totals: RunTotals;
  /** The error that ended the run in `error`, when there was one. */
  readonly error?: unknown;
}

export interface RunOptions {
  readonly signal?: AbortSignal;
}

export interface Agent {
  readonly session: GuardSession;
  readonly state: AgentState;
  /** Where the run state is saved, when it is. */
  readonly persistPath: string | undefined;
  /** Gives the agent a task (or the next message) and runs until the run ends. */
  run(task: string, options?: RunOptions): Promise<AgentResult>;
  /** Continues the saved run without a new message: after a crash, or once a limit was raised. */
  resume(options?: RunOptions): Promise<AgentResult>;
  snapshot(): AgentRunState;
  /** Saves the run state and closes the guard when the agent opened it. */
  close(): Promise<void>;
}

const CONTINUE =
  'Your last response was cut off by the output token limit. Continue exactly where it stopped, ' +
  'without repeating what you already wrote.';

/** The rules after which a tool stays switched off for the run. */
const DISABLING_RULES = new Set(['non-advancing', 'tool-health']);

/**
 * The guard's halts after which the model is given one last turn, without tools, to answer: the
 * run ends because nothing more is worth trying, not because a limit leaves no room.
 */
const WRAP_UP_RULES = new Set([REPEATED_REFUSAL_RULE, 'convergence']);

const WRAP_UP =
  'No tools are available any more. Answer the user now: what was done, what was refused and why, ' +
  'and what is left to do.';

const STATE_OF_HALT: Record<string, TerminalState> = {
  [BUDGET_RULES.steps]: 'max_steps',
  [BUDGET_RULES.spend]: 'budget_exceeded',
  [BUDGET_RULES.time]: 'timed_out',
};

/** Opens the guard (unless given one), loads a saved run, and returns the agent. */
export async function createAgent(options: AgentOptions): Promise<Agent> {
  const model = asLanguageModelV3(options.model);
  const ownsGuard = !isGuardSession(options.guard);
  const session = isGuardSession(options.guard) ? options.guard : await openGuard(options.guard ?? {});
  try {
    return new GuardedAgent({ ...options, model }, session, ownsGuard);
  } catch (error) {
    if (ownsGuard) await session.close();
    throw error;
  }
}

function isGuardSession(value: AgentOptions['guard']): value is GuardSession {
  return typeof value === 'object' && value !== null && 'check' in value && 'engine' in value;
}

interface Ending {
  readonly state: TerminalState;
  readonly reason: string;
  readonly error?: unknown;
  /** The model is given one last turn without tools before the run ends. */
  readonly wrapUp?: boolean;
}

/** What came of one tool call, for the model and for the loop. */
interface ToolStep {
  readonly part: LanguageModelV3ToolResultPart;
  readonly status: ToolResultStatus;
  /** The guard switched the tool off for the run. */
  readonly disabled?: boolean;
  readonly halt?: Ending;
  readonly cancelled?: boolean;
}

/** Why a call was aborted from inside the loop: the run's time ran out. */
class Deadline extends Error {}

class GuardedAgent implements Agent {
  readonly session: GuardSession;
  readonly persistPath: string | undefined;
  private readonly machine: StateMachine;
  private readonly tools: ReadonlyMap<string, AgentTool>;
  private readonly toolPolicies: ToolPolicyIndex;
  private readonly budget: RunBudget;
  private readonly now: () => number;
  private readonly emit: (event: AgentEvent) => void;
  private entries: ConversationEntry[] = [];
  private recoveries = 0;
  private offered = new Set<string>();
  private reason = 'created';
  private answer = '';
  private closed = false;
  private busy = false;
  /** The guard halted the run: the next request offers no tools, and its answer ends the run. */
  private wrappingUp: Ending | undefined;

  constructor(
    private readonly options: AgentOptions & { readonly model: LanguageModelV3 },
    session: GuardSession,
    private readonly ownsGuard: boolean,
  ) {
    this.session = session;
    this.now = options.clock ?? Date.now;
    const onEvent = options.onEvent;
    this.emit = onEvent ? (event) => onEvent(event) : () => {};
    this.tools = new Map((options.tools ?? []).map((tool) => [tool.name, tool]));
    this.toolPolicies = new ToolPolicyIndex(session.policy);
    this.budget = new RunBudget(options.budget ?? session.policy.budget, this.now());
    this.persistPath =
      options.persist === false
        ? undefined
        : (options.persist ??
          (session.stateDir === undefined ? undefined : runStatePath(session.stateDir, session.sessionId)));
    const saved = this.persistPath === undefined ? undefined : loadRunState(this.persistPath);
    this.machine = new StateMachine(saved?.state ?? 'idle', (change) =>
      this.emit({ type: 'state', ...change }),
    );
    if (saved) this.restore(saved);
  }

  get state(): AgentState {
    return this.machine.state;
  }

  async run(task: string, options: RunOptions = {}): Promise<AgentResult> {
    this.assertNotBusy();
    this.closeDanglingCalls('the run was given a new message before this call returned');
    this.session.newRun('user');
    this.budget.newRun(this.now());
    this.recoveries = 0;
    this.offered.clear();
    this.answer = '';
    this.wrappingUp = undefined;
    this.entries.push({ message: { role: 'user', content: [{ type: 'text', text: task }] } });
    if (this.machine.state !== 'running') this.machine.transition('running', 'a new task');
    return this.loop(options.signal);
  }

  async resume(options: RunOptions = {}): Promise<AgentResult> {
    this.assertNotBusy();
    if (this.entries.length === 0) {
      throw new NarrowingError(
        'USAGE',
        `there is no run to resume in session ${this.session.sessionId}: give a task`,
      );
    }
    this.closeDanglingCalls('the run stopped before this call returned; call it again if you still need it');
    if (this.machine.state !== 'running') this.machine.transition('running', 'resumed');
    return this.loop(options.signal);
  }

  snapshot(): AgentRunState {
    return {
      version: RUN_STATE_VERSION,
      sessionId: this.session.sessionId,
      state: this.machine.state,
      reason: this.reason,
      entries: this.entries,
      recoveries: this.recoveries,
      offered: [...this.offered],
      budget: this.budget.snapshot(this.now()),
      guard: this.session.engine.snapshot(),
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.save();
    if (this.ownsGuard) await this.session.close();
  }

  private restore(saved: AgentRunState): void {
    this.session.engine.restore(saved.guard);
    this.budget.restore(saved.budget, this.now());
    this.entries = [...saved.entries];
    this.recoveries = saved.recoveries;
    this.offered = new Set(saved.offered);
    this.reason = saved.reason;
  }

  private save(): void {
    if (this.persistPath !== undefined) saveRunState(this.persistPath, this.snapshot());
  }

  // ---- the loop -------------------------------------------------------------------------------

  private async loop(outer: AbortSignal | undefined): Promise<AgentResult> {
    this.busy = true;
    const control = new AbortController();
    const onAbort = () => control.abort(outer?.reason);
    outer?.addEventListener('abort', onAbort, { once: true });
    const deadline = this.startDeadline(control);
    try {
      let ending: Ending | undefined;
      while (!ending) {
        try {
          ending = await this.step(control.signal, outer);
        } catch (error) {
          // Not one of the ways a run ends (a state file that cannot be written, a throwing
          // callback): the run still ends, in `error`, with it.
          ending = { state: 'error', reason: errorText(error), error };
        }
      }
      return this.end(ending);
    } finally {
      clearTimeout(deadline);
      outer?.removeEventListener('abort', onAbort);
      this.busy = false;
    }
  }

  /** One step; returns how the run ends, or undefined to go on. */
  private async step(signal: AbortSignal, outer: AbortSignal | undefined): Promise<Ending | undefined> {
    const preflight = this.preflight(outer);
    if (preflight) return preflight;
    this.warnNearLimits();
    this.wrapUpWithinReserve();
    this.fitContext();
    const stepNumber = this.budget.usage(this.now()).steps + 1;
    this.emit({ type: 'step', step: stepNumber });

    let response: ModelResponse;
    try {
      response = await requestModel(this.options.model, this.callOptions(), {
        stream: this.options.stream ?? true,
        signal,
        onEvent: this.emit,
        ...(this.options.retry && { retry: this.options.retry }),
        ...(this.options.sleep && { sleep: this.options.sleep }),
        ...(this.options.random && { random: this.options.random }),
      });
    } catch (error) {
      return this.abortedEnding(signal, outer) ?? { state: 'error', reason: errorText(error), error };
    }
    this.account(response);
    this.entries.push({ message: assistantMessage(response) });
    this.save();

    const wrappingUp = this.wrappingUp;
    if (wrappingUp) {
      this.wrappingUp = undefined;
      this.answer = response.text;
      this.closeDanglingCalls(`not run: ${wrappingUp.reason}`);
      return { state: wrappingUp.state, reason: wrappingUp.reason };
    }
    if (response.toolCalls.length > 0) {
      this.answer = '';
      const spent = this.budget.overspent(this.now());
      if (spent) {
        this.closeDanglingCalls(`not run: ${spent.reason}`);
        return { state: spent.state, reason: spent.reason };
      }
      return this.runTools(response.toolCalls, stepNumber, signal, outer);
    }

    this.answer += response.text;
    if (response.finishReason === 'length' && this.recoveries < this.maxRecoveries()) {
      this.recoveries++;
      this.addInternal('max_tokens_recovery', CONTINUE);
      this.emit({ type: 'recovery', count: this.recoveries, max: this.maxRecoveries() });
      return undefined;
    }
    return this.endTurn(signal, outer);
  }

  /** Cancelled, out of time, out of steps or budget: checked before each request. */
  private preflight(outer: AbortSignal | undefined): Ending | undefined {
    if (outer?.aborted) return { state: 'cancelled', reason: cancelReason(outer) };
    const limit = this.budget.exceeded(this.now());
    if (limit) return { state: limit.state, reason: limit.reason };
    // The guard's own ending (stopped, halted, every approach ruled out, its budget) comes as the
    // halt of the next tool call, which carries the reason and the rule.
    return undefined;
  }

  private warnNearLimits(): void {
    for (const warning of this.budget.warnings(this.now())) {
      this.addInternal('budget_reserve', `[budget] ${warning.text}`);
      this.emit({ type: 'budget-warning', kind: warning.kind, text: warning.text });
    }
  }

  /**
   * What is left of the tokens or the money is kept for the answer: the next request is the model's
   * last, without tools, and the run ends over budget with that answer.
   */
  private wrapUpWithinReserve(): void {
    if (this.wrappingUp) return;
    const reserve = this.budget.spendReserveReached(this.now());
    if (!reserve) return;
    this.wrappingUp = { state: reserve.state, reason: reserve.reason };
    const text = `[budget] ${reserve.reason} ${WRAP_UP}`;
    this.addInternal('budget_reserve', text);
    this.emit({ type: 'budget-warning', kind: reserve.kind, text });
  }

  private fitContext(): void {
    const context = this.options.context;
    if (!context || (context.strategy ?? 'none') === 'none') return;
    const fitted = fitContext(this.entries, context);
    if (fitted.removed === 0) return;
    this.entries = [...fitted.entries];
    // The model no longer sees what it did: the guard starts its run-scoped streaks over too.
    this.session.newRun('compact');
    this.emit({ type: 'compaction', strategy: context.strategy ?? 'none', removed: fitted.removed });
  }

  private account(response: ModelResponse): void {
    const { inputTokens, outputTokens } = response.usage;
    const costUsd = this.options.cost?.(response.usage) ?? 0;
    this.budget.spend({ tokens: inputTokens + outputTokens, costUsd });
    // The guard's policy budget is the session's: the model's spend counts there too, so a limit the
    // policy sets halts the next tool call even when this agent was given a budget of its own.
    this.session.engine.addUsage({ tokens: inputTokens + outputTokens, costUsd });
    this.emit({ type: 'usage', inputTokens, outputTokens, costUsd, totals: this.budget.usage(this.now()) });
  }

  /** The model ended its turn: wait for the next message when there is someone to ask, else complete. */
  private async endTurn(signal: AbortSignal, outer: AbortSignal | undefined): Promise<Ending | undefined> {
    const ask = this.options.input;
    if (!ask) return { state: 'completed', reason: 'the model ended its turn' };
    this.machine.transition('waiting_for_input', 'the model ended its turn');
    this.save();
    let next: string | undefined;
    try {
      next = await ask({ text: this.answer, signal });
    } catch (error) {
      // Returning undefined is how input says there is no more; a throw is input that broke.
      return (
        this.abortedEnding(signal, outer) ?? {
          state: 'error',
          reason: `the next message could not be read: ${errorText(error)}`,
          error,
        }
      );
    }
    const aborted = this.abortedEnding(signal, outer);
    if (aborted) return aborted;
    if (next === undefined) return { state: 'completed', reason: 'no further input' };
    this.session.newRun('user');
    this.budget.newRun(this.now());
    this.recoveries = 0;
    this.answer = '';
    this.entries.push({ message: { role: 'user', content: [{ type: 'text', text: next }] } });
    this.machine.transition('running', 'a new message');
    return undefined;
  }

  // ---- tools ----------------------------------------------------------------------------------

  private async runTools(
    calls: readonly ModelToolCall[],
    step: number,
    signal: AbortSignal,
    outer: AbortSignal | undefined,
  ): Promise<Ending | undefined> {
    this.machine.transition('waiting_for_tool', `${calls.length} tool call${calls.length === 1 ? '' : 's'}`);
    const results: LanguageModelV3ToolResultPart[] = [];
    const disabled: string[] = [];
    let ending: Ending | undefined;
    for (const call of calls) {
      const done: ToolStep = ending
        ? { part: toolResult(call, 'error-text', `[not run: ${ending.reason}]`), status: 'not-run' }
        : await inToolSpan(this.session, call, () => this.runTool(call, step, signal));
      results.push(done.part);
      this.emit({
        type: 'tool-result',
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        status: done.status,
        output:
          done.part.output.type === 'text' || done.part.output.type === 'error-text'
            ? done.part.output.value
            : '',
      });
      if (done.disabled) disabled.push(call.toolName);
      if (done.cancelled)
        ending = this.abortedEnding(signal, outer) ?? { state: 'cancelled', reason: 'cancelled' };
      else if (done.halt) ending = done.halt;
    }
    this.entries.push({ message: { role: 'tool', content: results } });
    if (!ending) this.offerAlternatives(disabled);
    if (ending?.wrapUp) {
      // One last turn: the model reads why the run ends and answers, with no tools to call.
      this.wrappingUp = ending;
      this.addInternal('halt', `[narrowing] ${ending.reason} ${WRAP_UP}`);
      this.save();
      this.machine.transition('running', 'halted: one last turn to answer');
      return undefined;
    }
    this.save();
    if (ending) return ending;
    this.machine.transition('running', 'tool results are in');
    return undefined;
  }

  private async runTool(call: ModelToolCall, step: number, signal: AbortSignal): Promise<ToolStep> {
    const args = parseArguments(call.input);
    const tool = this.tools.get(call.toolName);
    if (args === undefined) {
      this.emit({ type: 'tool-call', ...callFacts(call), input: call.input, verdict: undefined });
      const text = `The arguments of ${call.toolName} are not a JSON object: ${call.input.slice(0, 200)}`;
      return { part: toolResult(call, 'error-text', text), status: 'not-run' };
    }
    const extras = {
      step,
      callId: call.toolCallId,
      ...(tool?.annotations && { annotations: tool.annotations }),
      ...(tool && { inputSchema: tool.inputSchema }),
    };
    const proposal = toolCallToProposal(call.toolName, args, extras);
    let outcome: Outcome | undefined;
    let abandoned = false;
    const learn = (value: unknown, durationMs: number): Outcome => {
      outcome = { ...toolCallToOutcome(call.toolName, args, value, { ...extras, durationMs }), proposal };
      return outcome;
    };
    const result = await guardedCall(
      this.session,
      proposal,
      () => {
        if (!tool)
          throw new Error(`There is no tool named ${call.toolName}. The tools are: ${this.toolNames()}.`);
        return abandonOnAbort(tool.execute(args, { signal, toolCallId: call.toolCallId }), signal, () => {
          abandoned = true;
        });
      },
      {
        result: (_proposal, value, ms) => learn(value, ms),
        error: (_proposal, error, ms) => learn(error instanceof Error ? error : new Error(String(error)), ms),
      },
      { signal, reportFault: (fault) => this.emit({ type: 'guard-fault', message: fault.message }) },
    );
    const check = result.check;
    this.emit({
      type: 'tool-call',
      ...callFacts(call),
      input: args,
      verdict: result.status === 'coalesced' ? 'coalesced' : check?.verdict,
      ...(result.status === 'coalesced'
        ? { rule: COALESCED_RULE }
        : check?.rule !== undefined && { rule: check.rule }),
    });
    if (result.status === 'coalesced') return coalescedStep(call, args, result.twin);
    if (result.status === 'cancelled') {
      return abandoned
        ? {
            part: toolResult(
              call,
              'error-text',
              '[abandoned: the run ended while this call was still running]',
            ),
            status: 'abandoned',
            cancelled: true,
          }
        : {
            part: toolResult(call, 'error-text', '[not run: cancelled]'),
            status: 'not-run',
            cancelled: true,
          };
    }
    if (result.status === 'refused') {
      const part = toolResult(call, 'error-text', result.message);
      const rule = check?.rule ?? '';
      const halt: Ending | undefined =
        check?.verdict !== 'halt'
          ? undefined
          : WRAP_UP_RULES.has(rule)
            ? { state: 'halted', reason: check.reason ?? result.message, wrapUp: true }
            : { state: STATE_OF_HALT[rule] ?? 'error', reason: check.reason ?? result.message };
      const disabled = check?.rule !== undefined && DISABLING_RULES.has(check.rule);
      return { part, status: 'refused', disabled, ...(halt && { halt }) };
    }
    const warning = result.warning === undefined ? '' : `\n\n${result.warning}`;
    const failed = result.status === 'threw' || outcome?.success === false;
    const text =
      result.status === 'threw'
        ? errorText(result.error)
        : ((outcome?.success === false ? (outcome.error ?? outcome.content) : outcome?.content) ?? '');
    return {
      part: toolResult(call, failed ? 'error-text' : 'text', `${text}${warning}`),
      status: failed ? 'failed' : 'ran',
    };
  }

  /**
   * A tool switched off for the run: the policy's alternatives among this agent's tools are offered
   * once, so the model changes approach instead of the run stopping at the first dead end.
   */
  private offerAlternatives(disabled: readonly string[]): void {
    for (const tool of disabled) {
      if (this.offered.has(tool)) continue;
      const alternatives = this.toolPolicies
        .resolve(tool)
        .alternatives.filter((name) => this.tools.has(name));
      if (alternatives.length === 0) continue;
      this.offered.add(tool);
      const text =
        `${tool} is switched off for the rest of this run. ` +
        `Tools that can do the job another way: ${alternatives.join(', ')}.`;
      this.addInternal('alternatives', `[narrowing] ${text}`);
      this.emit({ type: 'alternatives', tool, alternatives, text });
    }
  }

  // ---- endings, the deadline and the prompt ------------------------------------------------------

  private end(ending: Ending): AgentResult {
    this.reason = ending.reason;
    this.machine.transition(ending.state, ending.reason);
    this.save();
    return {
      state: ending.state,
      reason: ending.reason,
      text: this.answer,
      messages: this.entries.filter((entry) => entry.internal === undefined).map((entry) => entry.message),
      totals: this.budget.usage(this.now()),
      ...(ending.error !== undefined && { error: ending.error }),
    };
  }

  /** Cancelled by the caller or out of time, when the signal is why a call stopped. */
  private abortedEnding(signal: AbortSignal, outer: AbortSignal | undefined): Ending | undefined {
    if (!signal.aborted) return undefined;
    if (signal.reason instanceof Deadline) {
      const limit = this.budget.exceeded(this.now());
      return { state: 'timed_out', reason: limit?.reason ?? signal.reason.message };
    }
    return { state: 'cancelled', reason: cancelReason(outer ?? signal) };
  }

  /** Aborts what is in flight when the run's time runs out. */
  private startDeadline(control: AbortController): ReturnType<typeof setTimeout> | undefined {
    const timeoutMs = (this.options.budget ?? this.session.policy.budget).timeoutMs;
    if (timeoutMs === undefined) return undefined;
    const left = Math.max(0, timeoutMs - this.budget.usage(this.now()).elapsedMs);
    const timer = setTimeout(
      () =>
        control.abort(new Deadline(`This run reached its time limit of ${Math.round(timeoutMs / 1000)} s.`)),
      left,
    );
    timer.unref?.();
    return timer;
  }

  private callOptions() {
    const tools = this.wrappingUp ? [] : modelTools([...this.tools.values()]);
    const system: LanguageModelV3Message[] = this.options.system
      ? [{ role: 'system', content: this.options.system }]
      : [];
    return {
      prompt: [...system, ...this.entries.map((entry) => entry.message)],
      ...(tools.length > 0 && { tools, toolChoice: { type: 'auto' as const } }),
      ...(this.options.maxOutputTokens !== undefined && { maxOutputTokens: this.options.maxOutputTokens }),
      ...(this.options.temperature !== undefined && { temperature: this.options.temperature }),
    };
  }

  private addInternal(internal: InternalReason, text: string): void {
    this.entries.push({ internal, message: { role: 'user', content: [{ type: 'text', text }] } });
  }

  /** Answers tool calls left without results, so the conversation stays one the model accepts. */
  private closeDanglingCalls(why: string): void {
    const last = this.entries[this.entries.length - 1]?.message;
    if (last?.role !== 'assistant') return;
    const calls = last.content.filter(
      (part): part is LanguageModelV3ToolCallPart => part.type === 'tool-call',
    );
    if (calls.length === 0) return;
    this.entries.push({
      message: {
        role: 'tool',
        content: calls.map((call) => ({
          type: 'tool-result',
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          output: { type: 'error-text', value: `[${why}]` },
        })),
      },
    });
    if (this.machine.state === 'waiting_for_tool') this.machine.transition('running', why);
  }

  private assertNotBusy(): void {
    if (this.busy) throw new NarrowingError('USAGE', 'the agent is already running: wait for its result');
  }

  private maxRecoveries(): number {
    return this.options.maxTokensRecoveries ?? 3;
  }

  private toolNames(): string {
    return [...this.tools.keys()].join(', ') || 'none';
  }
}

/** How long a tool may take to stop once its signal aborts before the run ends without it. */
const ABANDON_AFTER_MS = 250;

/**
 * A tool's result; or, when the signal aborts and the tool has not stopped shortly after, a
 * rejection with the signal's reason: a tool that ignores its signal cannot keep the run from ending
 * on time. What it settles with later is dropped.
 */
function abandonOnAbort(value: unknown, signal: AbortSignal, onAbandon: () => void): unknown {
  if (!isThenable(value)) return value;
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const abandon = () => {
      onAbandon();
      reject(signal.reason);
    };
    const onAbort = () => {
      timer = setTimeout(abandon, ABANDON_AFTER_MS);
      timer.unref?.();
    };
    const settle = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    value.then(
      (settled) => {
        settle();
        resolve(settled);
      },
      (error: unknown) => {
        settle();
        reject(error);
      },
    );
  });
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

function assistantMessage(response: ModelResponse): LanguageModelV3Message {
  const content: (LanguageModelV3ToolCallPart | { type: 'text'; text: string })[] = [];
  if (response.text !== '') content.push({ type: 'text', text: response.text });
  for (const call of response.toolCalls) {
    content.push({
      type: 'tool-call',
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      input: parseArguments(call.input) ?? call.input,
    });
  }
  return { role: 'assistant', content };
}

/**
 * A call issued in the same step as an identical one, answered from it: the model reads what the
 * first one returned (or why it was refused), and the tool did not run again.
 */
function coalescedStep(call: ModelToolCall, args: Record<string, unknown>, twin: TwinAnswer): ToolStep {
  if (twin.status === 'refused')
    return { part: toolResult(call, 'error-text', twin.message), status: 'coalesced' };
  if (twin.status === 'threw')
    return { part: toolResult(call, 'error-text', errorText(twin.error)), status: 'coalesced' };
  const outcome = toolCallToOutcome(call.toolName, args, twin.value);
  const text = (outcome.success ? outcome.content : (outcome.error ?? outcome.content)) ?? '';
  return { part: toolResult(call, outcome.success ? 'text' : 'error-text', text), status: 'coalesced' };
}

function toolResult(
  call: ModelToolCall,
  type: 'text' | 'error-text',
  value: string,
): LanguageModelV3ToolResultPart {
  return {
    type: 'tool-result',
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    output: { type, value },
  };
}

function callFacts(call: ModelToolCall): { toolCallId: string; toolName: string } {
  return { toolCallId: call.toolCallId, toolName: call.toolName };
}

/** The model's JSON arguments as an object; an empty text is no arguments; anything else is unreadable. */
function parseArguments(input: string): Record<string, unknown> | undefined {
  if (input.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(input);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function cancelReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name !== 'AbortError') return `cancelled: ${reason.message}`;
  if (typeof reason === 'string') return `cancelled: ${reason}`;
  return 'cancelled';
}

function errorText(error: unknown): string {
  if (isNarrowingError(error) || error instanceof Error) return error.message;
  return String(error);
}
