/**
 * The Node face of the engine: the same `NarrowingLoop`, plus what a process needs around it —
 * a validated policy (object or file), a state file that persists learned constraints across
 * restarts, and a journal with a receipt chain.
 */
import { createToolCallAdapter } from './adapters/tool-call/index.js';
import { createJournal, describeJournalProblem } from './audit/index.js';
import { NarrowingLoop as EngineLoop, type NarrowingLoopOptions } from './core/loop.js';
import type { Policy, PolicyInput } from './core/policy.js';
import type { DomainAdapter } from './core/types.js';
import { createFileProbe } from './node/file-probe.js';
import { loadPolicyFile, parsePolicy } from './policy-file/index.js';
import { createFileStore, describeStoreProblem } from './stores/index.js';

export interface NarrowingOptions extends Omit<NarrowingLoopOptions, 'adapter' | 'policy'> {
  /** The domain adapter; the tool-call adapter when omitted. */
  readonly adapter?: DomainAdapter;
  /** A policy object (validated) or the path of a JSON or YAML policy file. */
  readonly policy?: PolicyInput | Policy | string;
  /** A JSON file where learned constraints persist; a new process inherits them. */
  readonly statePath?: string;
  /** An append-only JSONL journal of every proposal, verdict, outcome and constraint change. */
  readonly journalPath?: string;
  /** Hash-chain the journal so that tampering is detectable (default: on). */
  readonly receipts?: boolean;
  /** Where problems with the state file or the journal are reported (default: stderr). */
  readonly onProblem?: (message: string) => void;
}

function reportToStderr(message: string): void {
  process.stderr.write(`narrowing: ${message}\n`);
}

function resolvePolicyOption(policy: NarrowingOptions['policy']): Policy | undefined {
  if (policy === undefined) return undefined;
  return typeof policy === 'string' ? loadPolicyFile(policy) : parsePolicy(policy);
}

export class NarrowingLoop extends EngineLoop {
  constructor(options: NarrowingOptions = {}) {
    const onProblem = options.onProblem ?? reportToStderr;
    const store =
      options.store ??
      (options.statePath
        ? createFileStore({
            path: options.statePath,
            onProblem: (problem) => onProblem(describeStoreProblem(problem)),
          })
        : undefined);
    const audit =
      options.audit ??
      (options.journalPath
        ? createJournal({
            path: options.journalPath,
            receipts: options.receipts ?? true,
            onProblem: (problem) => onProblem(describeJournalProblem(problem)),
          })
        : undefined);
    super({
      ...options,
      // Without a probe a ban on a file's existence outlives the file being created by hand.
      probe: options.probe ?? createFileProbe(),
      adapter: options.adapter ?? createToolCallAdapter(),
      policy: resolvePolicyOption(options.policy),
      store,
      audit,
    });
  }
}
