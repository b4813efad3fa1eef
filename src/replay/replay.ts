/**
 * Feeds a recorded trace through the guard and says, call by call, what the guard would have done.
 * Deterministic: the clock comes from the trace, so the same trace and policy always give the same
 * verdicts.
 */

import { createToolCallAdapter } from '../adapters/tool-call/index.js';
import type { Policy } from '../core/policy.js';
import type {
  DomainAdapter,
  Mutable,
  Outcome,
  PersistedState,
  Proposal,
  RecordedVerdict,
} from '../core/types.js';
import {
  answersDuplicate,
  COALESCED_RULE,
  callIdentity,
  coalescedReason,
  type TwinAnswer,
} from '../guard/in-flight.js';
import { openGuardSync, resolvedForReuse } from '../guard/open.js';
import type { GuardSession } from '../guard/session.js';
import { traceResultToOutcome } from '../trace/outcome.js';
import type { CallEvent, ToolInfo, TraceEvent } from '../trace/types.js';
import { TraceClock } from './clock.js';
import { returnedExcerpt } from './returned.js';

/** Calls of a trace kept by id for a compaction that names them: far more than a context holds. */
const MAX_NAMED_CALLS = 10_000;

/** The part of a guard session a replay drives. */
export interface ReplayGuard extends Pick<GuardSession, 'check' | 'resetSession' | 'newRun'> {
  /** What the guard learns is not the replay's business: it only says what was allowed. */
  record(outcome: Outcome): unknown;
  /** Answers the host took out of the agent's context (see `CompactEvent.calls`). */
  answersHidden?(calls: readonly Proposal[]): void;
}

export interface ReplayStep {
  /** Counts `call` events from 1 across the whole trace. */
  readonly step: number;
  readonly tool: string;
  readonly verdict: RecordedVerdict;
  /** The rule that decided, when the verdict is not `allow`. */
  readonly rule?: string;
  /** The sentence the model would have been shown. */
  readonly reason?: string;
  readonly suggestion?: string;
  /** What the call returned in the recording, on one short line (`error: …` when it failed). */
  readonly returned?: string;
  /** The subagent that made the call, when it was not the agent itself. */
  readonly agent?: string;
}

export interface ReplaySummary {
  readonly calls: number;
  readonly allow: number;
  readonly warn: number;
  readonly block: number;
  readonly halt: number;
  /** Calls answered from an identical call of the same turn; present when there were any. */
  readonly coalesced?: number;
}

export interface ReplayOptions {
  /** A resolved policy (see `parsePolicy`); the `precise` preset when absent. */
  readonly policy?: Policy;
  /** The tool-call adapter when absent. */
  readonly adapter?: DomainAdapter;
  /**
   * Constraints learned before the trace (read from a store): the replay starts with them in force,
   * as an agent using that store would. What the replay learns stays in memory. Default: none.
   */
  readonly learned?: PersistedState;
}

/**
 * The guards of subagents (calls with `agent`): each keeps its own streaks, and what one learns
 * the others know, as with the live hook, where a subagent is a session of its own on the same store.
 */
export interface SubagentGuards {
  guardFor(agent: string): ReplayGuard;
  /** Before `to` checks a call: it adopts what `from` learned. */
  handOver(from: ReplayGuard, to: ReplayGuard): void;
  /** A new session: the subagents of the last one are gone. */
  reset(): void;
}

interface PendingCall {
  readonly step: number;
  readonly event: CallEvent;
  readonly proposal: Proposal;
  readonly guard: ReplayGuard;
}

interface Halt {
  readonly step: number;
  readonly rule?: string;
  readonly reason?: string;
}

/**
 * Replays events one at a time. Calls that share a `turn` were issued together in one model step,
 * so all of them are checked before any of their results is recorded, as a parallel dispatch does.
 */
export class TraceReplayer {
  private readonly tools = new Map<string, ToolInfo>();
  private readonly counts = { calls: 0, allow: 0, warn: 0, block: 0, halt: 0, coalesced: 0 };
  /** Tells reads from changes, for duplicates of a call that succeeded. */
  private readonly kinds = createToolCallAdapter();
  private turn: PendingCall[] = [];
  /** Per guard: a halted subagent does not halt the agent that called it. */
  private readonly halted = new Map<ReplayGuard, Halt>();
  private sessions = 0;
  private active: ReplayGuard;
  /**
   * The latest calls that have an id, for a compaction that names the answers it took away: what
   * each asked and of which guard, not what it returned.
   */
  private readonly byId = new Map<string, Pick<PendingCall, 'proposal' | 'guard'>>();

  /** Without `subagents`, a subagent's calls go through the agent's own guard. */
  constructor(
    private readonly guard: ReplayGuard,
    private readonly clock: TraceClock,
    private readonly subagents?: SubagentGuards,
  ) {
    this.active = guard;
  }

  /** The steps this event completes: none, one, or a whole turn once it ends. */
  feed(event: TraceEvent): ReplayStep[] {
    if (event.type === 'call') {
      const turnEnds =
        this.turn.length > 0 && (event.turn === undefined || event.turn !== this.turn[0]?.event.turn);
      const steps = turnEnds ? this.flush() : [];
      // A call of no turn is a turn of its own (most calls of most traces): it has no twin to be
      // answered from, so it is replayed at once, without a turn, a map of twins or a list of calls run.
      if (event.turn === undefined) steps.push(this.alone(this.pending(event)));
      else this.turn.push(this.pending(event));
      return steps;
    }
    const steps = this.flush();
    switch (event.type) {
      case 'meta':
        for (const tool of event.tools ?? []) this.tools.set(tool.name, tool);
        break;
      case 'session':
        this.halted.clear();
        this.sessions++;
        this.activate(this.guard);
        this.subagents?.reset();
        // The guard would invent a random id; a numbered one keeps replays identical.
        this.guard.resetSession(event.id ?? `session-${this.sessions}`);
        break;
      case 'user':
        this.halted.clear();
        this.activate(this.guard);
        this.guard.newRun('user');
        break;
      case 'compact':
        if (event.calls === undefined) {
          this.activate(this.guard);
          this.guard.newRun('compact');
        } else this.hide(event.calls);
        break;
    }
    return steps;
  }

  /** Steps still waiting for their turn to end. Call once after the last event. */
  finish(): ReplayStep[] {
    return this.flush();
  }

  get summary(): ReplaySummary {
    const { coalesced, ...counts } = this.counts;
    return coalesced > 0 ? { ...counts, coalesced } : counts;
  }

  private pending(event: CallEvent): PendingCall {
    const tool = this.tools.get(event.tool);
    // Fields set one by one, in this order, rather than spread from parts: one proposal per call.
    const proposal: Mutable<Proposal> = { tool: event.tool, args: event.args };
    if (tool?.annotations) proposal.annotations = tool.annotations;
    if (tool?.inputSchema !== undefined) proposal.inputSchema = tool.inputSchema;
    if (event.turn !== undefined) proposal.step = event.turn;
    if (event.id !== undefined) proposal.callId = event.id;
    this.counts.calls++;
    const guard =
      event.agent !== undefined && this.subagents ? this.subagents.guardFor(event.agent) : this.guard;
    const pending = { step: this.counts.calls, event, proposal, guard };
    if (event.id !== undefined) this.remember(event.id, { proposal, guard });
    return pending;
  }

  private remember(id: string, call: Pick<PendingCall, 'proposal' | 'guard'>): void {
    this.byId.delete(id);
    this.byId.set(id, call);
    if (this.byId.size <= MAX_NAMED_CALLS) return;
    const oldest = this.byId.keys().next().value;
    if (oldest !== undefined) this.byId.delete(oldest);
  }

  /** The answers of these earlier calls were taken out of the context of the agent that made them. */
  private hide(ids: readonly string[]): void {
    const byGuard = new Map<ReplayGuard, Proposal[]>();
    for (const id of ids) {
      const call = this.byId.get(id);
      if (call === undefined) continue;
      const hidden = byGuard.get(call.guard) ?? [];
      hidden.push(call.proposal);
      byGuard.set(call.guard, hidden);
    }
    for (const [guard, proposals] of byGuard) {
      this.activate(guard);
      guard.answersHidden?.(proposals);
    }
  }

  /** Makes `guard` the one checking calls, with what the one before it learned. */
  private activate(guard: ReplayGuard): void {
    if (guard === this.active) return;
    this.subagents?.handOver(this.active, guard);
    this.active = guard;
  }

  private flush(): ReplayStep[] {
    const calls = this.turn;
    if (calls.length === 0) return [];
    this.turn = [];
    // A call alone in its turn has no twin to be answered from: its identity is not worth a hash,
    // nor its turn a map of them.
    if (calls.length === 1) return [this.alone(calls[0] as PendingCall)];
    const steps: ReplayStep[] = [];
    const executed: PendingCall[] = [];
    /** The first of each distinct call of the turn, with what came of it. */
    const firsts = new Map<string, TwinAnswer>();
    for (const call of calls) {
      this.clock.advance(call.event.t);
      const key = callIdentity(call.proposal);
      const twin = key === undefined ? undefined : firsts.get(key);
      const step =
        twin !== undefined && this.answers(call, twin)
          ? this.coalesced(call, twin)
          : twin === undefined && call.event.coalesced
            ? this.answeredElsewhere(call)
            : this.check(call);
      steps.push(step);
      this.counts[step.verdict]++;
      if (step.verdict === 'allow' || step.verdict === 'warn') executed.push(call);
      if (key !== undefined && twin === undefined && step.verdict !== 'coalesced')
        firsts.set(key, answerOf(step, call));
    }
    for (const call of executed) this.run(call);
    return steps;
  }

  /** The step of a call alone in its turn, its result recorded when it ran. */
  private alone(call: PendingCall): ReplayStep {
    this.clock.advance(call.event.t);
    const step = call.event.coalesced ? this.answeredElsewhere(call) : this.check(call);
    this.counts[step.verdict]++;
    if (step.verdict === 'allow' || step.verdict === 'warn') this.run(call);
    return step;
  }

  /** What a call that ran returned, recorded by its guard. */
  private run(call: PendingCall): void {
    // A call recorded without a result never ran; there is nothing to learn from it.
    if (!call.event.result) return;
    this.activate(call.guard);
    call.guard.record(traceResultToOutcome(call.proposal, call.event.result));
  }

  /** Whether a duplicate in the turn is answered from its twin (a failure, a refusal, a change) rather than run. */
  private answers(call: PendingCall, twin: TwinAnswer): boolean {
    const policy = { tools: {} } as GuardSession['policy'];
    return answersDuplicate(
      { engine: { adapter: this.kinds } as GuardSession['engine'], policy },
      call.proposal,
      twin,
    );
  }

  private coalesced(call: PendingCall, twin: TwinAnswer): ReplayStep {
    return this.step(call, 'coalesced', COALESCED_RULE, coalescedReason(call.proposal, twin), undefined);
  }

  /**
   * A call the recording says was answered from an identical call issued with it, which the trace
   * does not hold (a journal that begins after it): it did not run, and it is no refusal.
   */
  private answeredElsewhere(call: PendingCall): ReplayStep {
    const reason = `An identical ${call.event.tool} call issued at the same time answered this call in the recording; this call did not run.`;
    return this.step(call, 'coalesced', COALESCED_RULE, reason, undefined);
  }

  private check(call: PendingCall): ReplayStep {
    const halted = this.halted.get(call.guard);
    if (halted) {
      const { step, rule, reason } = halted;
      const text = reason
        ? `The run was halted at step ${step}: ${reason}`
        : `The run was halted at step ${step}.`;
      return this.step(call, 'halt', rule, text, undefined);
    }
    this.activate(call.guard);
    const result = call.guard.check(call.proposal);
    if (result.verdict === 'halt')
      this.halted.set(call.guard, { step: call.step, rule: result.rule, reason: result.reason });
    if (result.verdict === 'allow') return this.step(call, 'allow', undefined, undefined, undefined);
    return this.step(call, result.verdict, result.rule, result.reason, result.suggestion);
  }

  /**
   * The step of a call, its fields set one by one in the order they are listed (empty ones left out): a replay
   * makes one per call, and an object spread from parts costs more than the fields it copies.
   */
  private step(
    call: PendingCall,
    verdict: RecordedVerdict,
    rule: string | undefined,
    reason: string | undefined,
    suggestion: string | undefined,
  ): ReplayStep {
    const step = { step: call.step, tool: call.event.tool } as {
      -readonly [K in keyof ReplayStep]: ReplayStep[K];
    };
    const returned = returnedExcerpt(call.event.result);
    if (returned !== undefined) step.returned = returned;
    const { agent } = call.event;
    if (agent !== undefined) step.agent = agent;
    step.verdict = verdict;
    if (rule) step.rule = rule;
    if (reason) step.reason = reason;
    if (suggestion) step.suggestion = suggestion;
    return step;
  }
}

/** What the first of identical calls of a turn tells the others: its refusal, or its recorded result. */
function answerOf(step: ReplayStep, call: PendingCall): TwinAnswer {
  if (step.verdict === 'block' || step.verdict === 'halt')
    return { status: 'refused', message: step.reason ?? '' };
  const result = call.event.result;
  const failed = result?.isError === true || result?.error !== undefined;
  return { status: 'ran', value: result, failed };
}

/**
 * A replayer driving a fresh guard whose clock is the trace's. It keeps everything in memory and
 * does not look at the file system, so the same trace always gives the same verdicts.
 */
export function createReplayer(options: ReplayOptions = {}): TraceReplayer {
  const clock = new TraceClock();
  // Validated once, not again for every subagent's guard.
  const policy = resolvedForReuse(options.policy);
  const open = (sessionId: string) =>
    openGuardSync({
      store: 'memory',
      journal: false,
      probe: false,
      ...(options.adapter && { adapter: options.adapter }),
      policy,
      clock,
      // The recorded agent saw what each call returned, never a refusal: its repeats ignore no refusal.
      modelSeesRefusals: false,
      // A fixed id keeps replay output identical from one run to the next.
      sessionId,
    });
  const guard = open('replay');
  if (options.learned) guard.engine.restore(options.learned, { scope: 'persistent' });
  const guards = new Map<ReplayGuard, GuardSession>([[guard, guard]]);
  const byAgent = new Map<string, GuardSession>();
  const subagents: SubagentGuards = {
    guardFor(agent) {
      let subagent = byAgent.get(agent);
      if (!subagent) {
        subagent = open(`replay/${agent}`);
        byAgent.set(agent, subagent);
        guards.set(subagent, subagent);
      }
      return subagent;
    },
    handOver(from, to) {
      const source = guards.get(from);
      const target = guards.get(to);
      if (source && target) target.engine.restore(source.engine.exportState(), { scope: 'persistent' });
    },
    reset() {
      for (const subagent of byAgent.values()) guards.delete(subagent);
      byAgent.clear();
    },
  };
  return new TraceReplayer(guard, clock, subagents);
}

export interface ReplayReport {
  readonly steps: readonly ReplayStep[];
  readonly summary: ReplaySummary;
}

/** Replays a whole trace held in memory. */
export function replayTrace(events: Iterable<TraceEvent>, options: ReplayOptions = {}): ReplayReport {
  const replayer = createReplayer(options);
  const steps: ReplayStep[] = [];
  for (const event of events) appendAll(steps, replayer.feed(event));
  appendAll(steps, replayer.finish());
  return { steps, summary: replayer.summary };
}

/**
 * `target.push(...items)` without spreading: a turn of 150,000 parallel calls would pass 150,000
 * arguments, past what the stack holds.
 */
export function appendAll<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}
