/**
 * A tool that keeps saying "nothing here" while the agent varies its input: searching for a
 * capability that does not exist. Inputs and texts differ every time, so only the tool's own
 * flag, or the adapter's reading of an empty answer ("No matches found", `[]`), reveals the loop;
 * and so does a question asked again in other words that brings back the very answer the last one
 * did (the same two passages for each wording of one question). Once tripped, the tool stays off
 * until the run ends or something changes the world: the next query against the same world would
 * not find it either. For a tool that asks outside this machine (a web search, a remote API), the
 * world is out there: only a change made outside (a push, a booking) counts.
 */
import { hashString } from '../identity/index.js';
import type { Violation } from '../types.js';
import {
  actingArgsOf,
  actingToolOf,
  answerKeyOf,
  isHarnessFault,
  isWatched,
  kindOf,
} from './applicability.js';
import { LruMap } from './bounded.js';
import { isRecord, readCount, readEntries, readSnapshot, readString, readStrings } from './restore.js';
import { type AskedFields, askedFields, readAskedFields, rewords, savedAskedFields } from './rewording.js';
import {
  readSweepArgs,
  type SweepArgs,
  type SweepStep,
  savedSweepArgs,
  sweepArgs,
  sweepStep,
} from './sweep.js';
import type { CallContext, Detector, ObservedOutcome } from './types.js';
import { excerpt, times, withAlternatives } from './wording.js';

const NAME = 'non-advancing';
const MAX_TOOLS = 1_000;
/**
 * Last answers kept, one per tool (or per files a tool's questions ask of): those of the tools asked
 * lately, which is where an agent rewords; what the session's run state holds of them stays small.
 */
const MAX_ANSWERS = 64;
const MAX_EVIDENCE_CALLS = 5;
/**
 * 1 saved each tool's streak; 2 also saves the last empty call's arguments as a sweep compares them
 * (see `savedSweepArgs`: hashes, and the order of values that read as positions) and the field the
 * streak has been stepping along; 3 also each tool's last answer to a question and what it asked
 * (hashes only, see `savedAskedFields`). A snapshot of an earlier version is read as it was written.
 */
const VERSION = 3;
const EARLIER_VERSIONS = [2, 1] as const;

/** The last answer of a question, to tell whether the next wording of it brings back the same. */
interface LastAnswer {
  /** Digest of the answer, masked as results are. */
  readonly digest: string;
  /** The call's answer key: the same question in the same words is the identical-result rule's. */
  readonly key: string;
  /** What it asked, hashed from `args` when first compared or saved: most answers are never compared. */
  asked?: AskedFields;
  args?: Readonly<Record<string, unknown>>;
}

interface Streak {
  count: number;
  /** What a sweep needs of the last empty call's arguments, to tell a sweep from a rephrasing. */
  lastArgs?: SweepArgs;
  /** The field the empty answers have been stepping along, while they do. */
  sweep?: SweepStep;
  /** Some of the results were only empty, not flagged by the tool: the longer threshold applies. */
  inferred?: boolean;
  /** Some of the answers were the last one again, to a rewording: the reason says so. */
  alike?: boolean;
  tripped: boolean;
  /**
   * The tool asks outside this machine (a web search, a remote API): a change made here (an edit, a
   * command that only touches this machine) does not put there what it did not find.
   */
  outside?: boolean;
  calls: string[];
  text: string;
}

function askedOf(answer: LastAnswer): AskedFields {
  if (answer.asked === undefined) {
    answer.asked = askedFields(answer.args ?? {});
    delete answer.args;
  }
  return answer.asked;
}

/**
 * A search: a question put in words. A read names its target, and two targets holding the same text
 * (empty `__init__.py` files, generated copies) are not one question reworded.
 */
function isQuestion(call: CallContext): boolean {
  return kindOf(call) === 'search';
}

/** `answer` repeats the last one, to the question it asked in other words. */
function answeredAlike(answer: LastAnswer, last: LastAnswer | undefined): boolean {
  return (
    last !== undefined &&
    last.digest === answer.digest &&
    last.key !== answer.key &&
    rewords(askedOf(last), askedOf(answer))
  );
}

function lastAnswer(call: CallContext, outcome: ObservedOutcome): LastAnswer {
  return { digest: outcome.resultDigest, key: answerKeyOf(call), args: actingArgsOf(call) };
}

export function createNonAdvancingDetector(): Detector {
  const tools = new LruMap<Streak>(MAX_TOOLS);
  const answers = new LruMap<LastAnswer>(MAX_ANSWERS);

  return {
    name: NAME,

    check(call: CallContext): Violation | undefined {
      const limits = call.toolPolicy.detectors.nonAdvancing;
      if (!isWatched(call, limits)) return undefined;
      const streak = tools.peek(streakKey(call));
      if (!streak || !(streak.tripped || streak.count >= thresholdOf(streak, limits))) return undefined;
      return describe(call, streak);
    },

    observe(call: CallContext, outcome: ObservedOutcome): void {
      // A change of the world is progress, and what was not there may be there now; a change made
      // only on this machine leaves what is asked of the outside as it was.
      if (outcome.changedService || (outcome.changedWorld && changesOutside(call))) {
        if (tools.size > 0) tools.clear();
        if (answers.size > 0) answers.clear();
      } else if (outcome.changedWorld) {
        clearLocal(tools);
        if (answers.size > 0) answers.clear();
      }
      const limits = call.toolPolicy.detectors.nonAdvancing;
      if (!isWatched(call, limits) || isHarnessFault(outcome)) return;
      const key = streakKey(call);
      const streak = tools.peek(key);
      // A question's answer is kept, to tell whether the next wording of it brings the same back.
      const answer =
        outcome.success && !outcome.nonAdvancing && !outcome.empty && isQuestion(call)
          ? lastAnswer(call, outcome)
          : undefined;
      const alike = answer !== undefined && answeredAlike(answer, answers.peek(key));
      if (answer !== undefined) answers.set(key, answer);
      if (outcome.nonAdvancing || outcome.empty || alike) {
        const next: Streak = streak ?? { count: 0, tripped: false, calls: [], text: '' };
        // A sweep of one field (dates, pages, ids in order) explores: its empty answers do not count,
        // unless the tool itself says they carry nothing new.
        const args = sweepArgs(actingArgsOf(call));
        const step = next.lastArgs === undefined ? undefined : sweepStep(next.lastArgs, args);
        const sweeping =
          !outcome.nonAdvancing &&
          step !== undefined &&
          (next.sweep === undefined ||
            (next.sweep.field === step.field && next.sweep.direction === step.direction));
        next.lastArgs = args;
        if (sweeping) {
          // The call that started the sweep was counted as a rephrasing: it was its first step.
          if (next.sweep === undefined && next.count > 0) next.count--;
          next.sweep = step;
        } else {
          next.sweep = undefined;
          next.count++;
        }
        if (!outcome.nonAdvancing) next.inferred = true;
        if (call.facts.asksOutside === true) next.outside = true;
        if (alike) next.alike = true;
        next.calls = [...next.calls, call.description].slice(-MAX_EVIDENCE_CALLS);
        next.text = excerpt(outcome.text);
        if (next.count > 0 && next.count >= thresholdOf(next, limits)) next.tripped = true;
        tools.set(key, next);
      } else if (outcome.success && streak && !streak.tripped) {
        // Real progress before the trip; an agent failure is neither progress nor its absence.
        tools.delete(key);
      }
    },

    reset(): void {
      tools.clear();
      answers.clear();
    },

    snapshot(): unknown {
      // What the agent asked is saved as a sweep compares it (by hashes, and positions' order), and
      // the question behind each last answer as a rewording is told by (by hashes).
      const saved = tools
        .entries()
        .map(([tool, { lastArgs, ...kept }]) => [
          tool,
          { ...kept, ...(lastArgs !== undefined && { lastArgs: savedSweepArgs(lastArgs) }) },
        ]);
      const kept = answers
        .entries()
        .map(([tool, answer]) => [
          tool,
          { digest: answer.digest, key: answer.key, asked: savedAskedFields(askedOf(answer)) },
        ]);
      return { version: VERSION, tools: saved, answers: kept };
    },

    restore(state: unknown): void {
      tools.clear();
      answers.clear();
      let snapshot = readSnapshot(state, VERSION);
      for (const version of EARLIER_VERSIONS) snapshot ??= readSnapshot(state, version);
      for (const [tool, streak] of readEntries(snapshot?.tools, MAX_TOOLS, readStreak)) {
        tools.set(tool, streak);
      }
      for (const [tool, answer] of readEntries(snapshot?.answers, MAX_ANSWERS, readAnswer)) {
        answers.set(tool, answer);
      }
    },
  };
}

/**
 * Whose streak a call's answer counts toward: its tool's, or, for a question asked of files' content
 * (`asksOf`), the tool's questions of those files: the tool's other commands are not searches.
 */
function streakKey(call: CallContext): string {
  const asked = call.facts.asksOf;
  // The files by their hash: the key is saved with the session's run state.
  return asked === undefined
    ? actingToolOf(call)
    : `${actingToolOf(call)}\u0000asks\u0000${hashString(asked)}`;
}

function thresholdOf(streak: Streak, limits: { blockAfter: number; emptyBlockAfter: number }): number {
  return streak.inferred ? limits.emptyBlockAfter : limits.blockAfter;
}

function describe(call: CallContext, streak: Streak): Violation {
  const last = streak.calls[streak.calls.length - 1] ?? call.description;
  const asked = call.facts.asksOf;
  if (asked !== undefined) {
    return {
      rule: NAME,
      severity: 'block',
      reason:
        `${actingToolOf(call)} asked ${excerpt(asked.split('\n').join(', '))} ${times(streak.count)} in a row and found nothing, ` +
        `whatever the question (last: ${last}), and nothing has changed since, so questions of it are off ` +
        'until something changes: what you are looking for is not in it.',
      suggestion: withAlternatives(
        'Read the file whole to see what it holds (it may be empty or shaped otherwise), or tell the user it lacks what you need.',
        call.toolPolicy.alternatives,
      ),
      evidence: { count: streak.count, calls: streak.calls, lastResult: streak.text },
    };
  }
  if (streak.alike === true) {
    return {
      rule: NAME,
      severity: 'block',
      reason:
        `${actingToolOf(call)} brought back nothing new ${times(streak.count)} in a row, the same answer to each wording ` +
        `of the question or none (last: ${last}), and nothing has changed since, so it is switched off for the ` +
        'rest of this run: asking again in other words will bring back the same.',
      suggestion: withAlternatives(
        'Work with what the answer holds, ask something else, or tell the user the information is not there.',
        call.toolPolicy.alternatives,
      ),
      evidence: { count: streak.count, calls: streak.calls, lastResult: streak.text },
    };
  }
  return {
    rule: NAME,
    severity: 'block',
    reason:
      `${actingToolOf(call)} made no progress ${times(streak.count)} in a row, whatever the input (last: ${last}), ` +
      'so it is switched off for the rest of this run: what you are looking for is not there.',
    suggestion: withAlternatives(
      'Stop searching and tell the user which capability or information is missing.',
      call.toolPolicy.alternatives,
    ),
    evidence: { count: streak.count, calls: streak.calls, lastResult: streak.text },
  };
}

/** Whether a call's success may have changed what is found outside this machine. */
function changesOutside(call: CallContext): boolean {
  return (
    call.facts.changesOutside === true || call.facts.sideEffect === true || call.facts.asksOutside === true
  );
}

/** Ends the streaks of the tools that look on this machine, keeping those that ask outside it. */
function clearLocal(tools: LruMap<Streak>): void {
  for (const [tool, streak] of tools.entries()) if (streak.outside !== true) tools.delete(tool);
}

function readStreak(raw: Record<string, unknown>): Streak | undefined {
  const count = readCount(raw.count);
  if (count === undefined || count < 1) return undefined;
  const lastArgs = readSweepArgs(raw.lastArgs);
  const sweep = readSweep(raw.sweep);
  return {
    count,
    ...(lastArgs !== undefined && { lastArgs }),
    ...(sweep !== undefined && { sweep }),
    ...(raw.inferred === true && { inferred: true }),
    ...(raw.alike === true && { alike: true }),
    ...(raw.outside === true && { outside: true }),
    tripped: raw.tripped === true,
    calls: readStrings(raw.calls, MAX_EVIDENCE_CALLS),
    text: typeof raw.text === 'string' ? raw.text : '',
  };
}

function readAnswer(value: Record<string, unknown>): LastAnswer | undefined {
  const digest = readString(value.digest);
  const key = readString(value.key);
  const asked = readAskedFields(value.asked);
  return digest !== undefined && key !== undefined && asked !== undefined
    ? { digest, key, asked }
    : undefined;
}

function readSweep(value: unknown): SweepStep | undefined {
  if (!isRecord(value)) return undefined;
  const field = readString(value.field);
  const { direction } = value;
  return field !== undefined && (direction === 1 || direction === -1) ? { field, direction } : undefined;
}
