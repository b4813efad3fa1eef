import type {
  CheckResult,
  ConvergenceReport,
  Outcome,
  Proposal,
  RecordResult,
  VerdictKind,
} from '../../../src/core/types.js';
import type { CallGuard } from '../../../src/guard/session.js';

const PROGRESSING: ConvergenceReport = { state: 'progressing', steps: 0, reason: 'scripted' };

/** A verdict as the engine would give it, for plumbing tests that must not depend on its rules. */
export function verdict(
  kind: VerdictKind,
  reason = 'scripted reason',
  suggestion = 'scripted suggestion',
): CheckResult {
  if (kind === 'allow') {
    return {
      allowed: true,
      verdict: 'allow',
      violations: [],
      activeConstraints: 0,
      radiusLimit: 0,
      searchSpaceReduction: 0,
    };
  }
  return {
    allowed: kind === 'warn',
    verdict: kind,
    violations: [
      { rule: 'scripted', severity: kind, reason, suggestion, evidence: { count: 2, lastError: 'boom' } },
    ],
    rule: 'scripted',
    reason,
    suggestion,
    activeConstraints: 1,
    radiusLimit: 0,
    searchSpaceReduction: 0,
  };
}

/** A guard that answers from a script and remembers everything it was shown. */
export class ScriptedGuard implements CallGuard {
  readonly proposals: Proposal[] = [];
  readonly outcomes: Outcome[] = [];
  closed = false;

  constructor(private readonly decide: (proposal: Proposal) => VerdictKind = () => 'allow') {}

  check(proposal: Proposal): CheckResult {
    this.proposals.push(proposal);
    return verdict(this.decide(proposal));
  }

  record(outcome: Outcome): RecordResult {
    this.outcomes.push(outcome);
    return {
      outcome: {
        success: outcome.success,
        tool: outcome.proposal.tool,
        actionClass: 'scripted',
        kind: 'other',
        targets: [],
        blame: 'none',
        nonAdvancing: false,
        resultDigest: '',
      },
      newConstraints: [],
      liftedConstraints: [],
      activeConstraints: 0,
      radiusLimit: 0,
      convergence: PROGRESSING,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
