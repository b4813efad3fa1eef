/**
 * The same call returning the same result again while nothing changed: the agent is re-asking a
 * question it already has the answer to. Polls are left to the poll detector, and failures to the
 * identical-failure rule, which knows about blame.
 */
import type { Violation } from '../types.js';
import { isHarnessFault, isWatched, kindOf } from './applicability.js';
import { LruMap } from './bounded.js';
import { readCount, readEntries, readNumber, readSnapshot, readString } from './restore.js';
import type { CallContext, Detector, ObservedOutcome } from './types.js';
import { excerpt, times, withAlternatives } from './wording.js';

const NAME = 'identical-result';
const MAX_CALLS = 1_000;
/**
 * Calls remembered beyond the widest window in use: outcomes arrive after a whole batch of
 * proposals when an agent dispatches calls in parallel.
 */
const BATCH_ROOM = 64;
const VERSION = 1;

interface Repeats {
  digest: string;
  /** How many times in a row this call returned `digest`. */
  count: number;
  /** The world version when it last did: any change since makes the next call a new question. */
  world: number;
  /** Sequence number of the executed call that last returned `digest`. */
  at: number;
  text: string;
}

export function createIdenticalResultDetector(): Detector {
  const calls = new LruMap<Repeats>(MAX_CALLS);
  let world = 0;
  /**
   * Proposals so far, executed or not: a repeat after the agent tried something else in between
   * is an agent coming back, not a loop.
   */
  let proposed = 0;
  /**
   * The widest `withinCalls` seen. A call further back than every window can never count as a
   * repeat again, and keeping a thousand of them only gives the collector work.
   */
  let widestWindow = 1;

  function current(callKey: string, withinCalls: number, next: number): Repeats | undefined {
    const entry = calls.peek(callKey);
    return entry && entry.world === world && next - entry.at <= withinCalls ? entry : undefined;
  }

  return {
    name: NAME,

    check(call: CallContext): Violation | undefined {
      const limits = call.toolPolicy.detectors.identicalResult;
      if (!isWatched(call, limits) || kindOf(call) === 'poll') return undefined;
      const entry = current(call.identity.callKey, limits.withinCalls, proposed + 1);
      if (!entry) return undefined;
      // The proposal being checked would be the next identical call.
      const proposal = entry.count + 1;
      if (proposal >= limits.blockAt) return describe(call, entry, 'block');
      if (proposal >= limits.warnAt) return describe(call, entry, 'warn');
      return undefined;
    },

    observe(call: CallContext, outcome: ObservedOutcome): void {
      if (isHarnessFault(outcome)) return;
      const key = call.identity.callKey;
      const limits = call.toolPolicy.detectors.identicalResult;
      if (isWatched(call, limits) && kindOf(call) !== 'poll') {
        if (limits.withinCalls > widestWindow) widestWindow = limits.withinCalls;
        const entry = current(key, limits.withinCalls, proposed);
        if (!outcome.success) {
          calls.delete(key);
        } else if (entry && entry.digest === outcome.resultDigest) {
          entry.count++;
          entry.at = proposed;
          entry.text = excerpt(outcome.text);
          calls.set(key, entry);
        } else {
          calls.set(key, {
            digest: outcome.resultDigest,
            count: 1,
            world,
            at: proposed,
            // Most results are never repeated: their text is kept only where one repeat already
            // warrants a note, instead of holding on to a thousand results.
            text: limits.warnAt <= 2 ? excerpt(outcome.text) : '',
          });
          calls.trim(Math.min(MAX_CALLS, BATCH_ROOM + 4 * widestWindow));
        }
      }
      if (outcome.changedWorld) {
        // A call's own effect does not make its next identical run a new question.
        const own = calls.peek(key);
        world++;
        if (own && own.world === world - 1) own.world = world;
      }
    },

    afterCheck(call: CallContext): void {
      proposed++;
      const limits = call.toolPolicy.detectors.identicalResult;
      if (!isWatched(call, limits) || kindOf(call) === 'poll') return;
      // The same call proposed again keeps its streak alive even when it yields no result to
      // count (blocked, or a harness fault): otherwise every other repeat of a loop would run.
      const entry = current(call.identity.callKey, limits.withinCalls, proposed);
      if (entry) entry.at = proposed;
    },

    reset(): void {
      calls.clear();
    },

    compacted(): void {
      // The agent no longer has what it read; reading it again is legitimate.
      calls.clear();
    },

    snapshot(): unknown {
      const live = calls.entries().filter(([, entry]) => entry.world === world);
      return { version: VERSION, world, proposed, calls: live };
    },

    restore(state: unknown): void {
      calls.clear();
      const snapshot = readSnapshot(state, VERSION);
      world = readCount(snapshot?.world) ?? 0;
      proposed = readCount(snapshot?.proposed) ?? 0;
      for (const [key, entry] of readEntries(snapshot?.calls, MAX_CALLS, readRepeats)) {
        if (entry.world === world) calls.set(key, entry);
      }
    },
  };
}

function describe(call: CallContext, entry: Repeats, severity: 'warn' | 'block'): Violation {
  const seen =
    `${call.description} has returned the same result ${times(entry.count)} ` +
    'and nothing it depends on has changed';
  const reason =
    severity === 'block'
      ? `${seen}, so it is blocked: running it again cannot tell you anything new.`
      : `${seen}; running it again will return the same thing.`;
  const suggestion = withAlternatives(
    'Use the result you already have, or change the arguments or the state the call depends on first.',
    call.toolPolicy.alternatives,
  );
  return {
    rule: NAME,
    severity,
    reason,
    suggestion,
    evidence: {
      count: entry.count,
      // The same call key: the call being checked reads as the ones that returned this result.
      calls: [call.description],
      lastResult: entry.text,
      ...(call.identity.masked.length > 0 ? { masked: call.identity.masked } : {}),
    },
  };
}

function readRepeats(raw: Record<string, unknown>): Repeats | undefined {
  const digest = readString(raw.digest);
  const count = readCount(raw.count);
  const world = readNumber(raw.world);
  if (digest === undefined || count === undefined || count < 1 || world === undefined) return undefined;
  return {
    digest,
    count,
    world,
    at: readNumber(raw.at) ?? 0,
    text: readString(raw.text) ?? '',
  };
}
