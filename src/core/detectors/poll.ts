/**
 * Status checks are meant to be repeated, so they are judged by time, not by count alone: never a
 * word while the status changes, nor while the agent paces itself (gaps that grow past every gap
 * before them, gaps of 20 s or more, a wait between checks; a wait inside a check counts toward its
 * gap). Unchanged answers in quick succession are steered, then blocked; once blocked, one probe is
 * let through at growing intervals, so the answer that finally changes is still seen. While work the
 * agent started in the background runs, any call that only asks is checking on it, and judged so.
 * Checks are counted under the key of their answers: one reworded in the words beside it (a
 * `description` of its own each time) that answers alike is the same check.
 */
import { isBlank } from '../blank.js';
import type { VerdictKind, Violation } from '../types.js';
import { answerKeyOf, isHarnessFault, isWatched } from './applicability.js';
import { BackgroundWork } from './background.js';
import { LruMap } from './bounded.js';
import { readCount, readEntries, readNumber, readSnapshot, readString } from './restore.js';
import type { CallContext, Detector, ObservedOutcome } from './types.js';
import { excerpt, times, withAlternatives } from './wording.js';

const NAME = 'poll';
const MAX_CALLS = 1_000;
const VERSION = 2;
/**
 * A gap this long between two checks gives a status time to change (a CI run checked every 20 s, a
 * user's "check every five minutes"): the agent is pacing, not hammering.
 */
const PACED_GAP_MS = 20_000;
/**
 * A gap that grows by this factor over every gap before it since the answer last changed is a
 * backoff schedule; gaps that wobble (6 s, 10 s, 6 s, 9 s) are not.
 */
const BACKOFF_FACTOR = 1.5;
/** Gaps shorter than this are quick succession, however they compare (clock noise). */
const MIN_BACKOFF_GAP_MS = 1_000;
/** Once blocked, the first probe goes through after this long (or one refusal); each later one waits twice as long. */
const FIRST_PROBE_MS = 30_000;
/** Probes never wait more than 8 refusals or 10 minutes: a long wait should still see the change. */
const MAX_PROBE_SCALE = 8;
const MAX_PROBE_MS = 600_000;

interface Unchanged {
  digest: string;
  /** Unpaced results in a row equal to `digest`, the first one included. */
  count: number;
  text: string;
  /** When it last returned `digest`, by the engine's clock. */
  at: number;
  /** The waiting clock (explicit waits, summed) when it last did. */
  waitedAt: number;
  /** The widest gap between two of its checks since it last changed, 0 before the second. */
  widest: number;
  /** Refusals since it last ran, once blocked. */
  refused: number;
  /** Probes let through since it was first blocked. */
  probes: number;
}

export function createPollDetector(): Detector {
  const calls = new LruMap<Unchanged>(MAX_CALLS);
  /** While background work runs, a call that only asks is checking on it: a poll. */
  const background = new BackgroundWork();
  /** Milliseconds of explicit waiting (`sleep 30`) seen so far: time a replay's clock may not show. */
  let waited = 0;

  /**
   * The time since the last check, waits between included, or the wait inside this check when that
   * is longer. Not their sum: a recorded run stamps each call when it started, so the clock's gap
   * already holds the last check's own wait, which is this one's when a poll waits the same each time.
   */
  function gapOf(call: CallContext, entry: Unchanged): number {
    return Math.max(Math.max(0, call.now - entry.at) + (waited - entry.waitedAt), waitOf(call));
  }

  /**
   * A wait between two checks paces them, however short; a wait inside the check (`sleep 5 &&
   * check`, `wait {yield_time_ms: 10000}`) is part of the gap, so it paces when it is long enough or
   * grows, as any gap does: the same short wait before every check is quick succession.
   */
  function paced(gap: number, entry: Unchanged): boolean {
    if (waited > entry.waitedAt) return true;
    if (gap >= PACED_GAP_MS) return true;
    return gap >= MIN_BACKOFF_GAP_MS && entry.widest > 0 && gap >= entry.widest * BACKOFF_FACTOR;
  }

  /** One probe goes through after 1, 2, 4… refusals, or 30 s, 60 s, 120 s… since the last check. */
  function probeDue(gap: number, entry: Unchanged): boolean {
    const scale = Math.min(2 ** entry.probes, MAX_PROBE_SCALE);
    return entry.refused >= scale || gap >= Math.min(FIRST_PROBE_MS * 2 ** entry.probes, MAX_PROBE_MS);
  }

  return {
    name: NAME,

    check(call: CallContext): Violation | undefined {
      const limits = call.toolPolicy.detectors.poll;
      if (!isWatched(call, limits) || !background.polls(call)) return undefined;
      const entry = calls.peek(answerKeyOf(call));
      if (!entry) return undefined;
      const gap = gapOf(call, entry);
      if (paced(gap, entry)) return undefined;
      const proposal = entry.count + 1;
      if (proposal >= limits.blockAt) {
        if (wasBlocked(entry) && probeDue(gap, entry)) return describe(call, entry, 'probe');
        return describe(call, entry, 'block');
      }
      if (proposal >= limits.warnAt) return describe(call, entry, 'warn');
      return undefined;
    },

    afterCheck(call: CallContext, verdict: VerdictKind): void {
      if (verdict !== 'block' && verdict !== 'halt') return;
      if (!background.polls(call)) return;
      const entry = calls.peek(answerKeyOf(call));
      if (entry && entry.count + 1 >= call.toolPolicy.detectors.poll.blockAt) entry.refused++;
    },

    observe(call: CallContext, outcome: ObservedOutcome): void {
      if (isHarnessFault(outcome)) return;
      const wait = waitOf(call);
      const polls = background.polls(call);
      background.observe(call, outcome);
      if (!isWatched(call, call.toolPolicy.detectors.poll) || !polls) {
        waited += wait;
        return;
      }
      const key = answerKeyOf(call);
      const entry = calls.peek(key);
      if (!outcome.success) {
        calls.delete(key);
      } else if (entry && entry.digest === outcome.resultDigest) {
        const gap = gapOf(call, entry);
        if (!paced(gap, entry)) entry.count++;
        if (wasBlocked(entry)) {
          entry.probes++;
          entry.refused = 0;
        }
        entry.widest = Math.max(entry.widest, gap);
        entry.at = call.now;
        entry.waitedAt = waited + wait;
        calls.set(key, entry);
      } else {
        calls.set(key, {
          digest: outcome.resultDigest,
          count: 1,
          text: excerpt(outcome.text),
          at: call.now,
          waitedAt: waited + wait,
          widest: 0,
          refused: 0,
          probes: 0,
        });
      }
      waited += wait;
    },

    reset(): void {
      calls.clear();
      background.reset();
    },

    snapshot(): unknown {
      return {
        version: VERSION,
        waited,
        calls: calls.entries(),
        ...(background.live && { background: true }),
      };
    },

    restore(state: unknown): void {
      calls.clear();
      const snapshot = readSnapshot(state, VERSION);
      waited = readNumber(snapshot?.waited) ?? 0;
      background.restore(snapshot?.background);
      for (const [key, entry] of readEntries(snapshot?.calls, MAX_CALLS, readUnchanged)) {
        calls.set(key, entry);
      }
    },
  };
}

/** It has been refused, or probed, since it last changed. */
function wasBlocked(entry: Unchanged): boolean {
  return entry.refused > 0 || entry.probes > 0;
}

function waitOf(call: CallContext): number {
  const seconds = call.facts.waitSeconds;
  return seconds !== undefined && seconds > 0 ? seconds * 1000 : 0;
}

function describe(call: CallContext, entry: Unchanged, kind: 'warn' | 'block' | 'probe'): Violation {
  const repeated = `has returned the same status ${times(entry.count)} in a row in quick succession`;
  // A running command that printed nothing since it was last asked answers with nothing at all.
  const status = isBlank(entry.text) ? 'nothing new' : entry.text;
  const seen = `${call.description} ${repeated} (${status})`;
  const reason =
    kind === 'block'
      ? `${seen}, so checking again right away is blocked: whatever it waits for has not moved.`
      : kind === 'probe'
        ? `${seen}; this one check is let through to see whether it has moved, the next waits longer.`
        : `${seen}; checking faster will not make it change.`;
  const suggestion =
    kind === 'warn'
      ? 'Wait between checks (sleep, or check less often), or look into why the status is not changing.'
      : 'Wait before checking again (each check now waits twice as long as the last), investigate why it is not progressing (logs, the job itself), or tell the user it appears stuck.';
  return {
    rule: NAME,
    severity: kind === 'block' ? 'block' : 'warn',
    reason,
    suggestion: withAlternatives(suggestion, call.toolPolicy.alternatives),
    evidence: { count: entry.count, calls: [call.description], lastResult: entry.text },
  };
}

function readUnchanged(raw: Record<string, unknown>): Unchanged | undefined {
  const digest = readString(raw.digest);
  const count = readCount(raw.count);
  if (digest === undefined || count === undefined || count < 1) return undefined;
  return {
    digest,
    count,
    text: readString(raw.text) ?? '',
    at: readNumber(raw.at) ?? 0,
    waitedAt: readNumber(raw.waitedAt) ?? 0,
    // A state written before the widest gap was kept holds the last one, which is the widest of a backoff.
    widest: readNumber(raw.widest) ?? readNumber(raw.gap) ?? 0,
    refused: readCount(raw.refused) ?? 0,
    probes: readCount(raw.probes) ?? 0,
  };
}
