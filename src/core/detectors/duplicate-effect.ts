/**
 * Duplicate side effects: a booking, a message, a payment or a new record that already went through
 * once, asked for again with the same arguments. Reads can be repeated at no cost; a second booking
 * is a second booking. Only calls the adapter marks as having an outside effect are watched, and
 * never polls or tools declared idempotent. A call whose arguments say nothing of what it sends (a
 * bare `submit`, `deploy`) sends what the world holds when it runs: once the world changed after it
 * went through, the same call sends something new. A tool that confirms before it acts answers the
 * first call by naming itself, the way to go on (SWE-agent's `submit` shows the changes and asks for
 * `submit` again): the same call after such an answer is the one it asked for.
 */
import { canonicalJson, hashString } from '../identity/index.js';
import type { Violation } from '../types.js';
import { isHarnessFault, isWatched, kindOf } from './applicability.js';
import { LruMap } from './bounded.js';
import { readEntries, readSnapshot, readString } from './restore.js';
import type { CallContext, Detector, ObservedOutcome } from './types.js';
import { withAlternatives } from './wording.js';

const NAME = 'duplicate-effect';
const MAX_CALLS = 2_000;
const VERSION = 1;

interface Done {
  /** What the call returned the first time, for the reason. */
  readonly result: string;
  /** How many changes of the world the run had seen when the call went through (this process only). */
  readonly changes?: number;
  /** The answer named the call's own tool: it asked for the call again rather than doing it. */
  readonly askedAgain?: boolean;
}

/**
 * The arguments exactly, unmasked: two bookings whose only difference is a date or an id are two
 * bookings, whereas a call key treats them as one shape.
 */
function exactKey(call: CallContext): string {
  return `${call.tool}\u0000${hashString(canonicalJson(call.args))}`;
}

function watches(call: CallContext): boolean {
  return (
    call.facts.sideEffect === true &&
    kindOf(call) !== 'poll' &&
    isWatched(call, call.toolPolicy.detectors.duplicateEffect)
  );
}

/** A call with no arguments: it names nothing of what it sends. */
function namesNothing(call: CallContext): boolean {
  for (const _ in call.args) return false;
  return true;
}

export function createDuplicateEffectDetector(): Detector {
  const done = new LruMap<Done>(MAX_CALLS);
  /** Changes of the world seen so far: a bare call made again after one sends something new. */
  let changes = 0;

  return {
    name: NAME,

    check(call: CallContext): Violation | undefined {
      if (!watches(call)) return undefined;
      const earlier = done.peek(exactKey(call));
      if (earlier === undefined || earlier.askedAgain === true) return undefined;
      if (earlier.changes !== undefined && earlier.changes !== changes && namesNothing(call))
        return undefined;
      return describe(call, earlier);
    },

    observe(call: CallContext, outcome: ObservedOutcome): void {
      if (outcome.changedWorld) changes++;
      if (isHarnessFault(outcome) || !outcome.success || !watches(call)) return;
      done.set(exactKey(call), {
        result: outcome.text.slice(0, 160),
        changes,
        ...(outcome.namesOwnTool === true && { askedAgain: true }),
      });
    },

    // A new request from the user may ask for the same thing again.
    reset(): void {
      done.clear();
    },

    snapshot(): unknown {
      // The count of changes belongs to this process: a restored call is judged as before it.
      return {
        version: VERSION,
        done: done
          .entries()
          .map(([key, { result, askedAgain }]) => [key, { result, ...(askedAgain && { askedAgain }) }]),
      };
    },

    restore(state: unknown): void {
      done.clear();
      const snapshot = readSnapshot(state, VERSION);
      for (const [key, value] of readEntries(snapshot?.done, MAX_CALLS, readDone)) done.set(key, value);
    },
  };
}

function describe(call: CallContext, earlier: Done): Violation {
  const returned = earlier.result === '' ? '' : ` (it returned: ${earlier.result})`;
  return {
    rule: NAME,
    severity: 'block',
    reason:
      `${call.description} already succeeded in this run${returned}; doing it again with the same ` +
      'arguments would do it twice.',
    suggestion: withAlternatives(
      'Use the result of the first call. If a second one is really wanted, ask the user to confirm it.',
      call.toolPolicy.alternatives,
    ),
    evidence: { count: 1, calls: [call.description] },
  };
}

function readDone(raw: Record<string, unknown>): Done | undefined {
  const result = readString(raw.result);
  if (result === undefined) return undefined;
  return raw.askedAgain === true ? { result, askedAgain: true } : { result };
}
