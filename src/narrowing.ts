/**
 * `NarrowingLoop`: the three calls for people who own their agent loop — `checkProposal` before a
 * tool runs, `recordOutcome` after it, `isDone` to know when nothing is left to try — on a guard
 * opened through `openGuard`, so that it behaves as the MCP proxy and the hooks do.
 */
import type { Journal } from './audit/journal.js';
import type { Detector } from './core/detectors/types.js';
import type { NarrowingEngine } from './core/loop.js';
import type { Policy, PolicyInput } from './core/policy.js';
import type {
  CheckResult,
  Clock,
  Constraint,
  ConvergenceReport,
  DomainAdapter,
  EngineSnapshot,
  Outcome,
  PersistedState,
  Proposal,
  ReceiptVerification,
  RecordResult,
  StateStore,
  WorldProbe,
} from './core/types.js';
import { openGuardSync } from './guard/open.js';
import type { GuardSession, RunReason } from './guard/session.js';

export interface NarrowingOptions {
  /** The domain adapter; the tool-call adapter when omitted. */
  readonly adapter?: DomainAdapter;
  /** A policy object (validated) or the path of a JSON or YAML policy file. */
  readonly policy?: PolicyInput | Policy | string;
  /** A JSON file where learned constraints persist; a new process inherits them. In memory when absent. */
  readonly statePath?: string;
  /** A store of your own instead of `statePath`. */
  readonly store?: StateStore;
  /** An append-only JSONL journal of every proposal, verdict, outcome and constraint change. */
  readonly journalPath?: string;
  /** A journal already open (shared by several loops of this process), instead of `journalPath`. */
  readonly journal?: Journal;
  /** Hash-chain the journal so that tampering is detectable (default: on). */
  readonly receipts?: boolean;
  /** The folder relative paths in calls are resolved against. Default: the current directory. */
  readonly workspaceRoot?: string;
  /** How bans on files are checked against the world (is it there, what does it hold); `false` for none. Default: the file system. */
  readonly probe?: WorldProbe | false;
  readonly clock?: Clock;
  readonly sessionId?: string;
  /** Replaces the default loop detectors (for custom domains). */
  readonly detectors?: readonly Detector[];
  /** Where problems with the state file or the journal are reported (default: stderr). */
  readonly onProblem?: (message: string) => void;
}

export class NarrowingLoop {
  /** The guard session underneath, as every other face of narrowing holds it. */
  readonly session: GuardSession;
  private readonly engine: NarrowingEngine;

  constructor(options: NarrowingOptions = {}) {
    this.session = openGuardSync({
      store: options.store ?? (options.statePath === undefined ? 'memory' : 'file'),
      journal: options.journal ?? options.journalPath ?? false,
      ...(options.statePath !== undefined && { statePath: options.statePath }),
      ...(options.adapter && { adapter: options.adapter }),
      ...(options.policy !== undefined && { policy: options.policy }),
      ...(options.receipts !== undefined && { receipts: options.receipts }),
      ...(options.workspaceRoot !== undefined && { workspaceRoot: options.workspaceRoot }),
      ...(options.probe !== undefined && { probe: options.probe }),
      ...(options.clock && { clock: options.clock }),
      ...(options.sessionId !== undefined && { sessionId: options.sessionId }),
      ...(options.detectors && { detectors: options.detectors }),
      ...(options.onProblem && { onProblem: options.onProblem }),
    });
    this.engine = this.session.engine;
  }

  get policy(): Policy {
    return this.session.policy;
  }

  get adapter(): DomainAdapter {
    return this.engine.adapter;
  }

  get sessionId(): string {
    return this.session.sessionId;
  }

  /** 1. Before the call: allow, warn, block or halt, and why. */
  checkProposal(proposal: Proposal): CheckResult {
    return this.session.check(proposal);
  }

  /** 2. After the call: what it teaches. */
  recordOutcome(outcome: Outcome): RecordResult {
    return this.session.record(outcome);
  }

  /** 3. Nothing is left to try. */
  isDone(): boolean {
    return this.session.isDone();
  }

  stop(reason?: string): void {
    this.engine.stop(reason);
  }

  getConvergence(): ConvergenceReport {
    return this.engine.getConvergence();
  }

  getActiveConstraints(): Constraint[] {
    return this.engine.getActiveConstraints();
  }

  snapshot(): EngineSnapshot {
    return this.engine.snapshot();
  }

  restore(state: EngineSnapshot | PersistedState, options?: { scope?: 'all' | 'persistent' }): void {
    this.engine.restore(state, options);
  }

  exportState(): PersistedState {
    return this.engine.exportState();
  }

  resetSession(sessionId?: string): void {
    this.session.resetSession(sessionId);
  }

  newRun(reason: RunReason): void {
    this.session.newRun(reason);
  }

  verifyReceipts(): ReceiptVerification {
    return this.engine.verifyReceipts();
  }

  flush(): Promise<void> {
    return this.session.flush();
  }

  close(): Promise<void> {
    return this.session.close();
  }
}
