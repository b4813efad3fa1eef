/**
 * The shapes of `@sovereign-labs/narrowing`, so that code written against that package type-checks
 * unchanged. Fields this package adds are marked; none of the original ones is missing.
 */
import type { PolicyInput, PresetName } from '../core/policy.js';
import type {
  Constraint as EngineConstraint,
  EngineSnapshot,
  StateStore,
  WorldProbe,
} from '../core/types.js';

export type ScoreDirection = 'minimize' | 'maximize';
export type FailureKind = 'harness_fault' | 'agent_failure' | 'unknown';

/** What the agent wants to try next, as that package describes it. */
export interface Proposal {
  parameters: Record<string, unknown>;
  targets: string[];
  /** Classified by the adapter when omitted. */
  actionClass?: string;
  metadata?: Record<string, unknown>;
}

/** What `recordOutcome` takes: the result of executing a proposal. */
export interface RawOutcome {
  score: number | null;
  status: 'success' | 'failure' | 'error';
  error?: string;
  parameters: Record<string, unknown>;
  targets: string[];
  durationMs: number;
  metadata?: Record<string, unknown>;
  /** Classified by the adapter when omitted. */
  actionClass?: string;
  /** Added: the text a successful call returned, so that an empty answer can be recognised. */
  content?: string;
}

/** A recorded attempt, classified. */
export interface Outcome {
  id: string;
  timestamp: number;
  durationMs: number;
  score: number | null;
  direction: ScoreDirection;
  status: 'success' | 'failure' | 'error';
  failureSignature?: string;
  failureKind?: FailureKind;
  actionClass?: string;
  parameters: Record<string, unknown>;
  targets: string[];
  metadata?: Record<string, unknown>;
  error?: string;
}

/**
 * `banned_call` (one exact call), `banned_target` (one action on one target) and `detector` (a loop
 * detector's verdict, in a violation) are added: only `banned_strategy` bans a whole action class.
 */
export type ConstraintType =
  | 'banned_strategy'
  | 'radius_limit'
  | 'parameter_ban'
  | 'banned_call'
  | 'banned_target'
  | 'detector';

export interface Constraint {
  id: string;
  type: ConstraintType;
  signature: string;
  actionClass?: string;
  reason: string;
  corroborated: boolean;
  occurrences: number;
  introducedAt: number;
  expiresAt?: number;
  scope: 'session' | 'persistent';
  maxChanges?: number;
  bannedParameter?: string;
  bannedValues?: unknown[];
  appliesTo?: string[];
  /** Added: the constraint as this engine holds it (its precise scope, region, probation). */
  engine?: EngineConstraint;
}

/**
 * What kind of ban a violation is. `call`, `target` and `detector` are added: this engine also
 * blocks one exact call, one action on one target, and loops its detectors see.
 */
export type BanType = 'strategy' | 'radius' | 'parameter' | 'call' | 'target' | 'detector';

export interface ConstraintViolation {
  constraint: Constraint;
  reason: string;
  banType: BanType;
  /** Added: the engine rule that decided (`identical-failure`, `cycle`, `strategy`, …). */
  rule: string;
  /** Added: what to try instead, written for the model. */
  suggestion: string;
}

export interface ProposalCheck {
  allowed: boolean;
  /** What blocks the proposal; empty when it is allowed. */
  violations: ConstraintViolation[];
  activeConstraints: number;
  radiusLimit?: number;
  /** Percentage (0-100) of the distinct proposals seen so far that are currently ruled out. */
  searchSpaceReduction: number;
  /** Added: `allow`, `warn`, `block` or `halt`. */
  verdict: 'allow' | 'warn' | 'block' | 'halt';
  /** Added: the deciding reason, for the model. */
  reason?: string;
  /** Added: notes on an allowed proposal (a strategy that keeps failing, a loop forming). */
  warnings: ConstraintViolation[];
}

export interface ConvergenceState {
  status: 'progressing' | 'plateau' | 'exhausted' | 'constrained_out';
  totalAttempts: number;
  bestScore: number | null;
  bestAttempt: number;
  noImprovementStreak: number;
  /** Share (0.0-1.0) of the distinct proposals seen so far that are still allowed. */
  searchSpaceRemaining: number;
  activeConstraintCount: number;
  bannedStrategyCount: number;
}

export interface NarrowingResult {
  outcome: Outcome;
  newConstraints: Constraint[];
  activeConstraints: Constraint[];
  radiusLimit: number;
  convergence: ConvergenceState;
  receiptHash?: string;
  /** Added: constraints this outcome proved wrong or made stale. */
  liftedConstraints: Constraint[];
}

export interface SignaturePattern {
  pattern: RegExp;
  signature: string;
  typicallyHarness: boolean;
  description: string;
}

/** The adapter interface of that package: five regex-level questions about a domain. */
export interface DomainAdapter {
  name: string;
  extractSignature(error: string): string | undefined;
  classifyBlame(error: string, context?: Record<string, unknown>): FailureKind;
  classifyAction(params: Record<string, unknown>, targets: string[]): string | undefined;
  extractParameters(raw: Record<string, unknown>): Record<string, unknown>;
  signaturePatterns: SignaturePattern[];
}

/** The constructor options of that package, plus this package's own under their own names. */
export interface NarrowingConfig {
  adapter: DomainAdapter;
  direction: ScoreDirection;
  corroborationThreshold: number;
  /** `Infinity` entries mean "no limit" and are skipped: the engine starts unlimited. */
  radiusCurve: number[];
  /** 0: constraints never expire. */
  constraintTtlMs: number;
  /** Accepted and not used: see docs/compat.md. The engine's cap is `learning.maxConstraints`. */
  maxConstraintDepth: number;
  plateauWindow: number;
  plateauTolerance: number;
  /** Default `.narrowing/journal.jsonl`; `false` (added) keeps no journal. */
  journalPath: string | false;
  receipts: boolean;
  /** Receipts chain the journal itself: this names the journal when `journalPath` is not given. */
  receiptPath: string;
  /** Added: `precise` (default), `strict` or `off`. */
  preset: PresetName;
  /** Added: any policy field; the options above override the fields they name. */
  policy: PolicyInput;
  /** Added: a state file that learned constraints persist to and load from. */
  statePath: string;
  /** Added: a store of your own (memory, sqlite, redis). */
  store: StateStore;
  /** Added: where problems with the state file or journal are reported (default: stderr). */
  onProblem: (message: string) => void;
  /**
   * Added: how bans on a target's existence are checked against the world (default: the file
   * system under `workspaceRoot`). `false` when the tools act on a remote or virtual workspace
   * that the local file system does not show.
   */
  probe: WorldProbe | false;
  /** Added: the folder relative paths in calls are resolved against (default: the current directory). */
  workspaceRoot: string;
}

export type NarrowingLoopConfig = Partial<NarrowingConfig> & Pick<NarrowingConfig, 'adapter'>;

/** What `snapshot()` returns and `restore()` takes. */
export interface Snapshot {
  constraints: Constraint[];
  convergence: ConvergenceState;
  attempt: number;
  sessionId: string;
  /** Added: the engine's own snapshot, so that a round trip through this package loses nothing. */
  engine?: EngineSnapshot;
}
