/**
 * `NarrowingLoop` with the constructor, methods and shapes of `@sovereign-labs/narrowing`, over this
 * package's engine: switching is a change of the import line. Where the two decide differently,
 * docs/compat.md says how and why, and which option restores the original behaviour.
 */
import type {
  CheckResult,
  Constraint as EngineConstraint,
  Outcome as EngineOutcome,
  Mutable,
} from '../core/types.js';
import { NarrowingLoop as NodeLoop } from '../narrowing.js';
import { bindingOf, type EngineBinding } from './binding.js';
import { openSharedJournal } from './journals.js';
import { nodeOptionsOf } from './options.js';
import { toPaperConstraint, toPaperViolation } from './shapes.js';
import { importPaperState } from './state.js';
import type {
  BanType,
  Constraint,
  ConstraintViolation,
  ConvergenceState,
  DomainAdapter,
  NarrowingLoopConfig,
  NarrowingResult,
  Outcome,
  Proposal,
  ProposalCheck,
  RawOutcome,
  ScoreDirection,
  Snapshot,
} from './types.js';

/** That package lists strategy bans first, then the radius, then parameters; the added kinds follow. */
const BAN_ORDER: Readonly<Record<BanType, number>> = {
  strategy: 0,
  radius: 1,
  parameter: 2,
  call: 3,
  target: 4,
  detector: 5,
};

function inOriginalOrder(violations: ConstraintViolation[]): ConstraintViolation[] {
  return violations.length < 2
    ? violations
    : violations.sort((a, b) => BAN_ORDER[a.banType] - BAN_ORDER[b.banType]);
}

function reportToStderr(message: string): void {
  process.stderr.write(`narrowing: ${message}\n`);
}

export class NarrowingLoop {
  /** This package's loop underneath, for what only it offers (`newRun`, `exportState`, …). */
  readonly engine: NodeLoop;
  private readonly adapter: DomainAdapter;
  private readonly binding: EngineBinding;
  private readonly direction: ScoreDirection;
  private readonly receipts: boolean;
  private attempt = 0;
  private bestScore: number | null = null;
  private bestAttempt = 0;
  private sinceImprovement = 0;
  /** Share (0..1) of the distinct proposals seen that were ruled out at the last check. */
  private reduction = 0;
  private closing: Promise<void> | undefined;

  constructor(config: NarrowingLoopConfig) {
    this.adapter = config.adapter;
    this.binding = bindingOf(config.adapter);
    const { journalPath, ...options } = nodeOptionsOf(config);
    // Opened here rather than by the engine, so that loops on one path share it (see journals.ts).
    const journal =
      journalPath === undefined
        ? undefined
        : openSharedJournal(journalPath, {
            receipts: options.receipts !== false,
            report: config.onProblem ?? reportToStderr,
          });
    try {
      this.engine = new NodeLoop({ ...options, ...(journal && { journal }), adapter: this.binding.adapter });
    } catch (error) {
      void journal?.close();
      throw error;
    }
    this.direction = this.engine.policy.detectors.convergence.direction;
    this.receipts = journal !== undefined && options.receipts !== false;
  }

  /** Before execution: is this proposal allowed, and if not, what blocks it. */
  checkProposal(proposal: Proposal): ProposalCheck {
    const result = this.engine.checkProposal(this.binding.toProposal(proposal));
    this.reduction = result.searchSpaceReduction;
    return this.toCheck(result);
  }

  /** After execution: classifies the outcome and learns from it. */
  recordOutcome(raw: RawOutcome): NarrowingResult {
    this.attempt++;
    const timestamp = Date.now();
    const proposal = this.binding.toProposal({
      parameters: raw.parameters,
      targets: raw.targets ?? [],
      ...(raw.actionClass !== undefined && { actionClass: raw.actionClass }),
      ...(raw.metadata !== undefined && { metadata: raw.metadata }),
    });
    const outcome: Mutable<EngineOutcome> = { proposal, success: raw.status === 'success' };
    if (raw.error !== undefined) outcome.error = raw.error;
    if (raw.content !== undefined) outcome.content = raw.content;
    if (typeof raw.score === 'number') outcome.score = raw.score;
    if (typeof raw.durationMs === 'number') outcome.durationMs = raw.durationMs;
    const recorded = this.engine.recordOutcome(outcome);
    if (typeof raw.score === 'number') this.noteScore(raw.score);
    // A failure without a score is no improvement, as there; a success without one (a tool call
    // that worked) is not a setback either, so it leaves the streak as it is.
    else if (raw.status !== 'success') this.sinceImprovement++;
    const classified = recorded.outcome;
    const paper: Outcome = {
      id: `attempt_${this.attempt}_${timestamp}`,
      timestamp,
      durationMs: raw.durationMs,
      score: raw.score,
      direction: this.direction,
      status: raw.status,
      actionClass: classified.actionClass,
      parameters: this.adapter.extractParameters(raw.parameters),
      targets: raw.targets,
    };
    if (classified.signature !== undefined) paper.failureSignature = classified.signature;
    if (classified.blame !== 'none') paper.failureKind = classified.blame;
    if (raw.metadata !== undefined) paper.metadata = raw.metadata;
    if (raw.error !== undefined) paper.error = raw.error;
    const active = this.engine.getActiveConstraints();
    const result: NarrowingResult = {
      outcome: paper,
      newConstraints: recorded.newConstraints.map(toPaperConstraint),
      activeConstraints: active.map(toPaperConstraint),
      radiusLimit: recorded.radiusLimit,
      convergence: this.convergenceWith(active),
      liftedConstraints: recorded.liftedConstraints.map(toPaperConstraint),
    };
    const receiptHash = recorded.receiptHash;
    if (receiptHash !== undefined) result.receiptHash = receiptHash;
    return result;
  }

  /** True once stopped, out of budget, or exhausted. */
  isDone(): boolean {
    return this.engine.isDone();
  }

  stop(): void {
    this.engine.stop();
  }

  getConvergence(): ConvergenceState {
    return this.convergenceWith(this.engine.getActiveConstraints());
  }

  getActiveConstraints(): Constraint[] {
    return this.engine.getActiveConstraints().map(toPaperConstraint);
  }

  /** The largest number of targets a proposal may touch; `Infinity` when unlimited. */
  getRadiusLimit(): number {
    const radius = this.engine
      .getActiveConstraints()
      .find((constraint) => constraint.type === 'radius_limit');
    return radius?.radius ?? Number.POSITIVE_INFINITY;
  }

  /** How many outcomes have been recorded. */
  getAttempt(): number {
    return this.attempt;
  }

  getSessionId(): string {
    return this.engine.sessionId;
  }

  /**
   * Writes what is recorded to the journal, as that package's synchronous journal has it, then
   * verifies the receipt chain on disk. While a batch is being written it verifies what is on disk
   * already: `await flush()` first to be sure of counting every receipt. `null` when there is no
   * journal or receipts are off.
   */
  verifyReceipts(): { valid: boolean; brokenAt?: number; receiptCount: number } | null {
    if (!this.receipts) return null;
    const verification = this.engine.verifyReceipts();
    const out: { valid: boolean; brokenAt?: number; receiptCount: number } = {
      valid: verification.ok,
      receiptCount: verification.count,
    };
    if (verification.brokenAt !== undefined) out.brokenAt = verification.brokenAt;
    return out;
  }

  /** A new session: run-scoped state resets; learned constraints carry over. */
  resetSession(): void {
    this.engine.resetSession();
  }

  snapshot(): Snapshot {
    return {
      constraints: this.getActiveConstraints(),
      convergence: this.getConvergence(),
      attempt: this.attempt,
      sessionId: this.engine.sessionId,
      engine: this.engine.snapshot(),
    };
  }

  /**
   * Loads a snapshot: one taken here in full; one saved by `@sovereign-labs/narrowing` through
   * `importPaperState` (throws a `CompatError` when it is not one).
   */
  restore(data: Snapshot): void {
    if (data && typeof data === 'object' && data.engine && typeof data.engine === 'object') {
      this.engine.restore(data.engine);
      this.attempt = Number.isInteger(data.attempt) && data.attempt >= 0 ? data.attempt : 0;
      this.bestScore = data.convergence?.bestScore ?? null;
      this.bestAttempt = data.convergence?.bestAttempt ?? 0;
      return;
    }
    const imported = importPaperState(data);
    this.engine.restore(imported.state, { scope: 'persistent' });
    this.attempt = imported.attempt;
    this.bestScore = imported.bestScore;
    this.bestAttempt = imported.bestAttempt;
    if (imported.sessionId !== undefined) this.engine.resetSession(imported.sessionId);
  }

  /** Writes what is pending to the journal and the state file. */
  flush(): Promise<void> {
    return this.engine.flush();
  }

  /** Flushes and releases the journal and the state file. Closing again waits for the first close. */
  close(): Promise<void> {
    this.closing ??= this.engine.close();
    return this.closing;
  }

  private convergenceWith(active: readonly EngineConstraint[]): ConvergenceState {
    let bannedStrategies = 0;
    for (const constraint of active) {
      if (constraint.scope === 'strategy' && constraint.type === 'banned_strategy') bannedStrategies++;
    }
    return {
      status: this.engine.getConvergence().state,
      totalAttempts: this.attempt,
      bestScore: this.bestScore,
      bestAttempt: this.bestAttempt,
      noImprovementStreak: this.sinceImprovement,
      searchSpaceRemaining: 1 - this.reduction,
      activeConstraintCount: active.length,
      bannedStrategyCount: bannedStrategies,
    };
  }

  private noteScore(score: number): void {
    const better =
      this.bestScore === null ||
      (this.direction === 'minimize' ? score < this.bestScore : score > this.bestScore);
    if (better) {
      this.bestScore = score;
      this.bestAttempt = this.attempt;
      this.sinceImprovement = 0;
    } else {
      this.sinceImprovement++;
    }
  }

  private toCheck(result: CheckResult): ProposalCheck {
    const now = Date.now();
    const blocking = result.violations.filter(
      (violation) => violation.severity === 'block' || violation.severity === 'halt',
    );
    const check: ProposalCheck = {
      allowed: result.allowed,
      violations: result.allowed
        ? []
        : inOriginalOrder(blocking.map((violation) => toPaperViolation(violation, now))),
      warnings: result.allowed ? result.violations.map((violation) => toPaperViolation(violation, now)) : [],
      activeConstraints: result.activeConstraints,
      radiusLimit: result.radiusLimit,
      searchSpaceReduction: Math.round(result.searchSpaceReduction * 100),
      verdict: result.verdict,
    };
    if (result.reason !== undefined) check.reason = result.reason;
    return check;
  }
}
