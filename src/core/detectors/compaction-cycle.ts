/**
 * Cycles across context compactions: the context is compacted, the agent re-reads the same files
 * (or re-runs the same searches, queries and read-only commands), they say what they said before,
 * and the context is compacted again with nothing done in between.
 * One re-read after a compaction is how an agent gets back what it forgot, and stays allowed; a
 * second cycle that re-reads what the first one re-read, with nothing written and nothing new
 * learned since, is the agent going round: the first of its re-reads is warned, the rest blocked,
 * and every re-read of a third such cycle is blocked.
 *
 * A cycle is the stretch between two compactions. It made progress when any call in it changed the
 * world or returned something no earlier call with the same arguments had returned (a file that
 * changed, a new error, a query never asked): the next cycle is then a new one.
 */
import type { ActionKind, VerdictKind, Violation } from '../types.js';
import { isHarnessFault, isWatched, kindOf } from './applicability.js';
import { LruMap } from './bounded.js';
import { isRecord, readCount, readPairs, readSnapshot, readStrings } from './restore.js';
import type { CallContext, Detector, ObservedOutcome } from './types.js';
import { withAlternatives } from './wording.js';

const NAME = 'compaction-cycle';
/**
 * What the agent can run again to get back what it forgot: reads, searches, queries, and commands
 * that changed nothing (`cat`, `grep`, `git status`). Polls are meant to be asked again.
 */
const REREAD_KINDS: ReadonlySet<ActionKind> = new Set(['read', 'search', 'api', 'exec']);
/** Results remembered, by call: enough for a long session's distinct calls. */
const MAX_KNOWN = 256;
/** Re-reads remembered per cycle and across a streak of cycles. */
const MAX_REREADS = 128;
const VERSION = 1;

/** What happened since the last compaction. */
interface Cycle {
  /** Proposals since the last compaction: a compaction with none before it is the same one again. */
  proposals: number;
  /** A call changed the world or returned something new. */
  progressed: boolean;
  /** Queries re-run (or proposed again and blocked) that returned what they returned before. */
  readonly rereads: Set<string>;
  /** A re-read of the repeated cycle already ran in this one, and was warned: the next is blocked. */
  warned: boolean;
}

function freshCycle(): Cycle {
  return { proposals: 0, progressed: false, rereads: new Set(), warned: false };
}

export function createCompactionCycleDetector(): Detector {
  /** The digest each call last returned, successes and agent failures alike. */
  const known = new LruMap<string>(MAX_KNOWN);
  let cycle = freshCycle();
  /** Cycles in a row, each ended by a compaction, that re-read what they knew and made no progress. */
  let stalled = 0;
  /** What those cycles re-read. */
  const repeated = new LruMap<true>(MAX_REREADS);

  /** A query the last stalled cycles re-read, proposed again while nothing has progressed since. */
  function repeats(call: CallContext): boolean {
    return (
      stalled > 0 &&
      !cycle.progressed &&
      isWatched(call, call.toolPolicy.detectors.compactionCycle) &&
      REREAD_KINDS.has(kindOf(call)) &&
      repeated.peek(call.identity.callKey) !== undefined
    );
  }

  function clear(): void {
    known.clear();
    repeated.clear();
    stalled = 0;
    cycle = freshCycle();
  }

  return {
    name: NAME,

    check(call: CallContext): Violation | undefined {
      if (!repeats(call)) return undefined;
      return describe(call, stalled, stalled >= 2 || cycle.warned ? 'block' : 'warn');
    },

    afterCheck(call: CallContext, verdict: VerdictKind): void {
      cycle.proposals++;
      // Stopped before it ran: it is still this cycle going round the same files.
      if ((verdict === 'block' || verdict === 'halt') && repeats(call) && cycle.rereads.size < MAX_REREADS)
        cycle.rereads.add(call.identity.callKey);
    },

    observe(call: CallContext, outcome: ObservedOutcome): void {
      if (isHarnessFault(outcome)) return;
      const key = call.identity.callKey;
      const before = known.peek(key);
      const same = before === outcome.resultDigest;
      const warned = repeats(call);
      if (before === undefined) known.add(key, outcome.resultDigest);
      else known.set(key, outcome.resultDigest);
      if (outcome.changedWorld || !same) {
        cycle.progressed = true;
      } else if (outcome.success && REREAD_KINDS.has(kindOf(call))) {
        if (cycle.rereads.size < MAX_REREADS) cycle.rereads.add(key);
        // The warning was read with an answer the agent already had: the next re-read is blocked.
        if (warned) cycle.warned = true;
      }
    },

    compacted(): void {
      // Hosts announce one compaction more than once (before it, after it, at the restart).
      if (cycle.proposals === 0) return;
      if (!cycle.progressed && cycle.rereads.size > 0) {
        stalled++;
        for (const key of cycle.rereads) repeated.set(key, true);
      } else {
        stalled = 0;
        repeated.clear();
      }
      cycle = freshCycle();
    },

    // A user message may ask for something new, and the user may have changed files by hand.
    reset(): void {
      clear();
    },

    snapshot(): unknown {
      return {
        version: VERSION,
        known: known.entries(),
        stalled,
        repeated: repeated.entries().map(([key]) => key),
        cycle: {
          proposals: cycle.proposals,
          progressed: cycle.progressed,
          rereads: [...cycle.rereads],
          warned: cycle.warned,
        },
      };
    },

    restore(state: unknown): void {
      clear();
      const snapshot = readSnapshot(state, VERSION);
      if (snapshot === undefined) return;
      for (const [key, digest] of readPairs(snapshot.known, MAX_KNOWN)) known.set(key, digest);
      stalled = readCount(snapshot.stalled) ?? 0;
      for (const key of readStrings(snapshot.repeated, MAX_REREADS)) repeated.set(key, true);
      const saved = snapshot.cycle;
      if (isRecord(saved)) {
        cycle.proposals = readCount(saved.proposals) ?? 0;
        cycle.progressed = saved.progressed === true;
        for (const key of readStrings(saved.rereads, MAX_REREADS)) cycle.rereads.add(key);
        cycle.warned = saved.warned === true;
      }
    },
  };
}

function describe(call: CallContext, stalled: number, severity: 'warn' | 'block'): Violation {
  const after =
    stalled === 1
      ? 'after the last compaction of your context'
      : `after each of the last ${stalled} compactions of your context`;
  const seen =
    `You already ran ${call.description} again ${after}, it returned what it had returned before, and ` +
    'nothing was written or learned before the context was compacted again';
  const reason =
    severity === 'block'
      ? `${seen}: running it again would start the same cycle over, so it is blocked.`
      : `${seen}: running it again starts the same cycle over.`;
  return {
    rule: NAME,
    severity,
    reason,
    suggestion: withAlternatives(
      'Write down what these files told you and your plan (a notes file, your todo list) so that it ' +
        'survives the next compaction, then act on it: edit, run, or read something you have not read.',
      call.toolPolicy.alternatives,
    ),
    evidence: { count: stalled, calls: [call.description] },
  };
}
