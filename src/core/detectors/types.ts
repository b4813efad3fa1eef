import type { CallIdentity } from '../identity/index.js';
import type { ResolvedToolPolicy } from '../policy.js';
import type { CallFacts, FailureFacts, VerdictKind, Violation } from '../types.js';

/** Everything a detector may know about a proposed call. Built once per call by the loop. */
export interface CallContext {
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly identity: CallIdentity;
  /**
   * The key a learned ban on this exact call is filed under: the identity's call key, or the
   * adapter's `failureKey` where fewer arguments decide whether the call fails.
   */
  readonly banKey: string;
  readonly facts: CallFacts;
  readonly toolPolicy: ResolvedToolPolicy;
  /** Calls issued together in one model step share a step id. */
  readonly step?: string | number;
  /** Milliseconds, from the injected clock. */
  readonly now: number;
  /** `read_file {path: "a.ts"}`: for reasons and evidence. */
  readonly description: string;
}

/** What the loop learned from executing a call, as detectors need it. */
export interface ObservedOutcome {
  readonly success: boolean;
  /** Present when the call failed. */
  readonly failure?: FailureFacts;
  /** Digest of the masked result, whole content. */
  readonly resultDigest: string;
  /** The tool flagged the result as making no progress (MCP `_meta`). */
  readonly nonAdvancing: boolean;
  /** A search or query that found nothing: no progress either, though not the tool's own word. */
  readonly empty?: boolean;
  /**
   * The error or result text for evidence: cut to 300 characters, with credentials redacted, so
   * that what a detector keeps (and saves with its state) never holds a secret in clear.
   */
  readonly text: string;
  /** The whole result text (a file's content, for a read). */
  readonly content: string;
  /**
   * The content's error shape (values masked), by the adapter's `errorShape` when it has one and
   * the engine's own otherwise; shaped on first use.
   */
  readonly errorShape?: string;
  /**
   * `errorShape` computed when the returned function is first called, from a copy of the little of
   * the content it reads: for a detector that keeps a shape it may never compare.
   */
  deferredErrorShape?(): () => string;
  readonly score?: number;
  /**
   * A success that changed the world (a mutation, creation or deletion that was not a repeat of
   * the target's last change, or a command with unknown effects).
   */
  readonly changedWorld: boolean;
  /**
   * A success with a side effect through the service the call talks to (`call.facts.service`): a
   * booking, a cancellation, a message. No file changed, but the service's other answers may have.
   */
  readonly changedService?: boolean;
  /**
   * A success of a call with an outside effect whose answer names the call's own tool: a tool that
   * confirms before it acts, asking for itself again (see `DomainAdapter.answerNamesTool`).
   */
  readonly namesOwnTool?: boolean;
}

/**
 * A run-scoped loop detector. `check` runs before a call and must be O(1); `observe` runs after a
 * call that executed. Detectors never see harness faults as loop evidence: the loop passes them
 * only to detectors that declare `observesHarnessFaults`.
 */
export interface Detector {
  readonly name: string;
  readonly observesHarnessFaults?: boolean;
  check(call: CallContext): Violation | undefined;
  observe(call: CallContext, outcome: ObservedOutcome): void;
  /** Called with the final verdict of every check, executed or not, and the violation that decided it. */
  afterCheck?(call: CallContext, verdict: VerdictKind, decisive?: Violation): void;
  /** A new run (a user message) or a new session: streaks start over. */
  reset(reason: 'user' | 'session'): void;
  /** The context was compacted: the agent has forgotten what it read. */
  compacted?(): void;
  /**
   * The host took these earlier calls' answers out of the agent's context (a partial compaction):
   * the agent no longer has what they returned, so asking them again is not a repeat.
   */
  answersHidden?(calls: readonly CallContext[]): void;
  /**
   * The file at `target` was written where the guard could not see it (the user, a formatter,
   * another agent): the probe found it changed since a call failed on it or since it was last read,
   * and no call the guard saw wrote it. What was seen of it no longer holds.
   */
  changedOutside?(target: string): void;
  snapshot(): unknown;
  restore(state: unknown): void;
}
