import { createToolCallAdapter } from '../adapters/tool-call/index.js';
import { createJournal, describeJournalProblem, type Journal, JournalInUseError } from '../audit/index.js';
import { NarrowingLoop } from '../core/loop.js';
import type { Enforcement, Policy, PresetName } from '../core/policy.js';
import { createFileProbe } from '../node/file-probe.js';
import { journalSlotPath, stateLayout } from '../node/index.js';
import { loadPolicyFile, parsePolicy } from '../policy-file/index.js';
import { createFileStore, describeStoreProblem } from '../stores/index.js';
import type { Guard } from './guard.js';
import type { Log } from './log.js';

export interface GuardOptions {
  /** Holds `state.json` (what was learned) and the journal. */
  readonly stateDir: string;
  /** A JSON or YAML policy file. */
  readonly policyFile?: string;
  /** Replaces the policy file's preset. */
  readonly preset?: PresetName;
  /** Replaces the policy file's enforcement. */
  readonly enforcement?: Enforcement;
  /** Chain journal entries into verifiable receipts. Default true. */
  readonly receipts?: boolean;
  readonly sessionId?: string;
  readonly log: Log;
}

export interface FileGuard extends Guard {
  readonly statePath: string;
  readonly journalPath: string;
  readonly policy: Policy;
}

/**
 * Another proxy in the same project (one per MCP server in `.mcp.json` is the usual setup)
 * shares the learned state, which merges, but not the journal, whose hash chain takes one
 * writer: the later proxies write numbered journals next to the first.
 */
const JOURNAL_SLOTS = 16;

/** The engine the proxy consults, with what it learned kept in `stateDir` across restarts. */
export function createGuard(options: GuardOptions): FileGuard {
  const { log } = options;
  const policy = resolveGuardPolicy(options);
  const layout = stateLayout(options.stateDir);
  const journal = openJournal(layout.journal, options);
  const store = createFileStore({
    path: layout.state,
    onProblem: (problem) => log(describeStoreProblem(problem)),
  });
  const loop = new NarrowingLoop({
    adapter: createToolCallAdapter(),
    policy,
    store,
    audit: journal,
    // The server usually shares this machine's files; where it does not, a wrong "exists" only costs
    // one retry, never a block.
    probe: createFileProbe(),
    ...(options.sessionId !== undefined && { sessionId: options.sessionId }),
  });
  return {
    statePath: layout.state,
    journalPath: journal.path,
    policy: loop.policy,
    checkProposal: (proposal) => loop.checkProposal(proposal),
    recordOutcome: (outcome) => loop.recordOutcome(outcome),
    close: () => loop.close(),
  };
}

/** The policy file (validated, with readable errors), then the command line's preset and enforcement. */
export function resolveGuardPolicy(
  options: Pick<GuardOptions, 'policyFile' | 'preset' | 'enforcement'>,
): Policy {
  const preset = options.preset ? { preset: options.preset } : {};
  const policy = options.policyFile ? loadPolicyFile(options.policyFile, preset) : parsePolicy(preset);
  return options.enforcement ? { ...policy, enforcement: options.enforcement } : policy;
}

function openJournal(path: string, options: GuardOptions): Journal {
  const settings = {
    receipts: options.receipts ?? true,
    ...(options.sessionId !== undefined && { sessionId: options.sessionId }),
    onProblem: (problem: Parameters<typeof describeJournalProblem>[0]) =>
      options.log(describeJournalProblem(problem)),
  };
  for (let slot = 1; slot <= JOURNAL_SLOTS; slot += 1) {
    const candidate = journalSlotPath(path, slot);
    try {
      const journal = createJournal({ path: candidate, ...settings });
      if (slot > 1) options.log(`${path} is in use by another process; journaling to ${candidate}`);
      return journal;
    } catch (error) {
      if (!(error instanceof JournalInUseError)) throw error;
    }
  }
  throw new Error(
    `every journal slot in ${path.replace(/[^/\\]+$/, '')} is in use (${JOURNAL_SLOTS} processes): ` +
      'stop some of them, or give this proxy its own --state-dir',
  );
}
