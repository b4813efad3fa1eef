/**
 * `NarrowingEngine`: checkProposal → (the caller executes) → recordOutcome → isDone.
 * It composes the learned-constraint store, the world model that lifts stale bans, the run-scoped
 * loop detectors and the budget, and reports everything to an optional audit sink and store.
 */
import { Budget } from './budget.js';
import { Call, type ConstraintsOn } from './call-context.js';
import { blocksKind, ConstraintIndex, type Entry, isActive, regionContains } from './constraints.js';
import { errorShape } from './detectors/error-shape.js';
import {
  type ConvergenceDetector,
  createDefaultDetectors,
  isConvergenceDetector,
} from './detectors/index.js';
import type { CallContext, Detector } from './detectors/types.js';
import { DistinctWindow } from './distinct-window.js';
import {
  callViolation,
  haltViolation,
  parameterViolation,
  radiusViolation,
  strategyViolation,
  targetViolation,
} from './explain.js';
import { longTextsHashed, withLegacyHash } from './identity/hashing.js';
import { digestResult, identifyArguments, withoutFreeText } from './identity/index.js';
import { IdentityCache } from './identity-cache.js';
import { copyOf, invalidateAfter, NO_WORKSPACE_KNOWLEDGE } from './invalidation.js';
import { Learner } from './learning.js';
import { Observed } from './observed.js';
import { type Policy, type PolicyInput, resolvePolicy, ToolPolicyIndex } from './policy.js';
import { RadiusLimit } from './radius.js';
import { RefusalStreak } from './refusal-streak.js';
import { sameProposal } from './same-proposal.js';
import { contextMatches } from './scope.js';
import {
  keptText,
  redactConstraint,
  redactConstraintKnowing,
  redactRemembered,
  redactText,
} from './secrets.js';
import { readSessionSnapshot, type SessionEntry, type SessionSnapshot } from './session-snapshot.js';
import { onlyLooks, subjectLookedUp } from './subject-lookup.js';
import type {
  ActionKind,
  AuditSink,
  CallFacts,
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
}

/** A ban lifted or relieved by an outcome, and why. */
interface Lifted {
  readonly entry: Entry;
  readonly why: string;
}

/** Characters of a look-up's arguments read for the subject it names. */
const LOOKUP_CHARS = 2_000;
/** Failing commands a look-up is compared with: the latest ones. */
const LOOKUP_SCAN = 64;
const SEVERITY: Record<VerdictKind, number> = { allow: 0, warn: 1, block: 2, halt: 3 };
const SYSTEM_CLOCK: Clock = { now: () => Date.now() };
const CONTEXT_CACHE = 64;
const SEEN_CALLS = 10_000;
const NO_CONSTRAINTS: readonly Constraint[] = Object.freeze([]);
/** How many recent failing commands a file creation looks through for ones it may cure. */

function newSessionId(): string {
  const random = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto?.randomUUID?.();
  return random ?? `s-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

/**
 * Reasons repeat what tools printed (a last error, a command line) to the model, the journal and
 * the terminal: secrets are taken out of them here, whichever detector or rule wrote them.
 */
function redactViolations(violations: Violation[]): void {
  for (let index = 0; index < violations.length; index++) {
    const violation = violations[index] as Violation;
    // A reason is written afresh for each check; the rest repeats what a constraint or detector holds.
    const reason = redactText(violation.reason);
    const suggestion = redactRemembered(violation.suggestion);
    const lastError = violation.evidence.lastError;
    const cleanError = lastError === undefined ? undefined : redactRemembered(lastError);
    if (reason !== violation.reason || suggestion !== violation.suggestion || cleanError !== lastError) {
      const evidence =
        cleanError === lastError ? violation.evidence : { ...violation.evidence, lastError: cleanError };
      violations[index] = { ...violation, reason, suggestion, evidence };
    }
    const constraint = violations[index]?.constraint;
    if (constraint !== undefined) {
      // Its last error is the one just redacted, as a rule: redacted once, not twice.
      const clean = redactConstraintKnowing(constraint, lastError, cleanError);
      if (clean !== constraint)
        violations[index] = { ...(violations[index] as Violation), constraint: clean };
    }
  }
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
  private readonly toolPolicies: ToolPolicyIndex;
  private readonly index: ConstraintIndex;
  private readonly learner: Learner;
  private readonly world = new WorldTracker();
  private readonly workspace: WorkspaceKnowledge;
  private readonly normalizeArguments:
    | ((args: Readonly<Record<string, unknown>>) => Readonly<Record<string, unknown>>)
    | undefined;
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
  private stopped: string | undefined;
  private readonly contexts = new IdentityCache<Proposal, Call>(CONTEXT_CACHE);
  private currentStep: string | number | undefined;
  private stepCalls = new Set<string>();
  /** Learned bans on calls that act on hidden state (an editor's open file). */
  private hiddenStateBans: Entry[] = [];
  /** The distinct calls of the last while, and whether each was ruled out when last proposed. */
  private readonly seen = new DistinctWindow(SEEN_CALLS);
  /** The same refused call proposed again and again: the third refusal in a row halts. */
  private readonly refusals = new RefusalStreak();

  constructor(options: NarrowingEngineOptions) {
    this.adapter = options.adapter;
    this.policy = resolvePolicy(options.policy as PolicyInput | undefined);
    this.clock = options.clock ?? SYSTEM_CLOCK;
    this.audit = options.audit;
    this.store = options.store;
    this.probe = options.probe;
    this.toolPolicies = new ToolPolicyIndex(this.policy);
    this.workspace = this.adapter.workspace ?? NO_WORKSPACE_KNOWLEDGE;
    this.normalizeArguments = this.adapter.normalizeArguments?.bind(this.adapter);
    this.shapeError = this.adapter.errorShape?.bind(this.adapter) ?? errorShape;
    this.index = new ConstraintIndex(this.policy.learning.maxConstraints, (target) =>
      this.workspace.isGenerated(target),
    );
    this.learner = new Learner(this.index, this.policy, (files) => this.pinFiles(files));
    this.detectors = options.detectors ?? createDefaultDetectors();
    this.convergence = this.detectors.find(isConvergenceDetector);
    this.afterCheckers = this.detectors.filter((detector) => detector.afterCheck !== undefined);
    this.budget = new Budget(this.policy.budget);
    this.radius = new RadiusLimit(this.policy.learning.radius);
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
    const call = this.contextFor(proposal);
    const violations: Violation[] = [];
    if (this.stopped) violations.push(haltViolation(this.stopped));
    else if (this.halted) violations.push(haltViolation(this.halted));
    else {
      if (!call.toolPolicy.exempt) {
        this.collectConstraintViolations(call, violations);
        for (const detector of this.detectors) {
          const violation = detector.check(call);
          if (violation) violations.push(violation);
        }
      }
      const budgetViolation = this.budget.check(call.now);
      if (budgetViolation) violations.push(budgetViolation);
    }
    if (violations.length > 1) violations.sort(bySeverity);
    const repeated = this.refusals.note(call, violations[0]);
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
    for (const detector of this.afterCheckers) detector.afterCheck?.(call, verdict);
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
    return {
      allowed: verdict === 'allow' || verdict === 'warn',
      verdict,
      violations,
      rule: decisive?.rule,
      reason: decisive?.reason,
      suggestion: decisive?.suggestion,
      softened: softened || undefined,
      activeConstraints: this.activeCount(),
      radiusLimit: this.radius.limit,
      searchSpaceReduction: this.seen.size === 0 ? 0 : this.seen.blocked / this.seen.size,
    };
  }

  recordOutcome(outcome: Outcome): RecordResult {
    const checked = this.checkedProposal(outcome.proposal);
    const call = this.contextFor(checked);
    this.contexts.delete(checked);
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
    const empty = !nonAdvancing && (this.adapter.answersNothing?.(seen, call.facts) ?? false);
    // What is kept of a failure (evidence, the journal) never holds a credential the call carried.
    const kept = facts === undefined ? text : call.withoutSecrets(text);
    const duplicateInStep = this.isDuplicateInStep(call);
    const added: Entry[] = [];
    const lifted: Lifted[] = [];
    let effect: Effect | undefined;

    if (!duplicateInStep && !call.toolPolicy.exempt) {
      if (!facts) {
        effect = this.learnFromSuccess(call, resultDigest, lifted);
      } else if (facts.blame === 'agent_failure' && this.policy.learning.enabled) {
        const learned = this.learner.learn(call, facts, kept);
        added.push(...learned.enforced);
        if (learned.enforced.some((entry) => entry.constraint.scope === 'strategy')) this.noteIfExhausted();
        for (const evicted of learned.evicted)
          lifted.push({ entry: evicted, why: 'evicted to stay within capacity' });
        if (call.facts.targets.length > 1) this.radius.recordFailure();
      } else if (facts.blame === 'unknown' && this.policy.learning.enabled) {
        const learned = this.learner.learnRepeat(call, facts, kept, resultDigest);
        added.push(...learned.enforced);
        for (const evicted of learned.evicted)
          lifted.push({ entry: evicted, why: 'evicted to stay within capacity' });
      }
      if (facts && call.facts.actsOnHiddenState) this.noteHiddenStateBan(call);
      const observed = new Observed(
        facts,
        resultDigest,
        nonAdvancing,
        empty,
        text,
        outcome.score,
        effect !== undefined && effect.kind !== 'none' && effect.kind !== 'outside',
        effect?.service !== undefined,
        this.shapeError,
        (content) => call.withoutSecrets(content),
      );
      const harness = facts?.blame === 'harness_fault';
      for (const detector of this.detectors) {
        if (!harness || detector.observesHarnessFaults) detector.observe(call, observed);
      }
    }
    if (outcome.tokens !== undefined || outcome.costUsd !== undefined) this.budget.addUsage(outcome);
    const lastSequence = this.audit
      ? this.journalOutcome(this.audit, call, facts, resultDigest, kept, added, lifted)
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
    for (const entry of this.index.entries()) {
      if (!(isActive(entry) && entry.constraint.persistent)) {
        sessionEntries.push({
          // Saved with the session, as stores save persistent constraints: never a secret in clear.
          constraint: redactConstraint(entry.constraint),
          required: entry.required,
          dependsOn: entry.dependsOn,
        });
      }
    }
    const detectors: Record<string, unknown> = {};
    for (const detector of this.detectors) detectors[detector.name] = detector.snapshot();
    return {
      entries: sessionEntries,
      detectors,
      world: this.world.snapshot(),
      radius: this.radius.snapshot(),
      budget: this.budget.snapshot(),
      halted: this.halted,
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
    this.halted = session.halted;
    if (typeof state.sessionId === 'string') this.sessionIdValue = state.sessionId;
  }

  /** A new session or process: run-scoped state resets; persistent constraints carry over. */
  resetSession(sessionId?: string): void {
    this.sessionIdValue = sessionId ?? newSessionId();
    this.index.clearPending();
    this.learner.forgetSetAside();
    // A new process opens no file: what a hidden-state call acted on is gone.
    for (const entry of this.hiddenStateBans) this.index.remove(entry, this.clock.now());
    this.hiddenStateBans = [];
    for (const detector of this.detectors) detector.reset('session');
    this.refusals.clear();
    this.world.restore({});
    this.radius.reset();
    this.budget.reset(this.clock.now(), 'session');
    this.halted = undefined;
    this.stopped = undefined;
    this.contexts.clear();
    this.stepCalls.clear();
    this.currentStep = undefined;
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
      for (const detector of this.detectors) detector.reset('user');
      this.refusals.clear();
      this.halted = undefined;
      this.budget.reset(this.clock.now());
    } else {
      for (const detector of this.detectors) detector.compacted?.();
    }
    this.journal({ type: 'run', reason, at: this.clock.now() });
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
   * large state that learned nothing costs a walk of it, not a copy.
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
   * The proposal checked for this outcome: usually one converted afresh from the same call. Apart
   * from `recordOutcome`, whose variables would otherwise all be kept for the search's callback.
   */
  private checkedProposal(proposal: Proposal): Proposal {
    if (this.contexts.has(proposal)) return proposal;
    return this.contexts.findKey((held) => sameProposal(held, proposal)) ?? proposal;
  }

  private contextFor(proposal: Proposal): Call {
    const now = this.clock.now();
    const cached = this.contexts.get(proposal);
    if (cached) return cached.now === now ? cached : cached.at(now);
    const longTexts = longTextsHashed();
    const { identity, args, described } = this.identify(proposal);
    const toolPolicy = this.toolPolicies.resolve(proposal.tool);
    const facts = uniformFacts(described, toolPolicy.kind);
    const call = new Call(proposal.tool, args, identity, facts, toolPolicy, proposal.step, now);
    // A key made from a long text differs from the one a state written before hash generation 2
    // holds for the same call: while such bans are in the index, the older key finds them.
    if (longTextsHashed() !== longTexts && this.index.holdsOlderKeys) {
      const older = withLegacyHash(() => {
        const before = this.identify(proposal);
        return before.described.failureKey ?? before.identity.callKey;
      });
      if (older !== call.banKey) this.index.adoptOlderKey(older, call.banKey);
    }
    this.contexts.set(proposal, call);
    return call;
  }

  /** The call's identity and what the adapter says of it. */
  private identify(proposal: Proposal) {
    // Hostile or huge arguments (a getter that throws, 200,000 keys) are bounded once, here: every
    // later step works on the bounded copy.
    const { identity, args } = identifyArguments(
      proposal.tool,
      withoutFreeText(proposal),
      this.normalizeArguments,
    );
    const described = this.adapter.describeCall(args === proposal.args ? proposal : { ...proposal, args });
    return { identity, args, described };
  }

  /**
   * The bans on a call and on each of its targets. Its outcome asks again, usually with nothing
   * changed in between, and in a large index every lookup is a cache miss.
   */
  private constraintsOn(call: Call): ConstraintsOn {
    const known = call.constraintsOn;
    if (known !== undefined && known.version === this.index.version) return known;
    const found: ConstraintsOn = {
      version: this.index.version,
      own: this.index.callEntry(call.banKey),
      targets: call.facts.targets.map((target) => this.index.targetEntries(target)),
    };
    call.constraintsOn = found;
    return found;
  }

  private collectConstraintViolations(call: Call, violations: Violation[]): void {
    const { own, targets: onTargets } = this.constraintsOn(call);
    if (
      own &&
      this.inForce(own, call.now) &&
      !this.contradictedByWorld(own, call) &&
      !this.dependedOnFilesChanged(own, call)
    ) {
      violations.push(callViolation(own, call));
    }
    targets: for (const entries of onTargets) {
      for (const entry of entries) {
        if (call.facts.replacesTarget && entry.constraint.meaning === 'target-missing') continue;
        if (blocksKind(entry.constraint, call.facts.kind) && this.inForce(entry, call.now)) {
          if (this.contradictedByWorld(entry, call)) continue;
          violations.push(targetViolation(entry, call));
          break targets;
        }
      }
    }
    const strategyEffect = this.policy.learning.strategyEffect;
    if (strategyEffect !== 'off' && this.index.hasStrategies(call.facts.actionClass)) {
      for (const entry of this.index.strategiesFor(call.facts.actionClass)) {
        if (this.inForce(entry, call.now)) {
          violations.push(strategyViolation(entry, strategyEffect));
          break;
        }
      }
    }
    for (const entry of this.index.parameterBansFor(call.tool)) {
      if (
        entry.constraint.region &&
        regionContains(entry.constraint.region, call.facts.parameters) &&
        this.inForce(entry, call.now)
      ) {
        violations.push(parameterViolation(entry));
        break;
      }
    }
    const limit = this.radius.limit;
    if (Number.isFinite(limit) && call.facts.targets.length > limit) {
      violations.push(radiusViolation(limit, call, this.radius.failures));
    }
  }

  /**
   * Asks the probe whether the world still agrees with a ban on a target's existence; when it
   * does not (the file was created, or deleted, outside the agent's view), the ban is lifted.
   */
  private contradictedByWorld(entry: Entry, call: CallContext): boolean {
    const { meaning, target } = entry.constraint;
    if (!this.probe || !target || (meaning !== 'target-missing' && meaning !== 'target-exists')) return false;
    const exists = this.probe.exists(target);
    if (exists === undefined || exists === (meaning === 'target-exists')) return false;
    this.index.remove(entry, call.now);
    this.audit?.record({
      type: 'constraint_lifted',
      at: call.now,
      constraint: { ...entry.constraint },
      why: `${target} ${exists ? 'exists now' : 'no longer exists'}: it changed outside the agent's view`,
    });
    this.scheduleSave();
    return true;
  }

  /**
   * What the configuration files a failure named hold now, so that the ban can outlive the session
   * and be lifted when any of them changes. Only configuration: a failure about a source file also
   * depends on the configuration that compiles it, which a digest of the file alone would miss.
   */
  private pinFiles(files: readonly string[]): Readonly<Record<string, string>> | undefined {
    const probe = this.probe;
    if (probe?.digest === undefined) return undefined;
    const digests: Record<string, string> = {};
    for (const file of files) {
      if (!this.workspace.isConfiguration(file)) return undefined;
      const digest = probe.digest(file);
      if (digest === undefined) return undefined;
      digests[file] = digest;
    }
    return digests;
  }

  /**
   * Asks the probe whether the files a ban depends on still hold what they held when the call
   * failed; when one does not (edited in an earlier session, or by hand), the ban is lifted.
   */
  private dependedOnFilesChanged(entry: Entry, call: CallContext): boolean {
    const digests = entry.constraint.fileDigests;
    if (digests === undefined) return false;
    // Without a way to look, the ban is not enforced here, and kept for the processes that can.
    if (this.probe?.digest === undefined) return true;
    let changed: string | undefined;
    for (const [file, digest] of Object.entries(digests)) {
      if (this.probe.digest(file) !== digest) {
        changed = file;
        break;
      }
    }
    if (changed === undefined) return false;
    this.index.remove(entry, call.now);
    this.audit?.record({
      type: 'constraint_lifted',
      at: call.now,
      constraint: { ...entry.constraint },
      why: `${changed} has changed since ${entry.constraint.tool ?? 'the call'} failed`,
    });
    this.scheduleSave();
    return true;
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

  /** Active and not expired. An expired ban goes on probation: one retry is let through. */
  private inForce(entry: Entry, now: number): boolean {
    if (!isActive(entry)) return false;
    if (entry.constraint.probation) return false;
    if (entry.constraint.expiresAt > now) return true;
    entry.constraint.probation = true;
    return false;
  }

  /**
   * A success lifts the bans it proves wrong, and relieves the ones that depended on what it
   * changed: those go on probation (one retry), since a change may or may not have cured them.
   */
  private learnFromSuccess(call: Call, resultDigest: string, lifted: Lifted[]): Effect {
    if (this.hiddenStateBans.length > 0) this.forgetHiddenStateBans(call, lifted);
    const { own, targets: onTargets } = this.constraintsOn(call);
    if (own) this.lift(own, `${call.description} succeeded`, call.now, lifted);
    for (let index = 0; index < onTargets.length; index++) {
      const target = call.facts.targets[index] as string;
      // Lifting takes entries out of the list being read.
      for (const entry of copyOf(onTargets[index] as readonly Entry[])) {
        if (blocksKind(entry.constraint, call.facts.kind))
          this.lift(entry, `${call.description} succeeded on ${target}`, call.now, lifted);
      }
    }
    if (this.index.hasStrategies(call.facts.actionClass)) {
      // Lifting changes the set, so go over a copy.
      for (const entry of [...this.index.strategiesFor(call.facts.actionClass)]) {
        this.lift(entry, `${call.facts.actionClass} succeeded again (${call.description})`, call.now, lifted);
      }
    }
    this.radius.recordSuccess();
    if (call.facts.readsWholeTarget) this.relieveAfterReading(call, lifted);
    if (onlyLooks(call.facts)) this.relieveAfterLookingUp(call, lifted);
    const effect = this.world.effectOf(call.facts, call.identity.callKey, resultDigest);
    if (effect.kind === 'none') return effect;
    this.learner.forgetRecentFailures();
    this.invalidate(effect, call, lifted);
    return effect;
  }

  /**
   * Reading a failed call's target in full since it failed, as its error told the agent to, is new
   * evidence: the call gets one retry. A re-read between identical failures goes round a cycle,
   * which the cycle detector judges.
   */
  private relieveAfterReading(call: Call, lifted: Lifted[]): void {
    const target = call.facts.targets[0];
    if (target === undefined) return;
    for (const entry of this.index.dependentsOf(target)) {
      if (!entry.constraint.curedByReading || entry.constraint.tool === call.tool) continue;
      this.relieve(entry, () => `${call.description} read ${target} since it failed`, lifted);
    }
  }

  /**
   * A look-up that names what a failing command's error was about (and the command does not) is new
   * evidence: the command gets one retry. Bounded to the latest failing commands.
   */
  private relieveAfterLookingUp(call: Call, lifted: Lifted[]): void {
    const armed = this.index.armedWorkspaceEntries();
    if (armed.length === 0) return;
    const lookup = Object.values(call.args)
      .filter((value): value is string => typeof value === 'string')
      .join(' ')
      .slice(0, LOOKUP_CHARS);
    for (const entry of armed.slice(-LOOKUP_SCAN)) {
      const failed = entry.constraint.target ?? '';
      const word = subjectLookedUp(lookup, failed, entry.constraint.evidence.lastError);
      if (word === undefined) continue;
      this.relieve(entry, () => `${call.description} looked up ${word}, which ${failed} failed on`, lifted);
    }
  }

  /** A ban on a call that acts on state its arguments do not name holds until anything else runs. */
  private noteHiddenStateBan(call: Call): void {
    const entry = this.index.callEntry(call.banKey);
    if (entry && !this.hiddenStateBans.includes(entry)) this.hiddenStateBans.push(entry);
  }

  /**
   * Another call ran: it may have changed what the banned calls act on (opened another file), so
   * the same arguments may now mean another call.
   */
  private forgetHiddenStateBans(call: Call, lifted: Lifted[]): void {
    const kept: Entry[] = [];
    for (const entry of this.hiddenStateBans) {
      if (entry.constraint.callKey === call.banKey) kept.push(entry);
      else
        this.lift(
          entry,
          `${call.description} ran since, and may have changed what ${entry.constraint.tool} acts on`,
          call.now,
          lifted,
        );
    }
    this.hiddenStateBans = kept;
  }

  /** A success proved the ban wrong. */
  private lift(entry: Entry, why: string, now: number, lifted: Lifted[]): void {
    this.index.remove(entry, now);
    if (isActive(entry)) lifted.push({ entry, why });
  }

  /** What the ban depended on changed, which may or may not have cured it: one retry is allowed. */
  private relieve(entry: Entry, why: () => string, lifted: Lifted[]): void {
    if (!isActive(entry)) {
      // Corroboration counts failures against unchanged state; the state changed. The failure is
      // set aside: if it comes back unchanged, it was no glitch.
      this.index.remove(entry);
      this.learner.setAside(entry);
    } else if (!entry.constraint.probation) {
      entry.constraint.probation = true;
      this.index.disarm(entry);
      lifted.push({ entry, why: `${why()}; one retry is allowed` });
    }
  }

  private invalidate(effect: Effect, call: CallContext, lifted: Lifted[]): void {
    invalidateAfter(effect, call, {
      index: this.index,
      workspace: this.workspace,
      workspaceWide: this.policy.learning.invalidation === 'workspace',
      relieve: (entry, why) => this.relieve(entry, why, lifted),
    });
  }

  private isDuplicateInStep(call: CallContext): boolean {
    if (call.step === undefined) {
      this.currentStep = undefined;
      // A new set rather than a cleared one: a set cleared call after call leaves a chain of
      // tables behind, which keeps young objects alive through collections.
      if (this.stepCalls.size > 0) this.stepCalls = new Set();
      return false;
    }
    if (call.step !== this.currentStep) {
      this.currentStep = call.step;
      if (this.stepCalls.size > 0) this.stepCalls = new Set();
    }
    if (this.stepCalls.has(call.identity.callKey)) return true;
    this.stepCalls.add(call.identity.callKey);
    return false;
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

  /** The outcome and the constraint changes it caused; returns the last sequence number. */
  private journalOutcome(
    audit: AuditSink,
    call: CallContext,
    facts: FailureFacts | undefined,
    resultDigest: string,
    text: string,
    added: readonly Entry[],
    lifted: readonly Lifted[],
  ): number | undefined {
    let last = audit.record({
      type: 'outcome',
      at: call.now,
      tool: call.tool,
      callKey: call.identity.callKey,
      success: !facts,
      signature: facts?.signature,
      blame: facts?.blame ?? 'none',
      resultDigest,
      error: facts ? keptText(text, 500) : undefined,
    });
    for (const entry of added) {
      last =
        audit.record({ type: 'constraint_added', at: call.now, constraint: { ...entry.constraint } }) ?? last;
    }
    for (const { entry, why } of lifted) {
      last =
        audit.record({ type: 'constraint_lifted', at: call.now, constraint: { ...entry.constraint }, why }) ??
        last;
    }
    return last;
  }
}

/** A list to go over while its entries may be removed from the original; empty ones are not copied. */

/**
 * What `recordOutcome` returns. The receipt hash is worked out in batches off the hot path, so it
 * is read through the journal when asked for (which forces it), and written into JSON then too.
 */
class Recorded implements RecordResult {
  readonly #receipt: { readonly audit: AuditSink; readonly sequence: number } | undefined;

  constructor(
    readonly outcome: RecordResult['outcome'],
    readonly newConstraints: readonly Constraint[],
    readonly liftedConstraints: readonly Constraint[],
    readonly activeConstraints: number,
    readonly radiusLimit: number,
    readonly convergence: ConvergenceReport,
    receipt: { readonly audit: AuditSink; readonly sequence: number } | undefined,
  ) {
    this.#receipt = receipt;
  }

  get receiptHash(): string | undefined {
    const receipt = this.#receipt;
    return receipt?.audit.receiptHash?.(receipt.sequence);
  }

  toJSON(): RecordResult {
    const receiptHash = this.receiptHash;
    return { ...this, ...(receiptHash !== undefined && { receiptHash }) };
  }
}

/**
 * The adapter's facts in one shape, every field present in the same order: each detector reads them,
 * and objects of many shapes (an adapter sets only the fields that apply) would make every such read
 * a slow lookup. Typed with every field required, so that a field added to `CallFacts` and not here
 * fails to compile instead of being dropped.
 */
function uniformFacts(facts: CallFacts, kind: ActionKind | undefined): CallFacts {
  const uniform: { [Field in keyof Required<CallFacts>]: Required<CallFacts>[Field] | undefined } = {
    actionClass: facts.actionClass,
    kind: kind ?? facts.kind,
    targets: facts.targets,
    parameters: facts.parameters,
    writtenText: facts.writtenText,
    replacesTarget: facts.replacesTarget,
    readsWholeTarget: facts.readsWholeTarget,
    searchTexts: facts.searchTexts,
    changesNothing: facts.changesNothing,
    failureKey: facts.failureKey,
    actsOnHiddenState: facts.actsOnHiddenState,
    leavesSourcesAlone: facts.leavesSourcesAlone,
    sideEffect: facts.sideEffect,
    service: facts.service,
    waitSeconds: facts.waitSeconds,
    program: facts.program,
    navigates: facts.navigates,
    touches: facts.touches,
    changesTree: facts.changesTree,
  };
  return uniform as CallFacts;
}

/** The ids of the learned constraints among `violations`, or undefined when none rests on one. */
function constraintIdsOf(violations: readonly Violation[]): readonly string[] | undefined {
  const ids: string[] = [];
  for (const violation of violations) {
    const id = violation.constraint?.id;
    if (id !== undefined && !ids.includes(id)) ids.push(id);
  }
  return ids.length > 0 ? ids : undefined;
}
