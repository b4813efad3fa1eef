/**
 * A guard session that keeps every proposal it checks and every outcome it records, for the tests
 * that ask what a framework face handed the guard (a cancelled call must hand it nothing).
 */
import type { Outcome } from '../../../src/core/types.js';
import { type GuardSession, type OpenGuardOptions, openGuardSync } from '../../../src/guard/index.js';

export interface SpiedSession {
  /** The session to hand a framework face: the real one, its check and record spied on. */
  readonly session: GuardSession;
  /** Each checked proposal as `tool {"arg":…}`, in order. */
  readonly checked: string[];
  readonly recorded: Outcome[];
}

export function spiedSession(options: OpenGuardOptions): SpiedSession {
  const real = openGuardSync(options);
  const checked: string[] = [];
  const recorded: Outcome[] = [];
  const session: GuardSession = {
    ...real,
    check: (proposal) => {
      checked.push(`${proposal.tool} ${JSON.stringify(proposal.args)}`);
      return real.check(proposal);
    },
    record: (outcome) => {
      recorded.push(outcome);
      return real.record(outcome);
    },
  };
  return { session, checked, recorded };
}
