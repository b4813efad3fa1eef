/**
 * Status checks are meant to be repeated, so they are held to a much looser standard than other
 * calls: never a word while the status changes; a warning, and much later a block, when it has
 * stopped changing and the agent keeps asking.
 */
import type { Violation } from '../types.js';
import { isHarnessFault, isWatched, kindOf } from './applicability.js';
import { LruMap } from './bounded.js';
import { readCount, readEntries, readSnapshot, readString } from './restore.js';
import type { CallContext, Detector, ObservedOutcome } from './types.js';
import { excerpt, times, withAlternatives } from './wording.js';

const NAME = 'poll';
const MAX_CALLS = 1_000;
const VERSION = 1;

interface Unchanged {
  digest: string;
  /** Results in a row equal to `digest`, the first one included. */
  count: number;
  text: string;
}

export function createPollDetector(): Detector {
  const calls = new LruMap<Unchanged>(MAX_CALLS);

  return {
    name: NAME,

    check(call: CallContext): Violation | undefined {
      const limits = call.toolPolicy.detectors.poll;
      if (!isWatched(call, limits) || kindOf(call) !== 'poll') return undefined;
      const entry = calls.peek(call.identity.callKey);
      if (!entry) return undefined;
      const proposal = entry.count + 1;
      if (proposal >= limits.blockAt) return describe(call, entry, 'block');
      if (proposal >= limits.warnAt) return describe(call, entry, 'warn');
      return undefined;
    },

    observe(call: CallContext, outcome: ObservedOutcome): void {
      if (isHarnessFault(outcome)) return;
      if (!isWatched(call, call.toolPolicy.detectors.poll) || kindOf(call) !== 'poll') return;
      const key = call.identity.callKey;
      const entry = calls.peek(key);
      if (!outcome.success) {
        calls.delete(key);
      } else if (entry && entry.digest === outcome.resultDigest) {
        entry.count++;
        calls.set(key, entry);
      } else {
        calls.set(key, { digest: outcome.resultDigest, count: 1, text: excerpt(outcome.text) });
      }
    },

    reset(): void {
      calls.clear();
    },

    snapshot(): unknown {
      return { version: VERSION, calls: calls.entries() };
    },

    restore(state: unknown): void {
      calls.clear();
      const snapshot = readSnapshot(state, VERSION);
      for (const [key, entry] of readEntries(snapshot?.calls, MAX_CALLS, readUnchanged)) {
        calls.set(key, entry);
      }
    },
  };
}

function describe(call: CallContext, entry: Unchanged, severity: 'warn' | 'block'): Violation {
  const repeated = `has returned the same status ${times(entry.count)} in a row`;
  const seen = `${call.description} ${repeated} (${entry.text})`;
  const reason =
    severity === 'block'
      ? `${seen}, so further polling is blocked: whatever it waits for is not moving.`
      : `${seen}; it may be stuck rather than slow.`;
  const suggestion =
    severity === 'block'
      ? 'Investigate why it is not progressing (logs, the job itself), or tell the user it appears stuck.'
      : 'Wait longer between checks, or look into why the status is not changing.';
  return {
    rule: NAME,
    severity,
    reason,
    suggestion: withAlternatives(suggestion, call.toolPolicy.alternatives),
    evidence: { count: entry.count, calls: [call.description], lastResult: entry.text },
  };
}

function readUnchanged(raw: Record<string, unknown>): Unchanged | undefined {
  const digest = readString(raw.digest);
  const count = readCount(raw.count);
  if (digest === undefined || count === undefined || count < 1) return undefined;
  return { digest, count, text: readString(raw.text) ?? '' };
}
