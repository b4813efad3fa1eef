/**
 * `GuardSession`: what every face (the MCP proxy, agent hooks, framework adapters, the agent loop,
 * replay, the Node `NarrowingLoop`) holds. One engine with its store, journal and probe attached,
 * and the handful of calls a face makes around a tool call.
 */

import { NarrowingError } from '../core/errors.js';
import { identifyArguments, withoutFreeText } from '../core/identity/index.js';
import type { NarrowingEngine } from '../core/loop.js';
import type { Policy } from '../core/policy.js';
import type { AuditSink, CheckResult, Outcome, Proposal, RecordResult } from '../core/types.js';
import type { ToolCallTracer } from '../telemetry/tool-spans.js';
import { COALESCED_RULE } from './in-flight.js';
import { type GuardObserver, preciseNow, tellObserver } from './observer.js';
import type { Scopes } from './scopes.js';

export type RunReason = 'user' | 'compact';

export interface GuardSession {
  /** The engine, for what a face rarely needs: snapshots, constraints, convergence, receipts. */
  readonly engine: NarrowingEngine;
  readonly policy: Policy;
  readonly sessionId: string;
  /** The folder holding the state file and the journal; undefined when state lives in memory only. */
  readonly stateDir: string | undefined;
  /** The journal being written, when there is one. */
  readonly journalPath: string | undefined;
  /** Relative paths in calls are resolved against this folder when the world is probed. */
  readonly workspaceRoot: string | undefined;
  /** Before a call: allow, warn, block or halt, and why. */
  check(proposal: Proposal): CheckResult;
  /** After a call: what it teaches. */
  record(outcome: Outcome): RecordResult;
  /**
   * With telemetry on: runs a call a face executes itself (the MCP proxy, the agent loop) inside an
   * `execute_tool` span, the parent of the guardrail spans of its check and record.
   */
  readonly toolCalls?: ToolCallTracer;
  /**
   * A call answered from an identical one issued with it (see `in-flight.ts`): the journal records
   * it as `coalesced`; the engine neither checks it nor learns from it.
   */
  noteCoalesced(proposal: Proposal, reason: string): void;
  /**
   * The tokens (the whole request and its output) and cost of one model response, as the framework
   * reports them: they count against the policy's `budget`, and the largest request seen sets how much
   * of the token budget is kept for the answer (see `wrapUpReason`).
   */
  addModelUsage(usage: ModelUsage): void;
  /**
   * Why the model's next turn should be its last, without tools, so that the run ends with an
   * answer: the policy's token or cost budget is spent, or within its reserve (the policy's
   * `reserveTokens`, or twice the largest request reported to `addModelUsage` when that is more).
   * Undefined while there is room. The text is what the model reads: what remains, then what to do.
   */
  wrapUpReason(): string | undefined;
  /** A new user message (`user`) or a compaction of the context (`compact`): run-scoped streaks restart. */
  newRun(reason: RunReason): void;
  /**
   * The host took the answers of these earlier calls out of the agent's context (it masked or
   * cleared old tool outputs, keeping the rest): asking them again is new evidence, not a repeat.
   */
  answersHidden(calls: readonly Proposal[]): void;
  /** A new process of the same agent: session-scoped state goes, learned constraints stay. */
  resetSession(sessionId?: string): void;
  /** Nothing is left to try: every recent proposal was refused, or the run was halted or stopped. */
  isDone(): boolean;
  /**
   * The session of one user or tenant of this guard (a server's), opened on first use: what it
   * learns holds for that scope only, its evidence (streaks, budget) is its own, and what the guard
   * learned unscoped holds in every scope. Scopes share the guard's store and journal and close with it.
   */
  scope(id: string): GuardSession;
  /** Writes what is pending (state and journal) without closing. */
  flush(): Promise<void>;
  /**
   * Writes what is pending and releases the journal and the store. Idempotent. It never rejects:
   * state it cannot save (a state folder replaced or made read-only mid-run, a store gone) is
   * reported through the guard's `onProblem`, and the journal and the store are released all the same.
   */
  close(): Promise<void>;
}

/** One model response's spend, as a framework reports it. */
export interface ModelUsage {
  /** The request's tokens and the response's. */
  readonly tokens?: number;
  readonly costUsd?: number;
}

interface SessionParts {
  readonly engine: NarrowingEngine;
  readonly stateDir: string | undefined;
  readonly journalPath: string | undefined;
  readonly workspaceRoot: string | undefined;
  /** Where the session writes events of its own (coalesced calls); the engine's journal. */
  readonly journal?: AuditSink;
  /** Closes what the session opened beside the engine (a store connection, say). */
  readonly release?: () => Promise<void>;
  /** Where a close that could not save is reported (the guard's `onProblem`). Default: nowhere. */
  readonly report?: (message: string) => void;
  /** Told about every check and record (telemetry). */
  readonly observer?: GuardObserver;
  /** The guard's scopes (see `scopes.ts`); without them, `scope()` is refused. */
  readonly scopes?: Scopes<GuardSession>;
  /** True for a scope's own session: closing it leaves the other scopes open. */
  readonly scoped?: boolean;
}

export function createGuardSession(parts: SessionParts): GuardSession {
  const { engine } = parts;
  let closing: Promise<void> | undefined;
  /** The most tokens one model response took, for the token reserve. */
  let largestRequest = 0;
  return {
    engine,
    policy: engine.policy,
    get sessionId() {
      return engine.sessionId;
    },
    stateDir: parts.stateDir,
    journalPath: parts.journalPath,
    workspaceRoot: parts.workspaceRoot,
    check: observed(parts.observer, engine, 'check'),
    record: observed(parts.observer, engine, 'record'),
    ...(parts.observer?.toolCalls && { toolCalls: parts.observer.toolCalls }),
    noteCoalesced(proposal, reason) {
      parts.journal?.record({
        type: 'proposal',
        at: Date.now(),
        tool: proposal.tool,
        callKey: callKeyOf(engine, proposal),
        args: proposal.args,
        verdict: 'coalesced',
        rule: COALESCED_RULE,
        reason,
      });
    },
    addModelUsage({ tokens, costUsd }) {
      const counted = {
        ...(isAmount(tokens) && { tokens }),
        ...(isAmount(costUsd) && { costUsd }),
      };
      if (counted.tokens === undefined && counted.costUsd === undefined) return;
      engine.addUsage(counted);
      if (counted.tokens !== undefined) largestRequest = Math.max(largestRequest, counted.tokens);
    },
    wrapUpReason() {
      const limit = engine.spendLimit(largestRequest);
      return limit === undefined ? undefined : `${limit.reason} ${limit.suggestion ?? ''}`.trim();
    },
    newRun: (reason) => engine.newRun(reason),
    answersHidden: (calls) => engine.answersHidden(calls),
    resetSession: (sessionId) => {
      largestRequest = 0;
      engine.resetSession(sessionId);
    },
    isDone: () => engine.isDone(),
    scope(id) {
      if (parts.scopes === undefined) {
        throw new NarrowingError(
          'USAGE',
          'scopes come with a guard opened by openGuard() or openGuardSync()',
        );
      }
      return parts.scopes.get(id);
    },
    flush: async () => {
      await engine.flush();
      await flushObserver(parts.observer);
    },
    close() {
      closing ??= (async () => {
        if (!parts.scoped) {
          try {
            await parts.scopes?.closeAll();
          } catch (error) {
            reportUnsaved(parts.report, error);
          }
        }
        try {
          await engine.close();
        } catch (error) {
          reportUnsaved(parts.report, error);
          // The engine stopped at the failed save: close the journal it did not get to (the store
          // is the release's to close).
          await quietly(() => parts.journal?.close?.());
        }
        await quietly(() => parts.release?.());
        await flushObserver(parts.observer);
      })();
      return closing;
    },
  };
}

/** The key the engine gives the call, so that the journal's lines about one call share it. */
function callKeyOf(engine: NarrowingEngine, proposal: Proposal): string {
  try {
    const normalize = engine.adapter.normalizeArguments?.bind(engine.adapter);
    return identifyArguments(proposal.tool, withoutFreeText(proposal), normalize).identity.callKey;
  } catch {
    return 'unreadable';
  }
}

function observed(
  observer: GuardObserver | undefined,
  engine: NarrowingEngine,
  step: 'check',
): GuardSession['check'];
function observed(
  observer: GuardObserver | undefined,
  engine: NarrowingEngine,
  step: 'record',
): GuardSession['record'];
/** The engine's check or record, with the observer told what came of it. */
function observed(
  observer: GuardObserver | undefined,
  engine: NarrowingEngine,
  step: 'check' | 'record',
): GuardSession['check'] | GuardSession['record'] {
  if (step === 'check') {
    if (observer?.checked === undefined) return (proposal: Proposal) => engine.checkProposal(proposal);
    return (proposal: Proposal) => {
      const startedAt = preciseNow();
      const result = engine.checkProposal(proposal);
      const call = { proposal, result, sessionId: engine.sessionId, startedAt, endedAt: preciseNow() };
      tellObserver(() => observer.checked?.(call));
      return result;
    };
  }
  if (observer?.recorded === undefined) return (outcome: Outcome) => engine.recordOutcome(outcome);
  return (outcome: Outcome) => {
    const startedAt = preciseNow();
    const result = engine.recordOutcome(outcome);
    const call = { outcome, result, sessionId: engine.sessionId, startedAt, endedAt: preciseNow() };
    tellObserver(() => observer.recorded?.(call));
    return result;
  };
}

/** A close that could not save, said once through the guard's problem channel. */
function reportUnsaved(report: ((message: string) => void) | undefined, error: unknown): void {
  let reason: string;
  try {
    reason = error instanceof Error ? error.message : String(error);
  } catch {
    reason = 'an error that cannot be read';
  }
  try {
    report?.(
      `Closing the guard could not save what this session learned: ${reason}. The run itself is not ` +
        'affected; later runs will not know what this one learned unless the state can be written.',
    );
  } catch {
    // A report channel that throws does not make close throw.
  }
}

/** Runs a step of closing; one that fails does not stop the steps after it. */
async function quietly(step: () => Promise<void> | undefined): Promise<void> {
  try {
    await step();
  } catch {
    // Already reported by the part itself (a store or journal reports its own write failures).
  }
}

async function flushObserver(observer: GuardObserver | undefined): Promise<void> {
  try {
    await observer?.flush?.();
  } catch {
    // An exporter that cannot deliver does not fail the guard's close.
  }
}

/** The part of a session a transport needs around each call: a face may be handed no more. */
export type CallGuard = Pick<GuardSession, 'check' | 'record' | 'close' | 'toolCalls'>;

function isAmount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
