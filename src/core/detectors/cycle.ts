/**
 * A short sequence of calls repeating with identical results: A → B → A → B → A… Each call on
 * its own may look fine (different calls, nothing failing), but the sequence goes nowhere. A
 * productive read → edit → test cycle never matches, because its results keep changing.
 */
import type { Violation } from '../types.js';
import { isHarnessFault, isWatched, kindOf } from './applicability.js';
import { Ring } from './bounded.js';
import { isRecord, readSnapshot, readString } from './restore.js';
import type { CallContext, Detector, ObservedOutcome } from './types.js';
import { times, withAlternatives } from './wording.js';

const NAME = 'cycle';
/** Room for a period of up to 16 seen 4 times; larger settings are clamped to what is held. */
const CAPACITY = 64;
const VERSION = 1;

/** The call and its result together: both must repeat for the sequence to repeat. */
interface Token {
  readonly callKey: string;
  readonly success: boolean;
  readonly resultDigest: string;
  /** The call itself, whose description is written only if a cycle is ever reported. */
  readonly call: { readonly description: string };
}

function sameToken(a: Token | undefined, b: Token | undefined): boolean {
  return (
    a !== undefined &&
    b !== undefined &&
    a.callKey === b.callKey &&
    a.success === b.success &&
    a.resultDigest === b.resultDigest
  );
}

function stepKey(token: Token): string {
  return `${token.callKey} ${token.success ? 'ok' : 'error'} ${token.resultDigest}`;
}

export function createCycleDetector(): Detector {
  const history = new Ring<Token>(CAPACITY);

  /** True when the newest `span` tokens repeat with period `period`. */
  function repeats(period: number, span: number): boolean {
    for (let offset = 0; offset + period < span; offset++) {
      if (!sameToken(history.fromEnd(offset), history.fromEnd(offset + period))) return false;
    }
    return true;
  }

  function pattern(period: number): Token[] {
    const out: Token[] = [];
    for (let offset = period - 1; offset >= 0; offset--) out.push(history.fromEnd(offset) as Token);
    return out;
  }

  return {
    name: NAME,

    check(call: CallContext): Violation | undefined {
      const limits = call.toolPolicy.detectors.cycle;
      if (!isWatched(call, limits) || kindOf(call) === 'poll') return undefined;
      const seen = Math.max(1, limits.repetitions - 1);
      for (let period = Math.max(2, limits.minPeriod); period <= limits.maxPeriod; period++) {
        const span = seen * period;
        if (span > history.length) break;
        // The proposal must be the call that would begin the sequence once more.
        if (history.fromEnd(period - 1)?.callKey !== call.identity.callKey) continue;
        if (!repeats(period, span)) continue;
        const steps = pattern(period);
        // A loop goes round distinct steps (A → B → A → B); a period that repeats a step inside
        // itself (A → B → A) is as likely to be varied work that happened to line up. The same
        // check answering differently on each state it visits (a test run on each of two branches,
        // two alternating errors) is a distinct step each time: the cycle goes round the states.
        if (new Set(steps.map(stepKey)).size !== period) continue;
        return describe(call, steps, seen);
      }
      return undefined;
    },

    observe(call: CallContext, outcome: ObservedOutcome): void {
      if (isHarnessFault(outcome)) return;
      // Exempt tools and polls are invisible: they neither form nor interrupt a cycle.
      if (!isWatched(call, call.toolPolicy.detectors.cycle) || kindOf(call) === 'poll') return;
      history.push({
        callKey: call.identity.callKey,
        success: outcome.success,
        resultDigest: outcome.resultDigest,
        call,
      });
    },

    reset(): void {
      history.clear();
    },

    compacted(): void {
      // Going over the same ground again is legitimate once the agent has forgotten it.
      history.clear();
    },

    snapshot(): unknown {
      const tokens = history.toArray();
      return {
        version: VERSION,
        history: tokens.map(({ callKey, success, resultDigest, call }) => ({
          callKey,
          token: `${callKey} ${success ? 'ok' : 'error'} ${resultDigest}`,
          description: call.description,
        })),
      };
    },

    restore(state: unknown): void {
      history.clear();
      const snapshot = readSnapshot(state, VERSION);
      const items = Array.isArray(snapshot?.history) ? snapshot.history.slice(-CAPACITY) : [];
      for (const item of items) {
        const token = readToken(item);
        if (token) history.push(token);
      }
    },
  };
}

function describe(call: CallContext, steps: readonly Token[], seen: number): Violation {
  const descriptions = steps.map((step) => step.call.description);
  const sequence = descriptions.join(' → ');
  return {
    rule: NAME,
    severity: 'block',
    reason:
      `The same ${steps.length}-call sequence has run ${times(seen)} in a row with identical results ` +
      `(${sequence}); starting it again will not change anything.`,
    suggestion: withAlternatives(
      'Use what these calls already returned, or change something before going through them again.',
      call.toolPolicy.alternatives,
    ),
    evidence: { count: seen, calls: descriptions, period: steps.length },
  };
}

function readToken(raw: unknown): Token | undefined {
  if (!isRecord(raw)) return undefined;
  const callKey = readString(raw.callKey);
  const token = readString(raw.token);
  if (callKey === undefined || token === undefined || !token.startsWith(`${callKey} `)) return undefined;
  // The stored form is `<call key> ok|error <result digest>`.
  const [status, resultDigest, ...rest] = token.slice(callKey.length + 1).split(' ');
  if ((status !== 'ok' && status !== 'error') || resultDigest === undefined || rest.length > 0)
    return undefined;
  return {
    callKey,
    success: status === 'ok',
    resultDigest,
    call: { description: readString(raw.description) ?? callKey },
  };
}
