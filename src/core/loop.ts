/**
 * `NarrowingEngine`: checkProposal → (the caller executes) → recordOutcome → isDone.
 * It composes the learned-constraint store, the world model that lifts stale bans, the run-scoped
 * loop detectors and the budget, and reports everything to an optional audit sink and store.
 */

import { BanCheck } from './ban-check.js';
import { provesAgentFault, teachesOnlyRepeats } from './blame-proof.js';
import { isBlank } from './blank.js';
import { Budget } from './budget.js';
import { CallContexts } from './call-contexts.js';
import { ConstraintIndex, type Entry, isActive } from './constraints.js';
import { errorShape } from './detectors/error-shape.js';
import {
  type ConvergenceDetector,
  createDefaultDetectors,
  isConvergenceDetector,
} from './detectors/index.js';
import type { Detector } from './detectors/types.js';
import { DistinctWindow } from './distinct-window.js';
import { haltViolation } from './explain.js';
import { digestResult } from './identity/index.js';
import { NO_WORKSPACE_KNOWLEDGE } from './invalidation.js';
import { failureAnswer, Learner } from './learning.js';
import { Observed } from './observed.js';
import { OutsideChanges } from './outside-changes.js';
import { type Policy, type PolicyInput, resolvePolicy, ToolPolicyIndex } from './policy.js';
import { RadiusLimit } from './radius.js';
import { constraintIdsOf, journalOutcome, Recorded } from './recorded.js';
import { RefusalStreak } from './refusal-streak.js';
import { contextMatches } from './scope.js';
import { redactConstraint } from './secrets.js';
import { readSessionSnapshot, type SessionEntry, type SessionSnapshot } from './session-snapshot.js';
import { StepCalls } from './step-calls.js';
import { type Lifted, SuccessLifting } from './success-lifting.js';
import type {
  AuditSink,
  CheckResult,
  Clock,
  Constraint,
  ConvergenceReport,
  DomainAdapter,
  EngineSnapshot,
  FailureFacts,
  JournalEvent,
  Outcome,
  PersistedState,
  Proposal,
  ReceiptVerification,
  RecordResult,
  StateStore,
  VerdictKind,
  Violation,
  WorkspaceKnowledge,
  WorldProbe,
} from './types.js';
import { redactViolations, withWordsOf } from './verdict-redaction.js';
import { type Effect, WorldTracker } from './world.js';

export interface NarrowingEngineOptions {
  readonly adapter: DomainAdapter;
  readonly policy?: PolicyInput | Policy;
  readonly clock?: Clock;
  readonly audit?: AuditSink;
  readonly store?: StateStore;
  readonly sessionId?: string;
  /** Replaces the default loop detectors (for custom domains). */
  readonly detectors?: readonly Detector[];
  /** Checks a ban on a target's existence against the world before it blocks. */
  readonly probe?: WorldProbe;
  /**
   * Whether the model reads the refusals (default true). A replay of a recorded run says false: the
   * recorded agent never saw a refusal, so its repeats of a call are no refusals ignored, and the halt
   * for repeated refusals (which needs refusals the model read) does not apply.
   */
  readonly modelSeesRefusals?: boolean;
}

const SEVERITY: Record<VerdictKind, number> = { allow: 0, warn: 1, block: 2, halt: 3 };
const SYSTEM_CLOCK: Clock = { now: () => Date.now() };
const SEEN_CALLS = 10_000;
const NO_CONSTRAINTS: readonly Constraint[] = Object.freeze([]);
/** How many recent failing commands a file creation looks through for ones it may cure. */

function newSessionId(): string {
  const random = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto?.randomUUID?.();
  return random ?? `s-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

function bySeverity(a: Violation, b: Violation): number {
  return SEVERITY[b.severity] - SEVERITY[a.severity];
}

export class NarrowingEngine {
  readonly adapter: DomainAdapter;
  readonly policy: Policy;
  private readonly clock: Clock;
  private readonly audit: AuditSink | undefined;
  private readonly probe: WorldProbe | undefined;
  private readonly store: StateStore | undefined;
  private readonly index: ConstraintIndex;
  private readonly learner: Learner;
  private readonly world = new WorldTracker();
  private readonly workspace: WorkspaceKnowledge;
  /** The adapter's error shapes, or the engine's own. */
  private readonly shapeError: (text: string) => string;
  private readonly detectors: readonly Detector[];
  private readonly convergence: ConvergenceDetector | undefined;
  /** The detectors that want every verdict: most do not, and asking each costs on every call. */
  private readonly afterCheckers: readonly Detector[];
  private readonly budget: Budget;
  private readonly radius: RadiusLimit;
  private sessionIdValue: string;
  private halted: string | undefined;
  /**
   * The environment the calls run in was lost (see `FailureFacts.losesWorld`) and no call has
   * succeeded since: its answers while it stays lost are one loss, not a new one each.
   */
  private worldLost = false;
  private stopped: string | undefined;
  private readonly contexts: CallContexts;
  private readonly stepCalls = new StepCalls();
  private readonly bans: BanCheck;
  private readonly outsideChanges: OutsideChanges;
  private readonly successes: SuccessLifting;
  /** The distinct calls of the last while, and whether each was ruled out when last proposed. */
  private readonly seen = new DistinctWindow(SEEN_CALLS);
  /** The same refused call proposed again and again: the third refusal in a row halts. */
  private readonly refusals = new RefusalStreak();
  private readonly modelSeesRefusals: boolean;

  constructor(options: NarrowingEngineOptions) {
    this.adapter = options.adapter;
    this.policy = resolvePolicy(options.policy as PolicyInput | undefined);
    this.clock = options.clock ?? SYSTEM_CLOCK;
    this.audit = options.audit;
    this.store = options.store;
    this.probe = options.probe;
    this.modelSeesRefusals = options.modelSeesRefusals ?? true;
    this.workspace = this.adapter.workspace ?? NO_WORKSPACE_KNOWLEDGE;
    this.outsideChanges = new OutsideChanges(this.probe, this.workspace);
    this.shapeError = this.adapter.errorShape?.bind(this.adapter) ?? errorShape;
    const operandsIn = this.workspace.operandsIn;
    this.index = new ConstraintIndex(
      this.policy.learning.maxConstraints,
      (target) => this.workspace.isGenerated(target),
      operandsIn === undefined ? undefined : (command) => operandsIn.call(this.workspace, command),
    );
    this.contexts = new CallContexts(this.adapter, new ToolPolicyIndex(this.policy), this.index);
    this.radius = new RadiusLimit(this.policy.learning.radius);
    this.bans = new BanCheck({
      index: this.index,
      policy: this.policy,
      radius: this.radius,
      workspace: this.workspace,
      probe: this.probe,
      audit: this.audit,
      onLifted: () => this.scheduleSave(),
      onChangedOutside: (file) => this.changedOutside(file),
    });
    this.learner = new Learner(
      this.index,
      this.policy,
      (files) => this.bans.pinFiles(files),
      (signature) => this.workspace.isAboutMissingFile(signature),
    );
    this.successes = new SuccessLifting({
      index: this.index,
      policy: this.policy,
      bans: this.bans,
      learner: this.learner,
      world: this.world,
      radius: this.radius,
      workspace: this.workspace,
    });
    this.detectors = options.detectors ?? createDefaultDetectors();
    this.convergence = this.detectors.find(isConvergenceDetector);
    this.convergence?.readsRefusals?.(this.modelSeesRefusals);
    this.afterCheckers = this.detectors.filter((detector) => detector.afterCheck !== undefined);
    this.budget = new Budget(this.policy.budget);
    this.sessionIdValue = options.sessionId ?? newSessionId();
    const stored = this.store?.load();
    if (stored) this.restore(stored, { scope: 'persistent' });
    this.budget.start(this.clock.now());
    this.journal({ type: 'session', sessionId: this.sessionIdValue, at: this.clock.now() });
  }

  get sessionId(): string {
    return this.sessionIdValue;
  }

  checkProposal(proposal: Proposal): CheckResult {
    const call = this.contexts.of(proposal, this.clock.now());
    const violations: Violation[] = [];
    if (this.stopped) violations.push(haltViolation(this.stopped));
    else if (this.halted) violations.push(haltViolation(this.halted));
    else {
      if (!call.toolPolicy.exempt) {
        for (const file of this.outsideChanges.changedBeforeLook(call)) this.changedOutside(file);
        this.bans.collect(call, violations);
        for (const detector of this.detectors) {
          const violation = detector.check(call);
          if (violation) violations.push(violation);
        }
      }
      const budgetViolation = this.budget.check(call.now);
      if (budgetViolation) violations.push(budgetViolation);
    }
    if (violations.length > 1) violations.sort(bySeverity);
    const repeated = this.modelSeesRefusals ? this.refusals.note(call, violations[0]) : undefined;
    if (repeated) violations.unshift(repeated);
    if (violations.length > 0) redactViolations(violations);
    let verdict: VerdictKind = violations[0]?.severity ?? 'allow';
    let softened = false;
    if (this.policy.enforcement === 'advisory' && (verdict === 'block' || verdict === 'halt')) {
      verdict = 'warn';
      softened = true;
    }
    if (verdict === 'halt' && !this.halted && !this.stopped) this.halted = violations[0]?.reason;
    if (verdict !== 'block' && verdict !== 'halt') this.budget.countStep();
    for (const detector of this.afterCheckers) detector.afterCheck?.(call, verdict, violations[0]);
    this.seen.note(call.identity.fingerprint, verdict === 'block' || verdict === 'halt');
    const decisive = violations[0];
    this.audit?.record({
      type: 'proposal',
      at: call.now,
      tool: call.tool,
      callKey: call.identity.callKey,
      args: call.args,
      verdict,
      rule: decisive?.rule,
      reason: decisive?.reason,
      constraintIds: constraintIdsOf(violations),
    });
    const result: CheckResult = {
      allowed: verdict === 'allow' || verdict === 'warn',
      verdict,
      violations,
      rule: decisive?.rule,
      reason: undefined,
      suggestion: undefined,
      softened: softened || undefined,
      activeConstraints: this.activeCount(),
      radiusLimit: this.radius.limit,
      searchSpaceReduction: this.seen.size === 0 ? 0 : this.seen.blocked / this.seen.size,
    };
    return decisive === undefined ? result : withWordsOf(result, decisive);
  }

  recordOutcome(outcome: Outcome): RecordResult {
    const checked = this.contexts.checked(outcome.proposal);
    const call = this.contexts.of(checked, this.clock.now());
    this.contexts.forget(checked);
    const text = outcome.content ?? outcome.error ?? '';
    // The adapter reads the arguments too: bounded ones when the caller's were hostile or huge.
    const seen =
      call.args === outcome.proposal.args
        ? outcome
        : { ...outcome, proposal: { ...outcome.proposal, args: call.args } };
    const failure = this.adapter.describeFailure(seen, call.facts);
    const failed = failure !== undefined || !outcome.success;
    const facts: FailureFacts | undefined =
      failure ??
      (failed
        ? { signature: 'unknown_error', blame: 'unknown', deterministic: false, meaning: 'call' }
        : undefined);
    const resultDigest = digestResult(text);
    const nonAdvancing = this.adapter.isNonAdvancing?.(seen, call.facts) ?? false;
    const empty = !nonAdvancing && (this.adapter.answersNothing?.(seen, call.facts, failure) ?? false);
    // What is kept of a failure (evidence, the journal) never holds a credential the call carried.
    const kept = facts === undefined ? text : call.withoutSecrets(this.adapter.quotableError?.(text) ?? text);
    const duplicateInStep = this.stepCalls.isDuplicate(call);
    const added: Entry[] = [];
    const lifted: Lifted[] = [];
    let effect: Effect | undefined;

    if (!duplicateInStep && !call.toolPolicy.exempt) {
      // Relieved before this failure is learned: the file changed under the call, not the call.
      if (facts?.targetChangedSinceRead === true) this.successes.changedByAnotherWriter(call, lifted);
      if (!facts) {
        effect = this.successes.learn(call, resultDigest, lifted, isBlank(text));
        // The user's answer to the agent's question is the user speaking, as a message of theirs is.
        if (call.facts.asksPerson === true) this.successes.userSpoke(lifted);
      } else if (provesAgentFault(facts) && this.policy.learning.enabled) {
        const learned = this.learner.learn(
          call.keyedFor(facts),
          facts,
          kept,
          failureAnswer(resultDigest, text),
        );
        added.push(...learned.enforced);
        if (learned.enforced.some((entry) => entry.constraint.scope === 'strategy')) this.noteIfExhausted();
        for (const evicted of learned.evicted)
          lifted.push({ entry: evicted, why: 'evicted to stay within capacity' });
        if (call.facts.targets.length > 1) this.radius.recordFailure();
      } else if (teachesOnlyRepeats(facts) && this.policy.learning.enabled) {
        const learned = this.learner.learnRepeat(call.keyedFor(facts), facts, kept, resultDigest);
        added.push(...learned.enforced);
        for (const evicted of learned.evicted)
          lifted.push({ entry: evicted, why: 'evicted to stay within capacity' });
      }
      if (facts?.mayHaveWritten === true) effect = this.successes.learnStopped(call, resultDigest, lifted);
      if (facts?.opensTarget) this.successes.noteOpened(call);
      if (facts?.awaitsAnotherCall) this.successes.noteOrderingBan(call);
      else if (facts && call.facts.actsOnHiddenState) this.successes.noteHiddenStateBan(call);
      const changedWorld = effect !== undefined && effect.kind !== 'none' && effect.kind !== 'outside';
      this.world.recorded(failed && facts ? call.keyedFor(facts).banKey : undefined);
      // What the call itself wrote is no change from outside at the next read of it.
      if (changedWorld) this.outsideChanges.changedByCall(call);
      const observed = new Observed(
        facts,
        resultDigest,
        nonAdvancing,
        empty,
        text,
        outcome.score,
        changedWorld,
        effect?.service !== undefined,
        !failed && call.facts.sideEffect === true && (this.adapter.answerNamesTool?.(seen) ?? false),
        this.shapeError,
        (content) => call.withoutSecrets(content),
      );
      const harness = facts?.blame === 'harness_fault';
      for (const detector of this.detectors) {
        if (!harness || detector.observesHarnessFaults) detector.observe(call, observed);
      }
      if (facts?.losesWorld === true && !this.worldLost) {
        // What the detectors counted ran in the world that was lost: each earlier answer must come
        // back the same once more before it counts, as after a user's message.
        this.worldLost = true;
        this.successes.worldLost(call, lifted);
        for (const detector of this.detectors) detector.reset('user');
      } else if (!facts) this.worldLost = false;
    }
    if (outcome.tokens !== undefined || outcome.costUsd !== undefined) this.budget.addUsage(outcome);
    const lastSequence = this.audit
      ? journalOutcome(this.audit, call, facts, resultDigest, kept, added, lifted)
      : undefined;
    if (added.length > 0 || lifted.length > 0) this.scheduleSave();

    return new Recorded(
      {
        success: !facts,
        tool: call.tool,
        actionClass: call.facts.actionClass,
        kind: call.facts.kind,
        targets: call.facts.targets,
        signature: facts?.signature,
        blame: facts?.blame ?? 'none',
        nonAdvancing,
        resultDigest,
      },
      added.length === 0 ? NO_CONSTRAINTS : added.map((entry) => ({ ...entry.constraint })),
      lifted.length === 0 ? NO_CONSTRAINTS : lifted.map(({ entry }) => ({ ...entry.constraint })),
      this.activeCount(),
      this.radius.limit,
      this.getConvergence(),
      this.audit?.receiptHash && lastSequence !== undefined
        ? { audit: this.audit, sequence: lastSequence }
        : undefined,
    );
  }

  isDone(): boolean {
    return (
      this.stopped !== undefined ||
      this.budget.exceeded(this.clock.now()) !== undefined ||
      this.getConvergence().state === 'exhausted'
    );
  }

  stop(reason = 'stopped by the caller'): void {
    this.stopped = reason;
  }
  /**
   * Lifts the learned constraints `matches` selects, as a person who knows better would: they are
   * journaled as lifted with `why`, and a stale copy elsewhere cannot revive them. Returns them.
   */
  forget(matches: (constraint: Constraint) => boolean, why: string): Constraint[] {
    const now = this.clock.now();
    const forgotten: Constraint[] = [];
    for (const entry of [...this.index.entries()]) {
      if (!matches(entry.constraint)) continue;
      const constraint = { ...entry.constraint };
      // Marked lifted no earlier than its own evidence: a ban stamped by a clock running ahead
      // would otherwise outlive a mark of today in every store's merge, and come back.
      this.index.remove(entry, Math.max(now, constraint.evidence.lastAt, constraint.createdAt));
      forgotten.push(constraint);
      this.audit?.record({ type: 'constraint_lifted', at: now, constraint, why });
    }
    if (forgotten.length > 0) this.scheduleSave();
    return forgotten;
  }

  getConvergence(): ConvergenceReport {
    return (
      this.convergence?.report() ?? {
        state: 'progressing',
        steps: this.budget.steps,
        reason: 'no convergence tracking',
      }
    );
  }

  getActiveConstraints(): Constraint[] {
    const out: Constraint[] = [];
    for (const entry of this.index.entries()) if (isActive(entry)) out.push({ ...entry.constraint });
    const radius = this.radius.asConstraint(this.clock.now());
    if (radius) out.push(radius);
    return out;
  }

  snapshot(): EngineSnapshot {
    const persisted = this.index.exportState(this.clock.now());
    return { ...persisted, sessionId: this.sessionIdValue, session: this.sessionSnapshot() };
  }

  /**
   * The session's run state alone (what `snapshot().session` holds), without exporting the learned
   * constraints: for saving a session's turn when thousands of constraints are held.
   */
  sessionSnapshot(): SessionSnapshot {
    const sessionEntries: SessionEntry[] = [];
    for (const entry of this.index.sessionEntries()) {
      sessionEntries.push({
        // Saved with the session, as stores save persistent constraints: never a secret in clear.
        constraint: redactConstraint(entry.constraint),
        required: entry.required,
        dependsOn: entry.dependsOn,
      });
    }
    const detectors: Record<string, unknown> = {};
    for (const detector of this.detectors) detectors[detector.name] = detector.snapshot();
    const refusals = this.refusals.snapshot();
    return {
      entries: sessionEntries,
      detectors,
      world: this.world.snapshot(),
      radius: this.radius.snapshot(),
      budget: this.budget.snapshot(),
      halted: this.halted,
      learner: this.learner.snapshot(),
      untilAnotherCall: this.successes.snapshot(),
      ...(refusals !== undefined && { refusals }),
      ...(this.worldLost && { worldLost: true }),
    };
  }

  /**
   * Loads learned constraints. With `scope: 'all'` (the default for a full snapshot) the session's
   * run state comes back too, so a resumed session keeps its counters; `persistent` takes only
   * what a new process inherits.
   */
  restore(state: EngineSnapshot | PersistedState, options: { scope?: 'all' | 'persistent' } = {}): void {
    const liftedAt = new Map((state.lifted ?? []).map((mark) => [mark.id, mark.at]));
    for (const constraint of state.constraints ?? []) {
      if (!this.contextMatches(constraint)) continue;
      const lifted = liftedAt.get(constraint.id);
      if (lifted !== undefined && lifted >= constraint.evidence.lastAt) continue;
      const current = this.index.get(constraint.id);
      if (current && current.constraint.evidence.lastAt >= constraint.evidence.lastAt) continue;
      this.index.put({
        constraint: { ...constraint, evidence: { ...constraint.evidence } },
        required: 1,
        dependsOn:
          constraint.scope === 'call' && constraint.target && !constraint.dependsOnWorkspace
            ? [constraint.target]
            : [],
      });
    }
    for (const [id, at] of liftedAt) {
      const current = this.index.get(id);
      if (current && current.constraint.evidence.lastAt <= at) this.index.remove(current, at);
    }
    if ((options.scope ?? 'all') !== 'all' || !('session' in state)) return;
    const session = readSessionSnapshot(state.session);
    if (!session) return;
    for (const item of session.entries) {
      if (!this.contextMatches(item.constraint)) continue;
      this.index.put({
        constraint: { ...item.constraint, evidence: { ...item.constraint.evidence } },
        required: item.required,
        dependsOn: [...item.dependsOn],
      });
    }
    for (const detector of this.detectors) {
      if (detector.name in session.detectors) detector.restore(session.detectors[detector.name]);
    }
    this.world.restore(session.world);
    this.radius.restore(session.radius);
    this.budget.restore(session.budget);
    this.refusals.restore(session.refusals);
    this.learner.restore(session.learner);
    this.successes.restore(session.untilAnotherCall);
    this.halted = session.halted;
    this.worldLost = session.worldLost === true;
    if (typeof state.sessionId === 'string') this.sessionIdValue = state.sessionId;
  }

  /** A file changed outside the agent's view: what the detectors hold of it no longer holds. */
  private changedOutside(file: string): void {
    for (const detector of this.detectors) detector.changedOutside?.(file);
  }

  /** A new session or process: run-scoped state resets; persistent constraints carry over. */
  resetSession(sessionId?: string): void {
    this.sessionIdValue = sessionId ?? newSessionId();
    this.outsideChanges.clear();
    this.index.clearPending();
    this.learner.forgetSetAside();
    this.successes.endHiddenState(this.clock.now());
    for (const detector of this.detectors) detector.reset('session');
    this.refusals.clear();
    this.world.restore({});
    this.radius.reset();
    this.budget.reset(this.clock.now(), 'session');
    this.halted = undefined;
    this.worldLost = false;
    this.stopped = undefined;
    this.contexts.clear();
    this.stepCalls.clear();
    this.journal({ type: 'session', sessionId: this.sessionIdValue, at: this.clock.now() });
  }

  /**
   * Tokens and cost spent outside a tool call (a model's response, say): counted against the
   * policy's budget like those an outcome reports, so the next proposal halts once it is spent.
   */
  addUsage(usage: { readonly tokens?: number; readonly costUsd?: number }): void {
    this.budget.addUsage(usage);
  }

  /**
   * Where the session's spend stands against the policy's token and cost limits (see
   * `Budget.spendLimit`): a face that drives the model gives it its last turn, without tools, at a
   * halt or a warning, so that the run ends with an answer.
   */
  spendLimit(largestRequest?: number): Violation | undefined {
    return this.budget.spendLimit(largestRequest);
  }

  /** A new user message starts a new run; a compaction means the agent forgot what it saw. */
  newRun(reason: 'user' | 'compact'): void {
    if (reason === 'user') {
      const lifted: Lifted[] = [];
      this.successes.userSpoke(lifted);
      if (lifted.length > 0) this.scheduleSave();
      for (const detector of this.detectors) detector.reset('user');
      this.refusals.clear();
      this.halted = undefined;
      this.budget.reset(this.clock.now());
    } else {
      for (const detector of this.detectors) detector.compacted?.();
    }
    this.journal({ type: 'run', reason, at: this.clock.now() });
  }

  /**
   * The host took the answers of these earlier calls out of the agent's context (it masked or
   * cleared old tool outputs): reads of them are new evidence again, as after a compaction, while
   * what the agent still has of other calls keeps counting.
   */
  answersHidden(proposals: readonly Proposal[]): void {
    if (proposals.length === 0) return;
    const now = this.clock.now();
    const calls = proposals.map((proposal) => {
      const call = this.contexts.of(proposal, now);
      this.contexts.forget(proposal);
      return call;
    });
    for (const detector of this.detectors) detector.answersHidden?.(calls);
  }

  verifyReceipts(): ReceiptVerification {
    return this.audit?.verify?.() ?? { ok: true, count: 0, problem: 'receipts are not enabled' };
  }

  /** The persistent part, as a store would save it. */
  exportState(): PersistedState {
    return this.index.exportState(this.clock.now());
  }

  /**
   * Writes what is pending to the store and the audit sink, adopting what other processes learned.
   * The store gets what changed since the last flush (it merges, see `StateStore`), so a flush of a
   * large state that learned nothing costs neither a walk of it nor a copy.
   */
  async flush(): Promise<void> {
    if (this.store) {
      this.store.save(this.index.exportChanges(this.clock.now()));
      let merged: PersistedState | undefined;
      try {
        merged = await this.store.flush();
      } catch (error) {
        // What was given may not have reached the store: the next flush gives everything again.
        this.index.forgetExports();
        throw error;
      }
      if (merged) this.restore(merged, { scope: 'persistent' });
    }
    await this.audit?.flush?.();
  }

  async close(): Promise<void> {
    await this.flush();
    await this.store?.close();
    await this.audit?.close?.();
  }

  /**
   * The paper's exhaustion: every strategy the domain knows is banned, so nothing viable is left to
   * propose. Only where strategy bans block; where they only warn, nothing is ruled out by them.
   */
  private noteIfExhausted(): void {
    const classes = this.adapter.actionClasses;
    if (this.policy.learning.strategyEffect !== 'block' || classes.length === 0) return;
    for (const actionClass of classes) {
      let banned = false;
      for (const entry of this.index.strategiesFor(actionClass)) banned ||= isActive(entry);
      if (!banned) return;
    }
    this.convergence?.markExhausted(`every strategy (${classes.join(', ')}) has failed and is banned`);
  }

  private activeCount(): number {
    return this.index.active + (Number.isFinite(this.radius.limit) ? 1 : 0);
  }

  private contextMatches(constraint: Constraint): boolean {
    return contextMatches(constraint.context, this.policy.context);
  }

  private scheduleSave(): void {
    // Called only when the store writes; gives what changed since the last export (see `flush`).
    this.store?.save(() => this.index.exportChanges(this.clock.now()));
  }

  private journal(event: JournalEvent): number | undefined {
    return this.audit?.record(event);
  }
}
