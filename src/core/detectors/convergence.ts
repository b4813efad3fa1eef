/**
 * Whether the run is still getting anywhere. Scores (validation loss, accuracy, passing tests)
 * reveal a plateau; a run of proposals that are all blocked reveals that the strategies are used
 * up. A plateau only warns; exhaustion halts, because nothing left to try is allowed.
 */

import type { DetectorThresholds } from '../policy.js';
import { presetPolicy } from '../policy.js';
import { STREAK_EXEMPT_RULES } from '../refusal-streak.js';
import type { ConvergenceReport, VerdictKind, Violation } from '../types.js';
import { isWatched, stepKeyOf } from './applicability.js';
import { LruMap } from './bounded.js';
import { isRecord, readCount, readNumber, readSnapshot, readString, readStrings } from './restore.js';
import type { CallContext, Detector, ObservedOutcome } from './types.js';

const NAME = 'convergence';
const MAX_SCORED_TOOLS = 100;
/**
 * Distinct calls a run of blocked proposals must hold before it can halt when the model never read
 * the refusals (a recorded run replayed): its repeats of one blocked call ignore no refusal, so they
 * are one approach ruled out, not many, and each of them is blocked on its own already.
 */
const MIN_APPROACHES = 3;
const VERSION = 1;

type Limits = DetectorThresholds['convergence'];

export interface ConvergenceDetector extends Detector {
  /** Where the run stands; what the loop returns from `getConvergence()`. */
  report(): ConvergenceReport;
  /** For the loop, when it knows better (every viable strategy is banned): halts the run. */
  markExhausted(reason: string): void;
  /**
   * For the loop: whether the model reads the refusals (true unless told otherwise). When it does
   * not, a run of blocks halts only once it holds `MIN_APPROACHES` distinct calls.
   */
  readsRefusals?(read: boolean): void;
}

interface Progress {
  /** Scored outcomes observed; a "trial" is one of them. */
  trials: number;
  best?: number;
  bestTrial?: number;
  /** The score the next trial has to beat, by more than the tolerance, to count as progress. */
  anchor?: number;
  /** The trial that last made progress, or where the plateau clock was restarted. */
  sinceTrial: number;
  blockedInRow: number;
  /** The distinct calls of the blocked run, up to `MIN_APPROACHES` of them. */
  approaches?: string[];
  exhausted?: string;
}

export function createConvergenceDetector(): ConvergenceDetector {
  const scoredTools = new LruMap<true>(MAX_SCORED_TOOLS);
  let progress: Progress = { trials: 0, sinceTrial: 0, blockedInRow: 0 };
  // Reports are asked for without a call at hand: they use the window last seen in a call.
  let plateauWindow = presetPolicy('precise').detectors.convergence.plateauWindow;
  let refusalsRead = true;

  /** Counts a blocked call among the run's distinct calls, up to `MIN_APPROACHES` of them. */
  function noteApproach(key: string): void {
    const approaches = progress.approaches ?? [];
    if (approaches.length < MIN_APPROACHES && !approaches.includes(key)) {
      progress.approaches = [...approaches, key];
    }
  }

  function stalledFor(): number {
    return progress.best === undefined ? 0 : progress.trials - progress.sinceTrial;
  }

  // Every outcome asks for a report and few change it: the last one is kept while nothing it says
  // has changed.
  let last:
    | { readonly report: ConvergenceReport; readonly from: Progress; readonly window: number }
    | undefined;

  function report(): ConvergenceReport {
    const from = last?.from;
    if (
      from !== undefined &&
      last?.window === plateauWindow &&
      from.trials === progress.trials &&
      from.best === progress.best &&
      from.bestTrial === progress.bestTrial &&
      from.sinceTrial === progress.sinceTrial &&
      from.exhausted === progress.exhausted
    ) {
      return last.report;
    }
    const fresh = Object.freeze(describeProgress());
    last = { report: fresh, from: { ...progress }, window: plateauWindow };
    return fresh;
  }

  function describeProgress(): ConvergenceReport {
    const { best, bestTrial, trials, exhausted } = progress;
    const facts = {
      steps: trials,
      ...(best !== undefined ? { bestScore: best } : {}),
      ...(bestTrial !== undefined ? { lastImprovementStep: bestTrial } : {}),
    };
    if (exhausted !== undefined) return { state: 'exhausted', reason: exhausted, ...facts };
    if (best === undefined) {
      return { state: 'progressing', reason: 'No progress score reported yet.', ...facts };
    }
    const bestText = `best ${formatScore(best)} at trial ${bestTrial}`;
    if (stalledFor() >= plateauWindow) {
      return {
        state: 'plateau',
        reason: `No improvement in ${stalledFor()} trials (${bestText}).`,
        ...facts,
      };
    }
    return { state: 'progressing', reason: `Progressing: ${bestText} of ${trials}.`, ...facts };
  }

  return {
    name: NAME,
    report,

    markExhausted(reason: string): void {
      progress.exhausted = reason;
    },

    readsRefusals(read: boolean): void {
      refusalsRead = read;
    },

    check(call: CallContext): Violation | undefined {
      const limits = call.toolPolicy.detectors.convergence;
      if (!isWatched(call, limits)) return undefined;
      if (progress.exhausted !== undefined) {
        return {
          rule: NAME,
          severity: 'halt',
          reason: progress.exhausted,
          suggestion: 'Stop, and report to the user what was tried, what failed and what is still unknown.',
          evidence: { count: progress.blockedInRow },
        };
      }
      const stalled = stalledFor();
      if (stalled < limits.plateauWindow || !scoredTools.peek(call.tool)) return undefined;
      return {
        rule: NAME,
        severity: 'warn',
        reason:
          `No improvement in ${stalled} trials: the best score is still ${formatScore(progress.best ?? 0)} ` +
          `from trial ${progress.bestTrial}.`,
        suggestion: 'Change the approach rather than its details, or stop and report the best result so far.',
        evidence: { count: stalled, bestScore: progress.best, bestTrial: progress.bestTrial },
      };
    },

    afterCheck(call: CallContext, verdict: VerdictKind, decisive?: Violation): void {
      const limits = call.toolPolicy.detectors.convergence;
      if (!isWatched(call, limits) || progress.exhausted !== undefined || verdict === 'halt') return;
      // A poll steered to wait and a guess blocked with the advice to list first are part of a
      // rhythm, not an approach ruled out: as for the halt on repeated refusals, they neither count
      // towards the blocked streak nor break it.
      if (verdict === 'block' && decisive !== undefined && STREAK_EXEMPT_RULES.has(decisive.rule)) return;
      if (verdict !== 'block') {
        progress.blockedInRow = 0;
        delete progress.approaches;
        return;
      }
      progress.blockedInRow++;
      if (!refusalsRead) noteApproach(stepKeyOf(call));
      const varied =
        refusalsRead ||
        (progress.approaches?.length ?? 0) >= Math.min(MIN_APPROACHES, limits.exhaustAfterBlocks);
      if (progress.blockedInRow >= limits.exhaustAfterBlocks && varied) {
        progress.exhausted =
          `The last ${progress.blockedInRow} proposals were all blocked: ` +
          'every approach tried so far has been ruled out.';
      }
    },

    observe(call: CallContext, outcome: ObservedOutcome): void {
      const limits = call.toolPolicy.detectors.convergence;
      const score = outcome.score;
      if (!isWatched(call, limits) || score === undefined || !Number.isFinite(score)) return;
      if (outcome.failure?.blame === 'harness_fault') return;
      plateauWindow = limits.plateauWindow;
      scoredTools.set(call.tool, true);
      const trial = ++progress.trials;
      if (progress.best === undefined || isBetter(score, progress.best, 0, limits)) {
        progress.best = score;
        progress.bestTrial = trial;
      }
      if (progress.anchor === undefined || isBetter(score, progress.anchor, limits.tolerance, limits)) {
        progress.anchor = score;
        progress.sinceTrial = trial;
      }
    },

    reset(reason: 'user' | 'session'): void {
      if (reason === 'session') {
        progress = { trials: 0, sinceTrial: 0, blockedInRow: 0 };
        scoredTools.clear();
        return;
      }
      // New instructions: the blocked streak and the plateau clock start over; the best stays.
      progress.blockedInRow = 0;
      delete progress.approaches;
      progress.exhausted = undefined;
      progress.sinceTrial = progress.trials;
    },

    snapshot(): unknown {
      const tools = scoredTools.entries().map(([tool]) => tool);
      return { version: VERSION, plateauWindow, progress: { ...progress }, scoredTools: tools };
    },

    restore(state: unknown): void {
      const snapshot = readSnapshot(state, VERSION);
      progress = readProgress(snapshot?.progress);
      const window = readCount(snapshot?.plateauWindow);
      if (window !== undefined && window > 0) plateauWindow = window;
      scoredTools.clear();
      for (const tool of readStrings(snapshot?.scoredTools, MAX_SCORED_TOOLS)) scoredTools.set(tool, true);
    },
  };
}

/** Narrows a detector list to the convergence detector, which the loop reports from. */
export function isConvergenceDetector(detector: Detector): detector is ConvergenceDetector {
  return detector.name === NAME && 'report' in detector && 'markExhausted' in detector;
}

function isBetter(score: number, than: number, tolerance: number, limits: Limits): boolean {
  return limits.direction === 'minimize' ? score < than - tolerance : score > than + tolerance;
}

function formatScore(score: number): string {
  return String(Number(score.toPrecision(6)));
}

function readProgress(raw: unknown): Progress {
  const fields = isRecord(raw) ? raw : {};
  const trials = readCount(fields.trials) ?? 0;
  const progress: Progress = {
    trials,
    sinceTrial: Math.min(readCount(fields.sinceTrial) ?? 0, trials),
    blockedInRow: readCount(fields.blockedInRow) ?? 0,
  };
  const approaches = readStrings(fields.approaches, MIN_APPROACHES);
  if (approaches.length > 0) progress.approaches = approaches;
  const best = readNumber(fields.best);
  if (best !== undefined) {
    progress.best = best;
    progress.bestTrial = Math.min(readCount(fields.bestTrial) ?? trials, trials);
    progress.anchor = readNumber(fields.anchor) ?? best;
  }
  const exhausted = readString(fields.exhausted);
  if (exhausted !== undefined) progress.exhausted = exhausted;
  return progress;
}
