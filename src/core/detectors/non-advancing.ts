/**
 * A tool that keeps saying "nothing here" while the agent varies its input: searching for a
 * capability that does not exist. Inputs and texts differ every time, so only the tool's own
 * flag, or the adapter's reading of an empty answer ("No matches found", `[]`), reveals the loop.
 * Once tripped, the tool stays off until the run ends or something changes the world: the next
 * query against the same world would not find it either.
 */
import type { Violation } from '../types.js';
import { isHarnessFault, isWatched } from './applicability.js';
import { LruMap } from './bounded.js';
import { readCount, readEntries, readSnapshot, readStrings } from './restore.js';
import { type SweepStep, sweepStep } from './sweep.js';
import type { CallContext, Detector, ObservedOutcome } from './types.js';
import { excerpt, times, withAlternatives } from './wording.js';

const NAME = 'non-advancing';
const MAX_TOOLS = 1_000;
const MAX_EVIDENCE_CALLS = 5;
const VERSION = 1;

interface Streak {
  count: number;
  /** The arguments of the last empty answer, to tell a sweep from a rephrasing (not saved). */
  lastArgs?: Readonly<Record<string, unknown>>;
  /** The field the empty answers have been stepping along, while they do. */
  sweep?: SweepStep;
  /** Some of the results were only empty, not flagged by the tool: the longer threshold applies. */
  inferred?: boolean;
  tripped: boolean;
  calls: string[];
  text: string;
}

export function createNonAdvancingDetector(): Detector {
  const tools = new LruMap<Streak>(MAX_TOOLS);

  return {
    name: NAME,

    check(call: CallContext): Violation | undefined {
      const limits = call.toolPolicy.detectors.nonAdvancing;
      if (!isWatched(call, limits)) return undefined;
      const streak = tools.peek(call.tool);
      if (!streak || !(streak.tripped || streak.count >= thresholdOf(streak, limits))) return undefined;
      return describe(call, streak);
    },

    observe(call: CallContext, outcome: ObservedOutcome): void {
      // A change of the world is progress, and what was not there may be there now.
      if ((outcome.changedWorld || outcome.changedService) && tools.size > 0) tools.clear();
      const limits = call.toolPolicy.detectors.nonAdvancing;
      if (!isWatched(call, limits) || isHarnessFault(outcome)) return;
      const streak = tools.peek(call.tool);
      if (outcome.nonAdvancing || outcome.empty) {
        const next: Streak = streak ?? { count: 0, tripped: false, calls: [], text: '' };
        // A sweep of one field (dates, pages, ids in order) explores: its empty answers do not count,
        // unless the tool itself says they carry nothing new.
        const step = next.lastArgs === undefined ? undefined : sweepStep(next.lastArgs, call.args);
        const sweeping =
          !outcome.nonAdvancing &&
          step !== undefined &&
          (next.sweep === undefined ||
            (next.sweep.field === step.field && next.sweep.direction === step.direction));
        next.lastArgs = call.args;
        if (sweeping) {
          // The call that started the sweep was counted as a rephrasing: it was its first step.
          if (next.sweep === undefined && next.count > 0) next.count--;
          next.sweep = step;
        } else {
          next.sweep = undefined;
          next.count++;
        }
        if (!outcome.nonAdvancing) next.inferred = true;
        next.calls = [...next.calls, call.description].slice(-MAX_EVIDENCE_CALLS);
        next.text = excerpt(outcome.text);
        if (next.count > 0 && next.count >= thresholdOf(next, limits)) next.tripped = true;
        tools.set(call.tool, next);
      } else if (outcome.success && streak && !streak.tripped) {
        // Real progress before the trip; an agent failure is neither progress nor its absence.
        tools.delete(call.tool);
      }
    },

    reset(): void {
      tools.clear();
    },

    snapshot(): unknown {
      // What the agent asked stays out of saved state: it may hold anything.
      const saved = tools
        .entries()
        .map(([tool, { lastArgs: _args, sweep: _sweep, ...kept }]) => [tool, kept]);
      return { version: VERSION, tools: saved };
    },

    restore(state: unknown): void {
      tools.clear();
      const snapshot = readSnapshot(state, VERSION);
      for (const [tool, streak] of readEntries(snapshot?.tools, MAX_TOOLS, readStreak)) {
        tools.set(tool, streak);
      }
    },
  };
}

function thresholdOf(streak: Streak, limits: { blockAfter: number; emptyBlockAfter: number }): number {
  return streak.inferred ? limits.emptyBlockAfter : limits.blockAfter;
}

function describe(call: CallContext, streak: Streak): Violation {
  const last = streak.calls[streak.calls.length - 1] ?? call.description;
  return {
    rule: NAME,
    severity: 'block',
    reason:
      `${call.tool} made no progress ${times(streak.count)} in a row, whatever the input (last: ${last}), ` +
      'so it is switched off for the rest of this run: what you are looking for is not there.',
    suggestion: withAlternatives(
      'Stop searching and tell the user which capability or information is missing.',
      call.toolPolicy.alternatives,
    ),
    evidence: { count: streak.count, calls: streak.calls, lastResult: streak.text },
  };
}

function readStreak(raw: Record<string, unknown>): Streak | undefined {
  const count = readCount(raw.count);
  if (count === undefined || count < 1) return undefined;
  return {
    count,
    ...(raw.inferred === true && { inferred: true }),
    tripped: raw.tripped === true,
    calls: readStrings(raw.calls, MAX_EVIDENCE_CALLS),
    text: typeof raw.text === 'string' ? raw.text : '',
  };
}
