/**
 * Cycles over states: the agent goes round, and each round ends where an earlier one began.
 *
 * The one measure. The run is a walk through states of the world, and each call that ran is a step:
 * the call, what it answered (a success by its masked result, a failure by its error's shape, so
 * that one error in several wordings of its values is one outcome) and the state it answered in.
 * A round is a stretch of steps that comes back to where the stretch before it began, with the same
 * steps answering the same way. Two full rounds are the evidence; the cycle is proven when the next
 * call would begin the third round, and blocking earlier is a guess. Each call alone may look fine
 * (different calls, nothing failing, an edit that succeeds); the walk goes nowhere.
 *
 * What makes it general is what counts as the same state and the same round:
 * - **Edits, undos and rewrites.** The workspace's state is followed through each change
 *   (`cycle-world.ts`): an edit and its undoing, or a file written back with content it had, bring
 *   the fingerprint back to where it was. A command back in the state it last failed in, the edits
 *   since having undone themselves, is the same step repeated, blocked as `state-cycle`. One that
 *   failed in another state since has gone round a cycle, proven when its third round starts: it is
 *   blocked when it comes back to a state it failed in twice, each time from elsewhere. Anything
 *   nobody can follow (a command with unknown effects, an edit of a file nobody named) makes the
 *   state new.
 * - **Checkouts and alternating errors.** A check that answers differently on each state it visits
 *   (`npm test` on each of two branches, two error shapes alternating) is a distinct step each time,
 *   so the rounds go round the states and count together; a round whose answers change is progress.
 * - **Compactions.** The agent forgets, so going over what it knew once more is how it gets it back:
 *   whatever ran before a compaction counts as one round at most, and the rounds go on counting
 *   through it: a third round whose evidence partly ran before the last compaction is steered, and
 *   blocked once two rounds ran since. A stretch between two compactions that only re-read what the agent already had (the
 *   same reads, searches, queries and read-only commands answering as before, nothing changed, nothing
 *   new learned) is a round too: the third such stretch is steered on its first re-read and blocked
 *   on the rest, as `compaction-cycle`.
 * - **Walks nothing follows.** A round through two or more changes whose effects nothing here
 *   follows (moves between rooms, a door opened, edits of whatever file an editor has open) may be
 *   going through new states that look alike; it is left to the rules for its failures and repeats.
 * - **Viewers.** A round made only of moves of an editor's view (`open`, `goto`) is reading two
 *   places of a file that shows one at a time; it becomes a cycle once any other step (an edit, a run)
 *   repeats with it.
 * - **Moves.** A move that worked (to a place, a file, a directory) is never the step blocked: it
 *   runs, and the round is stopped at its next step, where what the moves led to repeats.
 * - **Places.** Where the agent stands is the last move that worked and what it answered. A call
 *   that is not a command, refused at a place, then sent again after walking away and back to a
 *   place that answers as before (nothing that worked on the way but moves and looks), is a round
 *   too: blocked, as `state-cycle`, on its third stay there.
 * A productive read → edit → test cycle never matches: its edits or its answers keep changing.
 *
 * Memory is bounded: the last 64 steps (a period of up to 16 seen four times; larger settings are
 * clamped to what is held), 1,000 failing commands with the last 8 states each failed in, 256 known
 * answers and 128 re-reads for compactions, and the workspace bounds of `cycle-world.ts`. Saved
 * state holds call keys, digests and hashes, never a file's or an error's text.
 */
import { provesAgentFault } from '../blame-proof.js';
import { hashString } from '../identity/index.js';
import type { ActionKind, VerdictKind, Violation } from '../types.js';
import { isHarnessFault, isWatched, kindOf, stepKeyOf } from './applicability.js';
import { LruMap, Ring } from './bounded.js';
import { createWorkspaceStates } from './cycle-world.js';
import { outcomeShape } from './error-shape.js';
import {
  isRecord,
  readCount,
  readEntries,
  readHash,
  readPairs,
  readSnapshot,
  readString,
  readStrings,
} from './restore.js';
import type { CallContext, Detector, ObservedOutcome } from './types.js';
import { times, withAlternatives } from './wording.js';

const NAME = 'cycle';
const VERSION = 2;
/** Room for a period of up to 16 seen 4 times; larger settings are clamped to what is held. */
const CAPACITY = 64;
/** Failing commands remembered, each with the last few states it failed in. */
const MAX_COMMANDS = 1_000;
const STATES_PER_COMMAND = 8;
/** What the agent can run again to get back what it forgot; polls are meant to be asked again. */
const REREAD_KINDS: ReadonlySet<ActionKind> = new Set(['read', 'search', 'api', 'exec']);
/** Kinds of call that say what they change: not a command, whose effects nobody follows. */
const CHANGE_KINDS: ReadonlySet<ActionKind> = new Set(['mutate', 'create', 'delete']);
/**
 * Kinds of call whose success leaves a place as it was, as far as a call refused there can tell: a
 * look, a search, a poll, or a command, whose changes of files the workspace follows.
 */
const LOOKING_KINDS: ReadonlySet<ActionKind> = new Set(['read', 'search', 'poll', 'exec']);
/** Answers remembered, by call: enough for a long session's distinct calls. */
const MAX_KNOWN = 256;
/** Re-reads remembered per stretch and across a streak of stretches. */
const MAX_REREADS = 128;
/** What a session's step may be blocked as: a command, a read or a search. */
const SESSION_KINDS: ReadonlySet<ActionKind> = new Set(['exec', 'read', 'search']);
/** Steps of sessions remembered, each by the session's start and the steps before it in its session. */
const MAX_SESSION_STEPS = 2_048;

/** One call that ran: the call, how it answered, and which stretch between compactions it ran in. */
interface Step {
  readonly callKey: string;
  /**
   * `ok <digest>` or `error <shape hash>`: both the call and its answer must repeat. A failure's is
   * worked out the first time a round compares it (see `answerOf`): shaping an error costs more than
   * the rest of the step, and most steps are never compared.
   */
  outcome: string | (() => string);
  readonly stretch: number;
  /** A move of an editor's view. */
  readonly navigates: boolean;
  /** It changed the world: the steps after it run in another state. */
  readonly changed: boolean;
  /**
   * A change the call declares it makes (an edit, a move to another room), not a command whose
   * effects are unknown: made and answered, it took the world somewhere.
   */
  readonly declaredChange: boolean;
  /**
   * A declared change that names no file (a move to another room, a door opened, an edit of
   * whatever file an editor has open): where it took the world is not followed.
   */
  readonly unfollowed: boolean;
  /**
   * An edit of whatever file an editor has open that replaces a range of lines with as many lines:
   * the file keeps its line numbers, so the same such edits made again in the same order leave it as
   * they left it (see `CallFacts.replacesLinesInPlace`). Not `unfollowed`.
   */
  readonly inPlace: boolean;
  /**
   * A wait (`sleep 20`, `sleep 20 && curl …`): a round with one in it is a poll the agent paces, whose
   * answers may change with the time it lets pass.
   */
  readonly waits: boolean;
  /** The call itself, whose description is written only if a cycle is ever reported. */
  readonly call: { readonly description: string };
}

/** A command that failed, with the states of the workspace it failed in. */
interface Failed {
  readonly states: string[];
  /**
   * For each of `states`, how many times the command came to fail in it: failures in a row in one
   * state are one stay, and a failure in another state in between makes the next one another.
   */
  readonly stays: number[];
  /** The state it last failed in. */
  lastState: string;
  /** How many changes the run had made when it last failed: a return needs a change since. */
  changesAtLastFailure: number;
  /**
   * For a call that is not a command: how many moves the agent had made when it last failed. A
   * failure after a move since is another stay, wherever it is.
   */
  movesAtLastFailure?: number;
  failures: number;
  signature: string;
  lastError: string;
}

/** What happened since the last compaction. */
interface Stretch {
  /** Proposals since the last compaction: a compaction with none before it is the same one again. */
  proposals: number;
  /** A call changed the world or returned something new. */
  progressed: boolean;
  /** Queries re-run (or proposed again and blocked) that returned what they returned before. */
  readonly rereads: Set<string>;
  /** A re-read of the repeated stretch already ran in this one, and was warned: the next is blocked. */
  warned: boolean;
}

/** What a call answered at one point of a session, and in how many sessions it answered so. */
interface SessionStep {
  readonly answer: string;
  times: number;
  readonly description: string;
}

function freshStretch(): Stretch {
  return { proposals: 0, progressed: false, rereads: new Set(), warned: false };
}

/**
 * No step of the round repeats in the same state: another step that changed the world lies between
 * any two alike. A step that changes the world each time it runs is still one step repeated.
 */
function distinctSteps(steps: readonly Step[]): boolean {
  const seen = new Set<string>();
  for (const step of steps) {
    const key = `${step.callKey} ${answerOf(step)}`;
    if (seen.has(key)) return false;
    if (step.changed) seen.clear();
    seen.add(key);
  }
  return true;
}

function outcomeOf(outcome: ObservedOutcome): Step['outcome'] {
  if (outcome.success) return `ok ${outcome.resultDigest}`;
  const shape = outcome.deferredErrorShape?.();
  if (shape === undefined) return `error ${hashString(outcomeShape(outcome))}`;
  return () => `error ${hashString(shape())}`;
}

/** The step's answer, worked out now if it was left for later. */
function answerOf(step: Step): string {
  if (typeof step.outcome !== 'string') step.outcome = step.outcome();
  return step.outcome;
}

export function createCycleDetector(): Detector {
  const history = new Ring<Step>(CAPACITY);
  const world = createWorkspaceStates();
  const failing = new LruMap<Failed>(MAX_COMMANDS);
  /** The answer each call last gave, successes and agent failures alike. */
  const known = new LruMap<string>(MAX_KNOWN);
  /** Compactions so far in this run. */
  let compactions = 0;
  let stretch = freshStretch();
  /** Stretches in a row, each ended by a compaction, that re-read what they knew and made no progress. */
  let stalled = 0;
  /** What those stretches re-read. */
  const repeated = new LruMap<true>(MAX_REREADS);
  /**
   * Where the current session is: a digest of the call that started it, its answer, and every step
   * since with its answer; undefined when no session was started or the environment failed under it.
   */
  let sessionPath: string | undefined;
  /** What each call answered at each point of a session, by that point and the call. */
  const sessionAnswers = new LruMap<SessionStep>(MAX_SESSION_STEPS);
  /** Moves of the agent that worked, and a digest of the last one with what it answered: where it is. */
  let moves = 0;
  let place = '';
  /**
   * Calls other than moves and reads that worked: what each did is not followed (a `take` changes
   * what the agent holds), so a place is the same only with none of them between two stays.
   */
  let deeds = 0;

  /**
   * How many full rounds of `period` steps, each the same as the one after it, end the history. The
   * rounds before a compaction count once: each earlier stretch adds one round at most.
   */
  function roundsOf(period: number, needed: number): number {
    if (period > history.length) return 0;
    let rounds = 1;
    /** The earlier stretch whose one round is already counted. */
    let counted = earlierStretch(period - 1);
    for (let start = period; start + period <= history.length && rounds < needed; start += period) {
      for (let offset = 0; offset < period; offset++) {
        const newer = history.fromEnd(start - period + offset) as Step;
        const older = history.fromEnd(start + offset) as Step;
        if (newer.callKey !== older.callKey || answerOf(newer) !== answerOf(older)) return rounds;
      }
      const earlier = earlierStretch(start + period - 1);
      if (earlier === undefined || earlier !== counted) rounds++;
      if (earlier !== undefined) counted = earlier;
    }
    return rounds;
  }

  /** The stretch of the step `offset` from the end, when it ran before the last compaction. */
  function earlierStretch(offset: number): number | undefined {
    const ranIn = (history.fromEnd(offset) as Step).stretch;
    return ranIn === compactions ? undefined : ranIn;
  }

  /** The newest `period` steps, oldest first. */
  function pattern(period: number): Step[] {
    const out: Step[] = [];
    for (let offset = period - 1; offset >= 0; offset--) out.push(history.fromEnd(offset) as Step);
    return out;
  }

  function checkRounds(call: CallContext): Violation | undefined {
    const limits = call.toolPolicy.detectors.cycle;
    if (!isWatched(call, limits) || kindOf(call) === 'poll') return undefined;
    const seen = Math.max(1, limits.repetitions - 1);
    for (let period = Math.max(2, limits.minPeriod); period <= limits.maxPeriod; period++) {
      if (seen * period > history.length) break;
      // The proposal must be the call that would begin the next round.
      if (history.fromEnd(period - 1)?.callKey !== stepKeyOf(call)) continue;
      const steps = pattern(period);
      // A loop goes round distinct steps (A → B → A → B); a period that repeats a step inside
      // itself (A → B → A) is as likely to be varied work that happened to line up. The same check
      // answering alike in two states (a test run on each of two branches) is two steps.
      if (!distinctSteps(steps)) continue;
      if (steps.every((step) => step.navigates)) continue;
      // A round of changes and moves that all succeeded (edits, a door opened, moves to other rooms
      // or places) is a walk through states: each step took the world or the agent somewhere, no
      // check answered alike in between and nothing failed, so there is no evidence the walk repeats
      // to learn nothing. It becomes a cycle once a failure, a check or a command repeats with it.
      if (steps.every((step) => step.declaredChange || (step.navigates && answerOf(step).startsWith('ok '))))
        continue;
      // A round through two or more changes whose effects nothing follows (moves to other rooms, a
      // door opened, edits of whatever file an editor has open) comes back where it began only if
      // they undo each other, and nothing here knows whether they do: rooms and windows that look
      // alike are no proof. Edits of named files are followed; their undoing is a cycle. So are edits
      // of the open file that keep its line numbers: a round of them leaves it as the round before
      // did. An edit that moves the lines (more or fewer than it replaced) moves what the others edit.
      const unfollowed = steps.filter((step) => step.unfollowed).length;
      if (unfollowed >= 2 || (unfollowed === 1 && steps.some((step) => step.inPlace))) continue;
      // A round that waits (`sleep 20`, then the check) is a paced poll: what it asks about had time
      // to change. Its failures repeated are the rules on repeated failures' to judge.
      if (steps.some((step) => step.waits)) continue;
      // A move that worked takes the agent where it went, whatever the round: it is let through, and
      // the round is stopped at the next step that repeats what the moves led to.
      const next = steps[0] as Step;
      if (next.navigates && answerOf(next).startsWith('ok ')) continue;
      if (roundsOf(period, seen) < seen) continue;
      // Evidence the agent partly forgot (a round before the last compaction) steers; two rounds
      // since the compaction block.
      const forgotten = earlierStretch(seen * period - 1) !== undefined;
      return describeRounds(call, steps, seen, forgotten ? 'warn' : 'block');
    }
    return undefined;
  }

  /**
   * A session started again the same way (the same start answering alike) and fed the same calls,
   * answering alike, is the same attempt: a call that answered alike at this point of two such
   * sessions will answer so in a third. Starts and stops, edits and navigation are left alone: the
   * start is what lets other inputs be tried, and an edit is blocked only on its own repeated error.
   */
  function checkSession(call: CallContext): Violation | undefined {
    if (sessionPath === undefined || call.facts.startsOrStops === true || call.facts.navigates === true)
      return undefined;
    // Commands, reads and queries: a line sent through a tool the guard cannot read (`connect_sendline`)
    // may change what the service holds beyond the session, which a new session does not undo.
    if (!SESSION_KINDS.has(kindOf(call)) || !isWatched(call, call.toolPolicy.detectors.cycle))
      return undefined;
    const seen = sessionAnswers.peek(`${sessionPath} ${stepKeyOf(call)}`);
    if (seen === undefined || seen.times < Math.max(2, call.toolPolicy.detectors.cycle.repetitions - 1))
      return undefined;
    return describeSession(call, seen);
  }

  /** Follows the session a call runs in: a start begins one, and every step since is part of where it is. */
  function observeSession(call: CallContext, outcome: ObservedOutcome): void {
    if (isHarnessFault(outcome)) {
      sessionPath = undefined;
      return;
    }
    if (!isWatched(call, call.toolPolicy.detectors.cycle) || kindOf(call) === 'poll') return;
    const answer = sessionAnswerOf(outcome);
    const key = stepKeyOf(call);
    if (call.facts.startsOrStops === true) {
      sessionPath = hashString(`session ${key} ${answer}`);
      return;
    }
    // A file changed by a call that says which: the sessions before it ran against other files.
    if (outcome.success && outcome.changedWorld && changesNamedFiles(call)) {
      sessionAnswers.clear();
      sessionPath = undefined;
      return;
    }
    if (sessionPath === undefined) return;
    const at = `${sessionPath} ${key}`;
    const seen = sessionAnswers.peek(at);
    if (seen !== undefined && seen.answer === answer) {
      seen.times++;
      sessionAnswers.set(at, seen);
    } else sessionAnswers.set(at, { answer, times: 1, description: call.description });
    sessionPath = hashString(`${sessionPath}\n${key} ${answer}`);
  }

  function checkReturn(call: CallContext): Violation | undefined {
    if (kindOf(call) !== 'exec' || !isWatched(call, call.toolPolicy.detectors.stateCycle)) return undefined;
    const earlier = failing.peek(call.banKey);
    if (!earlier || earlier.changesAtLastFailure === world.changes) return undefined;
    const state = world.fingerprint();
    // Back in the state it last failed in: the edits since undid themselves before anything else
    // answered, so this is the same run in the same state.
    if (state === earlier.lastState) return describeReturn(call, earlier, 1);
    // Come round from a state in which it failed otherwise: a cycle, proven when its third round
    // starts, that is when the command failed in this state in two stays already.
    const stays = earlier.stays[earlier.states.indexOf(state)] ?? 0;
    return stays >= 2 ? describeReturn(call, earlier, stays) : undefined;
  }

  /**
   * A call that is not a command, refused where the agent stands, proposed again after the agent
   * walked away and came back to a place that answered its arrival as before, with nothing changed
   * on the way (`put apple 1 in/on countertop 1`, refused; other places; back at the countertop, which
   * shows what it showed): the place is the one it was refused in, so it is refused again. Proven, as
   * every cycle, on the third stay: refused there in two stays, each after moves.
   */
  function checkPlace(call: CallContext): Violation | undefined {
    if (moves === 0 || !isWatched(call, call.toolPolicy.detectors.stateCycle)) return undefined;
    const earlier = failing.peek(call.banKey);
    if (earlier?.movesAtLastFailure === undefined || earlier.movesAtLastFailure === moves) return undefined;
    const stays = earlier.stays[earlier.states.indexOf(placeState())] ?? 0;
    return stays >= 2 ? describePlace(call, earlier, stays) : undefined;
  }

  /** Forgets the workspace followed, the failures counted in its states and where the agent stands. */
  function forgetStates(): void {
    world.clear();
    failing.clear();
    moves = 0;
    place = '';
    deeds = 0;
  }

  /** The workspace as followed, and where the agent last moved to, as that move answered. */
  function placeState(): string {
    return `${world.fingerprint()}@${place}#${deeds}`;
  }

  /** A query the last stalled stretches re-read, proposed again while nothing has progressed since. */
  function rereads(call: CallContext): boolean {
    return (
      stalled > 0 &&
      !stretch.progressed &&
      isWatched(call, call.toolPolicy.detectors.compactionCycle) &&
      REREAD_KINDS.has(kindOf(call)) &&
      repeated.peek(stepKeyOf(call)) !== undefined
    );
  }

  function checkStretches(call: CallContext): Violation | undefined {
    if (!rereads(call)) return undefined;
    return describeStretches(call, stalled, stalled >= 2 || stretch.warned ? 'block' : 'warn');
  }

  function observeReturn(call: CallContext, outcome: ObservedOutcome): void {
    if (!isWatched(call, call.toolPolicy.detectors.stateCycle)) return;
    const kind = kindOf(call);
    if (outcome.success) {
      // It can succeed: whatever state it failed in before is no evidence any more.
      failing.delete(call.banKey);
      // A move of the agent or of its view (`go_to`, `open`) takes it elsewhere and changes no file;
      // a command's move (`cd`) may leave what it ran behind, and starts the workspace anew.
      if (call.facts.navigates === true && kind !== 'exec') {
        moves++;
        place = hashString(`${stepKeyOf(call)} ${outcome.resultDigest}`);
        return;
      }
      if (!LOOKING_KINDS.has(kind)) deeds++;
      if (outcome.changedWorld) world.changed(call);
      return;
    }
    if (!provesAgentFault(outcome.failure)) return;
    if (kind !== 'exec') {
      observePlace(call, outcome);
      return;
    }
    const state = world.fingerprint();
    noteFailure(call, outcome, state, (earlier) => state !== earlier.lastState);
  }

  /** A call that is not a command refused where the agent stands; a stay begins with each move. */
  function observePlace(call: CallContext, outcome: ObservedOutcome): void {
    if (moves === 0 || call.facts.navigates === true) return;
    noteFailure(call, outcome, placeState(), (earlier) => earlier.movesAtLastFailure !== moves, moves);
  }

  /**
   * Counts a failure of `call` in `state`: another stay there when `newStay` says one began (for a
   * command, a failure in another state since; for a call at a place, a move since), the same stay
   * otherwise. `movesAt` is given for a call at a place.
   */
  function noteFailure(
    call: CallContext,
    outcome: ObservedOutcome,
    state: string,
    newStay: (earlier: Failed) => boolean,
    movesAt?: number,
  ): void {
    const earlier = failing.peek(call.banKey);
    const signature = outcome.failure?.signature ?? '';
    const lastError = outcome.text.slice(0, 160);
    if (earlier === undefined || (earlier.movesAtLastFailure === undefined) !== (movesAt === undefined)) {
      failing.set(call.banKey, {
        states: [state],
        stays: [1],
        lastState: state,
        changesAtLastFailure: world.changes,
        ...(movesAt !== undefined && { movesAtLastFailure: movesAt }),
        failures: 1,
        signature,
        lastError,
      });
      return;
    }
    if (newStay(earlier)) {
      const at = earlier.states.indexOf(state);
      if (at < 0) {
        earlier.states.push(state);
        earlier.stays.push(1);
      } else earlier.stays[at] = (earlier.stays[at] ?? 0) + 1;
      if (earlier.states.length > STATES_PER_COMMAND) {
        earlier.states.shift();
        earlier.stays.shift();
      }
    }
    earlier.lastState = state;
    if (movesAt !== undefined) earlier.movesAtLastFailure = movesAt;
    earlier.changesAtLastFailure = world.changes;
    earlier.failures++;
    earlier.signature = signature;
    earlier.lastError = lastError;
  }

  function observeStretch(call: CallContext, outcome: ObservedOutcome): void {
    const key = stepKeyOf(call);
    const before = known.peek(key);
    const same = before === outcome.resultDigest;
    const warned = rereads(call);
    if (before === undefined) known.add(key, outcome.resultDigest);
    else known.set(key, outcome.resultDigest);
    if (outcome.changedWorld || !same) {
      stretch.progressed = true;
    } else if (outcome.success && REREAD_KINDS.has(kindOf(call))) {
      if (stretch.rereads.size < MAX_REREADS) stretch.rereads.add(key);
      // The warning was read with an answer the agent already had: the next re-read is blocked.
      if (warned) stretch.warned = true;
    }
  }

  function clearSessions(): void {
    sessionPath = undefined;
    sessionAnswers.clear();
  }

  function clearStretches(): void {
    known.clear();
    repeated.clear();
    stalled = 0;
    stretch = freshStretch();
  }

  return {
    name: NAME,

    check(call: CallContext): Violation | undefined {
      const warned = checkStretches(call);
      if (warned?.severity === 'block') return warned;
      return checkReturn(call) ?? checkRounds(call) ?? checkPlace(call) ?? checkSession(call) ?? warned;
    },

    afterCheck(call: CallContext, verdict: VerdictKind): void {
      stretch.proposals++;
      // Stopped before it ran: it is still this stretch going round the same files.
      if ((verdict === 'block' || verdict === 'halt') && rereads(call) && stretch.rereads.size < MAX_REREADS)
        stretch.rereads.add(stepKeyOf(call));
    },

    observe(call: CallContext, outcome: ObservedOutcome): void {
      observeSession(call, outcome);
      if (isHarnessFault(outcome)) return;
      observeReturn(call, outcome);
      observeStretch(call, outcome);
      // Exempt tools and polls are invisible: they neither form nor interrupt a round.
      if (!isWatched(call, call.toolPolicy.detectors.cycle) || kindOf(call) === 'poll') return;
      const declaredChange = outcome.success && outcome.changedWorld && CHANGE_KINDS.has(kindOf(call));
      // A declared change that names no file: where it took the world is not followed.
      const hidden = declaredChange && call.facts.targets.length === 0;
      // Without the words about it: a reworded description is the same step, its answer compared too.
      history.push({
        callKey: stepKeyOf(call),
        outcome: outcomeOf(outcome),
        stretch: compactions,
        navigates: call.facts.navigates === true,
        changed: outcome.changedWorld,
        declaredChange,
        unfollowed: hidden && call.facts.replacesLinesInPlace !== true,
        inPlace: hidden && call.facts.replacesLinesInPlace === true,
        waits: call.facts.waitSeconds !== undefined,
        call,
      });
    },

    compacted(): void {
      // Hosts announce one compaction more than once (before it, after it, at the restart).
      if (stretch.proposals === 0) return;
      compactions++;
      if (!stretch.progressed && stretch.rereads.size > 0) {
        stalled++;
        for (const key of stretch.rereads) repeated.set(key, true);
      } else {
        stalled = 0;
        repeated.clear();
      }
      stretch = freshStretch();
    },

    // A new user message may ask for something new, and the user may have changed files by hand; what
    // the files are does not depend on who asked, so their states are kept until a new session.
    reset(reason): void {
      history.clear();
      compactions = 0;
      clearStretches();
      clearSessions();
      if (reason !== 'session') return;
      forgetStates();
    },

    snapshot(): unknown {
      return {
        version: VERSION,
        history: history.toArray().map((step) => ({
          callKey: step.callKey,
          outcome: answerOf(step),
          stretch: step.stretch,
          ...(step.navigates && { navigates: true }),
          ...(step.changed && { changed: true }),
          ...(step.declaredChange && { declaredChange: true }),
          ...(step.unfollowed && { unfollowed: true }),
          ...(step.inPlace && { inPlace: true }),
          ...(step.waits && { waits: true }),
          description: step.call.description,
        })),
        compactions,
        'state-cycle': {
          world: world.snapshot(),
          moves,
          place,
          deeds,
          // Error texts stay out of saved state; the reason then quotes none.
          failed: failing
            .entries()
            .map(
              ([key, value]) =>
                [
                  key,
                  { ...value, states: [...value.states], stays: [...value.stays], lastError: '' },
                ] as const,
            ),
        },
        'compaction-cycle': {
          known: known.entries(),
          stalled,
          repeated: repeated.entries().map(([key]) => key),
          stretch: {
            proposals: stretch.proposals,
            progressed: stretch.progressed,
            rereads: [...stretch.rereads],
            warned: stretch.warned,
          },
        },
        'session-cycle': {
          ...(sessionPath !== undefined && { path: sessionPath }),
          steps: sessionAnswers.entries().map(([key, step]) => [key, { ...step }] as const),
        },
      };
    },

    restore(state: unknown): void {
      history.clear();
      compactions = 0;
      clearStretches();
      clearSessions();
      forgetStates();
      const snapshot = readSnapshot(state, VERSION);
      if (!snapshot) return;
      compactions = readCount(snapshot.compactions) ?? 0;
      const items = Array.isArray(snapshot.history) ? snapshot.history.slice(-CAPACITY) : [];
      for (const item of items) {
        const step = readStep(item, compactions);
        if (step) history.push(step);
      }
      const returns = snapshot['state-cycle'];
      if (isRecord(returns)) {
        world.restore(returns.world);
        moves = readCount(returns.moves) ?? 0;
        place = readHash(returns.place) ?? '';
        deeds = readCount(returns.deeds) ?? 0;
        for (const [key, value] of readEntries(returns.failed, MAX_COMMANDS, readFailed))
          failing.set(key, value);
      }
      const stretches = snapshot['compaction-cycle'];
      if (isRecord(stretches)) {
        for (const [key, digest] of readPairs(stretches.known, MAX_KNOWN)) known.set(key, digest);
        stalled = readCount(stretches.stalled) ?? 0;
        for (const key of readStrings(stretches.repeated, MAX_REREADS)) repeated.set(key, true);
        const saved = stretches.stretch;
        if (isRecord(saved)) {
          stretch.proposals = readCount(saved.proposals) ?? 0;
          stretch.progressed = saved.progressed === true;
          for (const key of readStrings(saved.rereads, MAX_REREADS)) stretch.rereads.add(key);
          stretch.warned = saved.warned === true;
        }
      }
      const sessions = snapshot['session-cycle'];
      if (isRecord(sessions)) {
        sessionPath = readString(sessions.path);
        for (const [key, step] of readEntries(sessions.steps, MAX_SESSION_STEPS, readSessionStep))
          sessionAnswers.set(key, step);
      }
    },
  };
}

function describeRounds(
  call: CallContext,
  steps: readonly Step[],
  seen: number,
  severity: 'warn' | 'block',
): Violation {
  const descriptions = steps.map((step) => step.call.description);
  const sequence = descriptions.join(' → ');
  const when = severity === 'warn' ? ', the first time before your context was compacted' : '';
  return {
    rule: NAME,
    severity,
    reason:
      `The same ${steps.length}-call sequence has run ${times(seen)} in a row with identical results${when} ` +
      `(${sequence}); starting it again will not change anything.`,
    suggestion: withAlternatives(
      'Use what these calls already returned, or change something before going through them again.',
      call.toolPolicy.alternatives,
    ),
    evidence: { count: seen, calls: descriptions, period: steps.length },
  };
}

/** The last error a call failed with, on one line, as a sentence to end a reason; none when it said nothing. */
function lastErrorSentence(earlier: Failed): string {
  return earlier.lastError === '' ? '' : ` Last error: ${earlier.lastError.replace(/\s+/g, ' ').trim()}`;
}

function describeReturn(call: CallContext, earlier: Failed, stays: number): Violation {
  const back =
    stays === 1
      ? 'once with the files exactly as they are now: the edits since have only brought them back to that state.'
      : `${times(stays)} with the files exactly as they are now, each time after failing otherwise in between: ` +
        'the edits since have brought them back to that state again.';
  return {
    rule: 'state-cycle',
    severity: 'block',
    reason:
      `${call.description} failed ${times(earlier.failures)} with ${earlier.signature}, ${back}` +
      lastErrorSentence(earlier),
    suggestion: withAlternatives(
      'Undoing and redoing the same edits goes round in a circle. Make a change not tried yet, or read the error again for what it asks for.',
      call.toolPolicy.alternatives,
    ),
    evidence: { count: earlier.failures, calls: [call.description] },
  };
}

function describePlace(call: CallContext, earlier: Failed, stays: number): Violation {
  return {
    rule: 'state-cycle',
    severity: 'block',
    reason:
      `${call.description} was refused at this place ${times(stays)} already, each time after a move ` +
      'brought you here and the place answered as it does now; nothing that worked since has changed it.' +
      lastErrorSentence(earlier),
    suggestion: withAlternatives(
      'Coming back does not change the answer. Get what the call needs first, or do something there that was not tried yet; read the refusal again.',
      call.toolPolicy.alternatives,
    ),
    evidence: { count: earlier.failures, calls: [call.description] },
  };
}

function describeStretches(call: CallContext, stalled: number, severity: 'warn' | 'block'): Violation {
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
    rule: 'compaction-cycle',
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

function readStep(raw: unknown, compactions: number): Step | undefined {
  if (!isRecord(raw)) return undefined;
  const callKey = readString(raw.callKey);
  const outcome = readString(raw.outcome);
  if (callKey === undefined || outcome === undefined) return undefined;
  if (!/^(?:ok|error) \S+$/.test(outcome)) return undefined;
  const stretch = Math.min(readCount(raw.stretch) ?? 0, compactions);
  return {
    callKey,
    outcome,
    stretch,
    navigates: raw.navigates === true,
    changed: raw.changed === true,
    declaredChange: raw.declaredChange === true,
    unfollowed: raw.unfollowed === true,
    inPlace: raw.inPlace === true && raw.unfollowed !== true,
    waits: raw.waits === true,
    call: { description: readString(raw.description) ?? callKey },
  };
}

function readFailed(raw: Record<string, unknown>): Failed | undefined {
  const signature = readString(raw.signature);
  const failures = readCount(raw.failures);
  const changesAtLastFailure = readCount(raw.changesAtLastFailure);
  const states = readStrings(raw.states, STATES_PER_COMMAND);
  if (signature === undefined || failures === undefined || changesAtLastFailure === undefined)
    return undefined;
  if (states.length === 0) return undefined;
  // Saved before stays were counted, or damaged: each state one stay.
  const saved: unknown[] = Array.isArray(raw.stays) && raw.stays.length === states.length ? raw.stays : [];
  const stays = states.map((_, index) => Math.max(1, readCount(saved[index]) ?? 1));
  const lastState = readString(raw.lastState);
  const movesAtLastFailure = readCount(raw.movesAtLastFailure);
  return {
    states,
    stays,
    lastState:
      lastState !== undefined && states.includes(lastState)
        ? lastState
        : (states[states.length - 1] as string),
    failures,
    changesAtLastFailure,
    ...(movesAtLastFailure !== undefined && { movesAtLastFailure }),
    signature,
    lastError: readString(raw.lastError) ?? '',
  };
}

/**
 * A step's answer for following a session: its masked result, whether it succeeded or failed. A
 * failure is not shaped here: most sessions' steps are never compared, and shaping costs.
 */
function sessionAnswerOf(outcome: ObservedOutcome): string {
  return `${outcome.success ? 'ok' : 'error'} ${outcome.resultDigest}`;
}

/**
 * A call that says which files it changed: an edit, a creation or a removal the call declares, or
 * a command whose writes were read from its line. A command of unknown effects is left out: within
 * a session it is most often a line sent to the session itself (a debugger's step).
 */
function changesNamedFiles(call: CallContext): boolean {
  if (CHANGE_KINDS.has(kindOf(call))) return true;
  const facts = call.facts;
  return (facts.touches?.length ?? 0) > 0 || facts.writesFiles === true || facts.changesTree === true;
}

function describeSession(call: CallContext, seen: SessionStep): Violation {
  return {
    rule: 'session-cycle',
    severity: 'block',
    reason:
      `${call.description} answered alike at this point of ${times(seen.times)} sessions started the same way ` +
      'and fed the same calls, each answering as it did: this session is going the same way, and will answer so again.',
    suggestion: withAlternatives(
      'Use what those sessions already showed, or start this one otherwise (another breakpoint, other input) to learn something new.',
      call.toolPolicy.alternatives,
    ),
    evidence: { count: seen.times, calls: [call.description] },
  };
}

function readSessionStep(raw: Record<string, unknown>): SessionStep | undefined {
  const answer = readString(raw.answer);
  const times = readCount(raw.times);
  if (answer === undefined || times === undefined || !/^(?:ok|error) \S+$/.test(answer)) return undefined;
  return { answer, times, description: readString(raw.description) ?? '' };
}
