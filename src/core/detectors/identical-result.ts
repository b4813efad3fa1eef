/**
 * The same call returning the same result again while nothing changed: the agent is re-asking a
 * question it already has the answer to. Back to back, that is a loop at once; a read or search
 * coming back later, with nothing changed since, is one too once it has returned the same answer
 * every time (`revisit`), or once the agent is re-running one earlier query after another and each
 * came back as before (a sweep over what it already knows), or once calls of one tool keep coming
 * back as they did before with nothing done in between (an agent going over what it already has).
 * A change that names nothing it changes, answered alike with only failures since, changed nothing,
 * and is judged as a question about the state is. Polls are left to the poll detector, and failures
 * to the identical-failure rule, which knows about blame.
 */
import { isBlank } from '../blank.js';
import { locationAddresses } from '../identity/index.js';
import { OUTSIDE_ANSWER_MS } from '../outside-answers.js';
import type { ActionKind, Violation } from '../types.js';
import { answerKeyOf, isHarnessFault, isWatched, kindOf } from './applicability.js';
import { BackgroundWork } from './background.js';
import { LruMap } from './bounded.js';
import {
  isRecord,
  readCount,
  readEntries,
  readNumber,
  readPairs,
  readSnapshot,
  readString,
} from './restore.js';
import { showsItsWrite } from './shown-write.js';
import type { CallContext, Detector, ObservedOutcome } from './types.js';
import { excerpt, times, withAlternatives } from './wording.js';

type IdenticalResultLimits = CallContext['toolPolicy']['detectors']['identicalResult'];

const NAME = 'identical-result';
const REVISIT = 'revisit';
const MAX_CALLS = 1_000;
/** Earlier answers kept for re-runs that come back later: a session's worth of distinct queries. */
const REVISIT_ROOM = 256;
/** What a re-run can be judged on: asking again cannot change what these return. */
const QUERY_KINDS: ReadonlySet<ActionKind> = new Set(['read', 'search']);
/**
 * A question about the state as a whole (`inventory`, `look`): a call that names no target and is
 * neither a command nor a change. Asked again while nothing else succeeded, it answers as before.
 */
const STATE_QUERY_KINDS: ReadonlySet<ActionKind> = new Set(['read', 'search', 'api', 'other']);
/**
 * A change that names nothing it changes (a game's `take shower`, `push button`): answered alike twice
 * with only failures between, its last run changed nothing a later call could see, so a third run,
 * nothing having succeeded since, changes nothing again. A change that writes text (an edit of the
 * file an editor has open) or names a file is left to the rules for edits and writes.
 */
function isBlindChange(call: CallContext): boolean {
  return kindOf(call) === 'mutate' && call.facts.targets.length === 0 && call.facts.writtenText === undefined;
}

/**
 * The ask of a state query blocked when each earlier ask answered alike and only failing calls came
 * in between: two answers alike are the evidence that nothing the failures did reached it.
 */
const STATE_QUERY_BLOCK_AT = 3;
/**
 * The run of a command blocked when it answered alike each time before, with other calls in
 * between and nothing done since: two answers alike are the evidence that it gives the same again.
 */
const ATTEMPT_BLOCK_AT = 3;
/**
 * The ask of a call acting on nothing blocked when its answer is one its tool gave to other values
 * too (`Wrong flag!` to every flag): the answer does not depend on what was asked, so the same value
 * asked again, nothing done since, gets it once more.
 */
const REFUSED_BLOCK_AT = 2;
/**
 * Calls of one tool that came back as they had before, nothing having been done since their earlier
 * answers, within the policy's `repeatWindow`: the evidence that the agent is going over what it
 * already has, so that the tool's next such call is blocked on its first repeat.
 */
const REPEATS_OF_A_TOOL = 2;
/** Such repeats kept for each tool: the latest, enough to count within any window. */
const MAX_REPEATS_KEPT = 4;

/** A call that came back as it had before: when (its proposal's number), and which call. */
interface Repeated {
  readonly at: number;
  readonly key: string;
}

/** Marks an answer its tool gave to two different calls or more. */
const TO_OTHERS = '';
/**
 * Calls remembered beyond the widest window in use: outcomes arrive after a whole batch of
 * proposals when an agent dispatches calls in parallel.
 */
const BATCH_ROOM = 64;
/**
 * Calls that may come between two asks alike without ending a streak already two long, when each is
 * a read, a search or an edit whose text to replace was not in the file: a look elsewhere (a search
 * in the file just read twice) or an edit that wrote nothing leaves the agent where it was, and the
 * next ask alike is the streak's next. A single
 * ask between other calls starts no streak: reading a file again between searches is how agents
 * refresh what they know.
 */
const IDLE_ROOM = 1;
/** The streak an idle call may interrupt: asked twice in a row already. */
const IDLE_STREAK = 2;
/**
 * 1 saved each call's repeats; 2 also saves the counts of successes and of things done, each
 * repeat's standing against them, the re-runs' tool and last query, and what each tool said to act
 * on nothing answered: every one a count, a call key or a result digest (hashes).
 */
const VERSION = 2;
/** A snapshot of version 1 is read as before: its repeats start their counts over. */
const FIRST_VERSION = 1;

interface Repeats {
  digest: string;
  /** How many times in a row this call returned `digest`. */
  count: number;
  /**
   * The world version when it last did: a change since of what it depends on (its targets, or
   * anything for a call that names none) makes the next call a new question.
   */
  world: number;
  /** The count of targeted changes when it last returned `digest`. */
  since: number;
  /** What it depends on: its targets; none means anything. */
  targets: readonly string[];
  /** The outside service it asks, whose side effects may change its answer; none for files. */
  service?: string;
  /** The count of side effects through `service` when it last returned `digest`. */
  serviceAt: number;
  /** Sequence number of the executed call that last returned `digest`. */
  at: number;
  /** When it last returned `digest`, by the clock calls are stamped with. */
  answeredAt?: number;
  text: string;
  /** How many times it returned `digest` since the world last changed, back to back or not. */
  seen: number;
  /**
   * For an attempt: the addresses its answer reported as where something is (a debugger's program
   * counter), which the digest masks. A step that moved the program answered otherwise, whatever
   * the digest says.
   */
  locations?: string;
  /**
   * How many times in a row it returned `digest` after other calls, none of which succeeded: asks
   * back to back count once.
   */
  quiet: number;
  /** The count of successful calls, its own included, when it last returned `digest`. */
  successesAt: number;
  /** The count of things done (see `doings`) when it last returned `digest`. */
  doingsAt?: number;
  /** The count of calls other than reads (see `stirs`) when it last returned `digest`. */
  stirsAt?: number;
  /**
   * Set between the proposal and the outcome of an ask that came after an idle call (`IDLE_ROOM`):
   * it goes on with the streak, but came after another call all the same.
   */
  resumed?: boolean;
  /**
   * An edit whose answer shows what it wrote: the same answer again proves it changed nothing. Set
   * from the second answer alike on, the only answers it is read after (a count of 2 or more).
   */
  showsWrite?: boolean;
}

/** A question put to something outside this machine, its last answer alike minutes old. */
function askedAfterWaiting(call: CallContext, entry: Repeats): boolean {
  return (
    call.facts.asksOutside === true &&
    entry.answeredAt !== undefined &&
    call.now - entry.answeredAt >= OUTSIDE_ANSWER_MS
  );
}

/**
 * A question whose answer only a change can alter: a read or a search, or a command that only reads
 * the workspace's files (`ls`, `cat a.py`), whatever tool runs it.
 */
function isQuery(call: CallContext): boolean {
  const kind = kindOf(call);
  return QUERY_KINDS.has(kind) || (kind === 'exec' && call.facts.readsFilesOnly === true);
}

/**
 * An attempt: a command whose effects are unknown (a script, a program run for what it prints), not
 * one that only reads files (a query, judged as such), writes a file it names or not, or may reset
 * the tree: running it again with nothing changed runs the same thing on the same files.
 */
function isAttempt(call: CallContext): boolean {
  const { facts } = call;
  return (
    kindOf(call) === 'exec' &&
    facts.readsFilesOnly !== true &&
    facts.changesNothing !== true &&
    facts.changesTree !== true &&
    facts.writesFiles !== true &&
    (facts.touches ?? []).length === 0
  );
}

/**
 * A call of a tool said to act on nothing (`submit {flag: …}` where the host declares it so), sent
 * with arguments and naming no target: what it answers depends on its arguments alone, so it is an
 * attempt as a command is. Its success did something only when it answered otherwise than the
 * tool's call before it: a tool that gives the same answer to another question (`Wrong flag!` to
 * every flag) answered without regard to what it was asked.
 */
function isInertCall(call: CallContext): boolean {
  const declared = call.toolPolicy.kind === 'other' || call.facts.actsOnNothing === true;
  return (
    kindOf(call) === 'other' &&
    declared &&
    call.facts.targets.length === 0 &&
    Object.keys(call.args).length > 0
  );
}

/**
 * A call whose repeats show an agent going over what it has: any but a call of a tool whose nature
 * is unknown (`other`: typing into a program, a game's verb, where the same words may answer
 * otherwise as a conversation goes on) and a poll, which is meant to be repeated.
 */
function countsAsGoingOver(call: CallContext): boolean {
  const kind = kindOf(call);
  return kind !== 'other' && kind !== 'poll';
}

export function createIdenticalResultDetector(): Detector {
  const calls = new LruMap<Repeats>(MAX_CALLS);
  /** While background work runs, a call that only asks is a poll's: the poll rule judges it. */
  const background = new BackgroundWork();
  /** Changes that may touch anything: commands, and changes that name no target. */
  let world = 0;
  /**
   * Changes of named targets, counted, and the count at each target's last change. Not a map that
   * forgets its oldest entries: a forgotten change would make a stale answer look current. Past
   * `MAX_CALLS` paths, the next change counts as a change of everything, and they are let go;
   * maps are replaced rather than cleared, which would link the old table to the new.
   */
  let changes = 0;
  let changedAt = new Map<string, number>();
  /** Side effects counted per service (a booking system, a GitHub server). */
  let serviceChanges = new Map<string, number>();
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
  /**
   * Re-runs of earlier queries in a row, each returning what it returned before; a first ask of a new
   * query may come between two of them.
   */
  let reruns = 0;
  /** First asks of new queries since the last re-run. */
  let firstAsks = 0;
  /**
   * Calls that succeeded, but for reads and searches that answered as before: a success in between
   * may have changed what a state query answers.
   */
  let successes = 0;
  /**
   * Things done: calls that may have changed something, which is every success but a query's or a
   * call's answering as it did the time before, and every failed action but a command's.
   */
  let doings = 0;
  /**
   * Calls that ran other than reads, searches and edits whose text to replace was not in the file:
   * between two asks alike, any of them may have moved the agent on. Kept in this process only.
   */
  let stirs = 0;
  /** The last answer of each tool said to act on nothing (see `isInertCall`); '' after a failure. */
  const lastAnswers = new LruMap<string>(MAX_CALLS);
  /**
   * For each answer of a tool said to act on nothing, by tool and answer: the call that first got
   * it, or `TO_OTHERS` once another call got it too.
   */
  const answeredTo = new LruMap<string>(MAX_CALLS);
  /**
   * The last move of a view that succeeded (an editor's `open`, a `cd`): a move elsewhere after it
   * changes what later calls see, so it is not a re-read, however often it went there before.
   */
  let view = '';
  /** The tool of those re-runs, and the last query re-run: a sweep goes over one tool's queries. */
  let rerunTool = '';
  let rerunKey = '';
  /**
   * The call `check` last looked up and what it found: `afterCheck` of the same call follows at
   * once and would find the same, since only an outcome, a reset or a restore changes the calls.
   */
  let checked: CallContext | undefined;
  let checkedEntry: Repeats | undefined;
  /**
   * For each tool, its calls that came back as they had before, nothing having been done since their
   * earlier answers (the latest few).
   */
  const repeatedAt = new LruMap<Repeated[]>(MAX_CALLS);

  /** A navigation to somewhere other than where the view is. */
  function movesView(call: CallContext): boolean {
    return call.facts.navigates === true && viewOf(call) !== view;
  }

  /**
   * Where a navigation leaves the view: the directory a command line moves to before it looks
   * (`cd /srv/app && grep -rn Policy src`), whatever it then looks at; otherwise the call itself (an
   * editor's `open a.py`).
   */
  function viewOf(call: CallContext): string {
    const directory = call.facts.kind === 'exec' ? call.facts.directory : undefined;
    return directory !== undefined && directory !== ''
      ? `\u0000directory\u0000${directory}`
      : answerKeyOf(call);
  }

  function current(callKey: string, withinCalls: number, next: number): Repeats | undefined {
    const entry = calls.peek(callKey);
    return entry && unchanged(entry) && inStreak(entry, withinCalls, next) ? entry : undefined;
  }

  /**
   * The ask numbered `next` follows the entry's last answer back to back: within the window, or one
   * call further when the streak is two asks long and only reads came since its last answer.
   */
  function inStreak(entry: Repeats, withinCalls: number, next: number): boolean {
    const gap = next - entry.at;
    if (gap <= withinCalls) return true;
    return gap <= withinCalls + IDLE_ROOM && entry.count >= IDLE_STREAK && entry.stirsAt === stirs;
  }

  /** A query the agent already has the answer to: it ran earlier and nothing has changed since. */
  function answered(call: CallContext): Repeats | undefined {
    if (!isQuery(call)) return undefined;
    const entry = calls.peek(answerKeyOf(call));
    return entry && unchanged(entry) ? entry : undefined;
  }

  /** Nothing the call depends on has changed since it last returned its result. */
  function unchanged(entry: Repeats): boolean {
    if (entry.world !== world) return false;
    if (entry.service !== undefined && (serviceChanges.get(entry.service) ?? 0) !== entry.serviceAt)
      return false;
    if (entry.since === changes) return true;
    if (entry.targets.length === 0) return false;
    for (const target of entry.targets) if ((changedAt.get(target) ?? -1) > entry.since) return false;
    return true;
  }

  /** A state query whose every ask answered alike while only failing calls came in between. */
  function unchangedState(call: CallContext): Repeats | undefined {
    if (call.facts.targets.length > 0) return undefined;
    if (!STATE_QUERY_KINDS.has(kindOf(call)) && !isBlindChange(call)) return undefined;
    const entry = calls.peek(answerKeyOf(call));
    if (!entry || entry.successesAt !== successes || entry.quiet + 1 < STATE_QUERY_BLOCK_AT) return undefined;
    return unchanged(entry) ? entry : undefined;
  }

  /** An attempt that answered alike each time it ran, nothing having changed since. */
  function repeatedAttempt(call: CallContext): Repeats | undefined {
    const inert = !isAttempt(call) && isInertCall(call);
    if (!isAttempt(call) && !inert) return undefined;
    const entry = calls.peek(answerKeyOf(call));
    if (!entry || entry.doingsAt !== doings) return undefined;
    // A note kept again (`TodoWrite` with the same list) is harmless, whatever its tool answers.
    const blockAt =
      inert &&
      call.facts.keepsNotes !== true &&
      answeredTo.peek(`${call.tool}\u0000${entry.digest}`) === TO_OTHERS
        ? REFUSED_BLOCK_AT
        : ATTEMPT_BLOCK_AT;
    if (entry.seen + 1 < blockAt) return undefined;
    // A note to itself that answers nothing (a `think`) tells nothing: writing it again is harmless.
    if (inert && entry.quiet === 0) return undefined;
    if (!unchanged(entry)) return undefined;
    return entry;
  }

  /**
   * A call that would come back as it did before, nothing having been done since it last ran, of a
   * tool whose calls did so twice within the window (this one or others, back to back or not): the
   * agent is going over what it already has. Not a tool whose nature is unknown (typing into a
   * program, a game's verb), where the same words may answer otherwise as a conversation goes on,
   * and never a poll.
   */
  function goingOver(call: CallContext, limits: IdenticalResultLimits): Violation | undefined {
    if (limits.repeatWindow <= 0 || !countsAsGoingOver(call)) return undefined;
    const repeats = repeatedAt.peek(call.tool);
    if (repeats === undefined) return undefined;
    const entry = calls.peek(answerKeyOf(call));
    if (!entry || entry.doingsAt !== doings || !unchanged(entry)) return undefined;
    const recent = repeats.filter((repeat) => proposed + 1 - repeat.at <= limits.repeatWindow);
    if (recent.length < REPEATS_OF_A_TOOL) return undefined;
    // One call asked again and again is the back-to-back streak's, or a poll's: not going over things.
    if (recent.every((repeat) => repeat.key === recent[0]?.key)) return undefined;
    return describeGoingOver(call, entry, recent.length, limits.repeatWindow);
  }

  function checkRevisit(call: CallContext, limits: IdenticalResultLimits): Violation | undefined {
    const attempt = repeatedAttempt(call);
    if (attempt) return describeAttempt(call, attempt);
    const state = unchangedState(call);
    if (state) return describeStateQuery(call, state);
    const entry = answered(call);
    if (!entry) return undefined;
    if (limits.revisitBlockAt > 0 && entry.seen + 1 >= limits.revisitBlockAt)
      return describeRevisit(call, entry, proposed + 1 - entry.at);
    const sweeping =
      reruns >= limits.rerunStreak && call.tool === rerunTool && answerKeyOf(call) !== rerunKey;
    if (limits.rerunStreak > 0 && sweeping) return describeRerun(call, entry, reruns);
    return undefined;
  }

  return {
    name: NAME,

    check(call: CallContext): Violation | undefined {
      checked = undefined;
      const limits = call.toolPolicy.detectors.identicalResult;
      if (!isWatched(call, limits) || background.polls(call)) return undefined;
      // A move of the view back to a file or a directory it left (`open a.py` after `open b.py`) is a
      // move, as the one that left it was: the view is elsewhere, so it is not asked again.
      if (movesView(call)) return undefined;
      // A call that waits before it asks (`sleep 30 && gh run view 42`) is a paced poll.
      if (call.facts.waitSeconds !== undefined) return undefined;
      const last = call.facts.asksOutside === true ? calls.peek(answerKeyOf(call)) : undefined;
      if (last !== undefined && askedAfterWaiting(call, last)) return undefined;
      const entry = current(answerKeyOf(call), limits.withinCalls, proposed + 1);
      checked = call;
      checkedEntry = entry;
      if (!entry) return checkRevisit(call, limits) ?? goingOver(call, limits);
      // Asked again after an idle call between, it is also a call coming back: the rules for those
      // may already stop it.
      if (proposed + 1 - entry.at > limits.withinCalls) {
        const revisit = checkRevisit(call, limits);
        if (revisit) return revisit;
      }
      // Asked again back to back after asks alike with only failures between: still the same state.
      const state = unchangedState(call);
      if (state) return describeStateQuery(call, state);
      // A command of unknown effects that answered alike each time, back to back: its third run.
      const attempt = repeatedAttempt(call);
      if (attempt) return describeAttempt(call, attempt);
      // The proposal being checked would be the next identical call.
      const proposal = entry.count + 1;
      // A write that answered alike twice wrote what the file held: the evidence is conclusive.
      const noOpWrite = entry.showsWrite === true && entry.count >= 2;
      if (proposal >= limits.blockAt) return describe(call, entry, 'block');
      if (noOpWrite && proposal >= limits.warnAt) return describeNoOpWrite(call, entry);
      const over = goingOver(call, limits);
      if (over) return over;
      if (proposal >= limits.warnAt) return describe(call, entry, 'warn');
      return undefined;
    },

    observe(call: CallContext, outcome: ObservedOutcome): void {
      checked = undefined;
      if (isHarnessFault(outcome)) return;
      background.observe(call, outcome);
      // An action that failed may have ended what it acted on (a connection closed under it); a
      // command's failure is the world model's to judge.
      if (
        !outcome.success &&
        ((!isQuery(call) && kindOf(call) !== 'exec') || call.facts.waitSeconds !== undefined)
      )
        doings++;
      // Only a read, a search or an edit whose text to replace was not in the file (it wrote
      // nothing) leaves the agent where it was.
      if (!isQuery(call) && outcome.failure?.meaning !== 'content-missing') stirs++;
      const key = answerKeyOf(call);
      if (call.facts.navigates === true && outcome.success) view = viewOf(call);
      const limits = call.toolPolicy.detectors.identicalResult;
      /** What the calls hold for this one once it is written; null while not looked up. */
      let own: Repeats | undefined | null = null;
      /** A read or search that answered what it answered before, nothing changed since: nothing new. */
      let toldNothingNew = false;
      /** The call answered as it did the time before, nothing changed since. */
      let repeated = false;
      if (isWatched(call, limits) && !background.polls(call)) {
        if (limits.withinCalls > widestWindow) widestWindow = limits.withinCalls;
        const entry = calls.peek(key);
        const resumed = entry?.resumed === true;
        if (entry !== undefined) delete entry.resumed;
        const same = entry !== undefined && unchanged(entry);
        // What an attempt reports as where something is tells its answers apart too.
        const locations =
          isAttempt(call) || isInertCall(call) ? locationAddresses(outcome.content) : undefined;
        // A search that found nothing answered too: asking again finds nothing again.
        if (!outcome.success && !outcome.empty) {
          calls.delete(key);
          own = undefined;
          reruns = 0;
        } else if (same && entry.digest === outcome.resultDigest && entry.locations === locations) {
          // Asked of something outside after minutes, the same answer is a new one, not a repeat.
          const waited = askedAfterWaiting(call, entry);
          entry.answeredAt = call.now;
          // Nothing at all was done since its last answer, not only nothing it depends on; an answer
          // from before the user's last message is one to come back once more first.
          if (!waited && entry.doingsAt === doings && Number.isFinite(entry.at) && countsAsGoingOver(call)) {
            const repeats = repeatedAt.peek(call.tool) ?? [];
            repeatedAt.set(call.tool, [...repeats, { at: proposed, key }].slice(-MAX_REPEATS_KEPT));
          }
          // Back to back, the streak goes on; after other calls, it starts again.
          const backToBack = proposed - entry.at <= limits.withinCalls && !resumed;
          entry.count =
            !waited && (backToBack || inStreak(entry, limits.withinCalls, proposed)) ? entry.count + 1 : 1;
          entry.seen = waited ? 1 : entry.seen + 1;
          // Asked again back to back, it is the back-to-back streak's: only asks after others count.
          // A blank answer (a note to itself, a no-op) says nothing of a state.
          if (isBlank(outcome.content)) entry.quiet = 0;
          else if (entry.successesAt !== successes) entry.quiet = 1;
          else if (!backToBack) entry.quiet++;
          entry.since = changes;
          entry.at = proposed;
          entry.text = excerpt(outcome.text);
          entry.showsWrite = showsItsWrite(call, outcome.content);
          calls.set(key, entry);
          own = entry;
          repeated = true;
          const query = isQuery(call);
          toldNothingNew = query;
          const sweep = query && call.tool === rerunTool && key !== rerunKey;
          reruns = sweep ? reruns + 1 : query ? 1 : 0;
          firstAsks = 0;
          rerunTool = call.tool;
          rerunKey = key;
        } else {
          const fresh: Repeats = {
            digest: outcome.resultDigest,
            count: 1,
            seen: 1,
            quiet: isBlank(outcome.content) ? 0 : 1,
            ...(locations !== undefined && { locations }),
            successesAt: successes,
            world,
            since: changes,
            // A command names itself, not what it reads: any change may change its answer.
            targets: kindOf(call) === 'exec' ? [] : call.facts.targets,
            ...(call.facts.service !== undefined && { service: call.facts.service }),
            serviceAt: call.facts.service === undefined ? 0 : (serviceChanges.get(call.facts.service) ?? 0),
            at: proposed,
            answeredAt: call.now,
            // Most results are never repeated: their text is kept only where one repeat already
            // warrants a note, instead of holding on to a thousand results.
            text: limits.warnAt <= 2 ? excerpt(outcome.text) : '',
            // Whether it shows its write is read from the second answer alike on, and worked out there:
            // an edit's first answer would otherwise be searched for its written text on every edit.
          };
          if (entry === undefined) calls.add(key, fresh);
          else calls.set(key, fresh);
          // The newest entry outlives any trim: what is trimmed is the oldest, down to a few hundred.
          calls.trim(Math.min(MAX_CALLS, Math.max(REVISIT_ROOM, BATCH_ROOM + 4 * widestWindow)));
          own = fresh;
          // One first read among re-reads (a document not opened yet) neither ends nor adds to the
          // re-runs: what was asked again still came back as before. Two in a row are exploring; an
          // answer that differs from an earlier one, or a call that is not a query, is something new.
          const firstAsk = entry === undefined && isQuery(call);
          firstAsks = firstAsk ? firstAsks + 1 : 0;
          if (!firstAsk || firstAsks > 1) reruns = 0;
        }
      } else {
        reruns = 0;
      }
      // A wait or a poll paces what follows: after it, a run may answer otherwise.
      const paces = call.facts.waitSeconds !== undefined || kindOf(call) === 'poll';
      const inert = isInertCall(call);
      const sameAsTool = inert && outcome.success && lastAnswers.peek(call.tool) === outcome.resultDigest;
      if (inert) lastAnswers.set(call.tool, outcome.success ? outcome.resultDigest : '');
      if (inert && outcome.success && !isBlank(outcome.content)) {
        const answer = `${call.tool}\u0000${outcome.resultDigest}`;
        const first = answeredTo.peek(answer);
        if (first === undefined) answeredTo.add(answer, key);
        else if (first !== key && first !== TO_OTHERS) answeredTo.set(answer, TO_OTHERS);
      }
      if (outcome.success) {
        // A call acting on nothing that answered as its tool did the call before told nothing new;
        // one that answered as it did itself before, after its tool answered otherwise, may have.
        const nothingNew = inert ? sameAsTool : repeated;
        // Code that only computes told the agent something and changed nothing.
        if ((!isQuery(call) && !nothingNew && call.facts.computesOnly !== true) || paces) doings++;
        // A success may have changed what a state query answers, or told the agent something that
        // makes asking it again worth it; a query that repeated its answer did neither.
        if (!toldNothingNew) successes++;
        if (own === null) own = calls.peek(key);
        if (own) own.successesAt = successes;
      }
      if (own === null) own = calls.peek(key);
      if (own) {
        own.doingsAt = doings;
        own.stirsAt = stirs;
      }
      if (outcome.changedWorld || outcome.changedService) {
        // A call's own effect does not make its next identical run a new question, unless the call
        // answered nothing: a silent change (an append, a redirection) shows nothing of what it did.
        if (own === null) own = calls.peek(key);
        // A script's run that printed nothing did what it did the time before, as one that printed
        // something did: only a change by another call makes its next run a new question.
        const before =
          own !== undefined &&
          unchanged(own) &&
          (!isBlank(outcome.content) || (isAttempt(call) && call.facts.runsScript === true));
        const { targets } = call.facts;
        const service = outcome.changedWorld ? undefined : call.facts.service;
        if (service !== undefined && targets.length === 0) {
          // A side effect through a service that names nothing in it (a message, a transfer) may
          // have changed any of the service's answers; it changed no file.
          if (serviceChanges.size >= MAX_CALLS) {
            world++;
            serviceChanges = new Map();
          }
          serviceChanges.set(service, (serviceChanges.get(service) ?? 0) + 1);
        } else if (kindOf(call) === 'exec' || targets.length === 0 || changedAt.size >= MAX_CALLS) {
          // Forgetting which targets changed would make stale answers look current: past the limit,
          // it counts as a change of everything.
          world++;
          changedAt = new Map();
        } else {
          // A change of named targets (a file, a reservation): what asks about them may differ now.
          changes++;
          for (const target of targets) stampWithAncestors(changedAt, target, changes);
        }
        if (own && before) {
          own.world = world;
          own.since = changes;
          if (own.service !== undefined) own.serviceAt = serviceChanges.get(own.service) ?? 0;
        }
      }
    },

    afterCheck(call: CallContext): void {
      proposed++;
      const limits = call.toolPolicy.detectors.identicalResult;
      if (!isWatched(call, limits) || background.polls(call)) return;
      // The same call proposed again keeps its streak alive even when it yields no result to
      // count (blocked, or a harness fault): otherwise every other repeat of a loop would run.
      const entry =
        checked === call ? checkedEntry : current(answerKeyOf(call), limits.withinCalls, proposed);
      checked = undefined;
      if (entry) {
        if (proposed - entry.at > limits.withinCalls) entry.resumed = true;
        entry.at = proposed;
      }
    },

    reset(reason): void {
      checked = undefined;
      reruns = 0;
      view = '';
      background.reset();
      // A new message may ask for what the agent already has: going over it again starts anew.
      repeatedAt.clear();
      if (reason === 'session') {
        calls.clear();
        lastAnswers.clear();
        answeredTo.clear();
        changedAt = new Map();
        serviceChanges = new Map();
        return;
      }
      // A user message changes nothing the agent can read, but the user may have changed something
      // by hand: each earlier answer must come back the same once more before it counts as known.
      // The same holds for an answer given to other values: it must be given again to count.
      answeredTo.clear();
      for (const [, entry] of calls.entries()) {
        entry.count = 0;
        entry.seen = Math.min(entry.seen, 1);
        entry.quiet = Math.min(entry.quiet, 1);
        entry.at = Number.NEGATIVE_INFINITY;
      }
    },

    changedOutside(target: string): void {
      // A change of the file as an edit of it would be, made by someone the guard does not see.
      if (changedAt.size >= MAX_CALLS) {
        world++;
        changedAt = new Map();
        return;
      }
      changes++;
      stampWithAncestors(changedAt, target, changes);
    },

    compacted(): void {
      checked = undefined;
      // The agent no longer has what it read; reading it again is legitimate.
      calls.clear();
      repeatedAt.clear();
      changedAt = new Map();
      serviceChanges = new Map();
      reruns = 0;
    },

    answersHidden(hidden): void {
      checked = undefined;
      // Only these answers are gone: what the agent still has of the others still counts.
      for (const call of hidden) calls.delete(answerKeyOf(call));
      reruns = 0;
    },

    snapshot(): unknown {
      const live = calls.entries().filter(([, entry]) => unchanged(entry));
      return {
        version: VERSION,
        world,
        proposed,
        reruns,
        calls: live,
        successes,
        doings,
        rerun: { tool: rerunTool, key: rerunKey, firstAsks },
        lastAnswers: lastAnswers.entries(),
        answeredTo: answeredTo.entries(),
        repeatedAt: repeatedAt.entries().map(([tool, repeats]) => [tool, { repeats }]),
        ...(background.live && { background: true }),
      };
    },

    restore(state: unknown): void {
      checked = undefined;
      view = '';
      calls.clear();
      lastAnswers.clear();
      answeredTo.clear();
      const current = readSnapshot(state, VERSION);
      const snapshot = current ?? readSnapshot(state, FIRST_VERSION);
      background.restore(snapshot?.background);
      world = readCount(snapshot?.world) ?? 0;
      proposed = readCount(snapshot?.proposed) ?? 0;
      reruns = readCount(snapshot?.reruns) ?? 0;
      changes = 0;
      changedAt = new Map();
      serviceChanges = new Map();
      successes = readCount(current?.successes) ?? 0;
      doings = readCount(current?.doings) ?? 0;
      const rerun = isRecord(current?.rerun) ? current.rerun : undefined;
      rerunTool = readString(rerun?.tool) ?? '';
      rerunKey = readString(rerun?.key) ?? '';
      firstAsks = readCount(rerun?.firstAsks) ?? 0;
      for (const [tool, digest] of readPairs(current?.lastAnswers, MAX_CALLS)) lastAnswers.set(tool, digest);
      for (const [answer, key] of readPairs(current?.answeredTo, MAX_CALLS)) answeredTo.set(answer, key);
      repeatedAt.clear();
      for (const [tool, repeats] of readEntries(current?.repeatedAt, MAX_CALLS, readRepeatedAt))
        repeatedAt.set(tool, repeats);
      // Changes before the restore are not kept: only repeats nothing had changed are saved, and
      // they stand as of the restore. A repeat of version 1 starts its counts over.
      const read = current === undefined ? readRepeats : readRepeatsWithCounts;
      for (const [key, entry] of readEntries(snapshot?.calls, MAX_CALLS, read)) {
        if (entry.world === world) calls.set(key, { ...entry, since: changes, serviceAt: 0 });
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

function describeNoOpWrite(call: CallContext, entry: Repeats): Violation {
  return {
    ...describe(call, entry, 'block'),
    reason:
      `${call.description} has answered with the same file ${times(entry.count)} in a row, so it writes ` +
      'what the file already holds: it is blocked, since writing it again changes nothing.',
    suggestion: withAlternatives(
      'Read the file to see what it holds, then make a different change or run what depends on it.',
      call.toolPolicy.alternatives,
    ),
  };
}

/**
 * A change of `src/a/b.ts` is a change of what `src/a`, `src` and `.` hold too: an answer about a
 * directory (a search under it, a listing) depends on every file in it.
 */
function stampWithAncestors(changedAt: Map<string, number>, target: string, change: number): void {
  changedAt.set(target, change);
  changedAt.set('.', change);
  for (let end = target.lastIndexOf('/'); end > 0; end = target.lastIndexOf('/', end - 1)) {
    changedAt.set(target.slice(0, end), change);
  }
  if (target.startsWith('/')) changedAt.set('/', change);
}

function describeRevisit(call: CallContext, entry: Repeats, ago: number): Violation {
  const when = Number.isFinite(ago) ? `, last ${ago} calls ago` : '';
  return {
    rule: REVISIT,
    severity: 'block',
    reason:
      `${call.description} has returned the same result ${times(entry.seen)}${when}, and nothing it ` +
      'depends on has changed since, so it is blocked: you already have its answer.',
    suggestion: withAlternatives(
      'Use the answer you already have; ask again only after changing what it depends on.',
      call.toolPolicy.alternatives,
    ),
    evidence: { count: entry.seen, calls: [call.description], lastResult: entry.text },
  };
}

function describeAttempt(call: CallContext, entry: Repeats): Violation {
  if (entry.seen + 1 < ATTEMPT_BLOCK_AT) return describeRefusedAgain(call, entry);
  return {
    rule: NAME,
    severity: 'block',
    reason:
      `${call.description} has returned the same result ${times(entry.seen)} and nothing it ` +
      'depends on has changed since, so it is blocked: running it again will return the same thing.',
    suggestion: withAlternatives(
      'Use the result you already have, or change the arguments or what the call depends on first.',
      call.toolPolicy.alternatives,
    ),
    evidence: { count: entry.seen, calls: [call.description], lastResult: entry.text },
  };
}

function describeGoingOver(call: CallContext, entry: Repeats, repeats: number, window: number): Violation {
  return {
    rule: NAME,
    severity: 'block',
    reason:
      `${call.description} would return what it returned before: nothing has been done since it last ran, ` +
      `and ${repeats} calls of ${call.tool} in the last ${window} came back as they had before, so it ` +
      'is blocked: you are going over answers you already have.',
    suggestion: withAlternatives(
      'Use the answers you already have, or change something (an edit, another approach) before asking again.',
      call.toolPolicy.alternatives,
    ),
    evidence: { count: entry.seen, calls: [call.description], lastResult: entry.text },
  };
}

function describeRefusedAgain(call: CallContext, entry: Repeats): Violation {
  return {
    rule: NAME,
    severity: 'block',
    reason:
      `${call.description} was answered before with what its tool answers other values too, and ` +
      'nothing has been done since, so it is blocked: asking again will get the same answer.',
    suggestion: withAlternatives(
      'Try a value not tried yet, or work out the right one before asking again.',
      call.toolPolicy.alternatives,
    ),
    evidence: { count: entry.seen, calls: [call.description], lastResult: entry.text },
  };
}

function describeStateQuery(call: CallContext, entry: Repeats): Violation {
  return {
    rule: REVISIT,
    severity: 'block',
    reason: isBlindChange(call)
      ? `${call.description} has answered the same ${times(entry.quiet)}, and every call in between ` +
        'failed: the last run changed nothing, so this one is blocked, since it would change nothing again.'
      : `${call.description} has returned the same answer ${times(entry.quiet)}, and every call in ` +
        'between failed, so nothing it asks about has changed: it is blocked, since you already have ' +
        'its answer.',
    suggestion: withAlternatives(
      'Use the answer you already have; ask again once a call has succeeded and changed something.',
      call.toolPolicy.alternatives,
    ),
    evidence: { count: entry.quiet, calls: [call.description], lastResult: entry.text },
  };
}

function describeRerun(call: CallContext, entry: Repeats, reruns: number): Violation {
  return {
    rule: REVISIT,
    severity: 'block',
    reason:
      `${call.description} ran before and nothing it depends on has changed since; the last ${reruns} ` +
      're-runs of earlier queries all returned what they returned before, so this one is blocked: ' +
      'its earlier answer still holds.',
    suggestion: withAlternatives(
      'Use the answers you already have instead of running the same queries again.',
      call.toolPolicy.alternatives,
    ),
    evidence: { count: reruns, calls: [call.description], lastResult: entry.text },
  };
}

function readRepeats(raw: Record<string, unknown>): Repeats | undefined {
  const digest = readString(raw.digest);
  const count = readCount(raw.count);
  const world = readNumber(raw.world);
  if (digest === undefined || count === undefined || count < 1 || world === undefined) return undefined;
  const answeredAt = readNumber(raw.answeredAt);
  return {
    digest,
    count,
    world,
    since: 0,
    targets: Array.isArray(raw.targets) ? raw.targets.filter((target) => typeof target === 'string') : [],
    ...(typeof raw.service === 'string' && { service: raw.service }),
    serviceAt: 0,
    at: readNumber(raw.at) ?? 0,
    ...(answeredAt !== undefined && { answeredAt }),
    text: readString(raw.text) ?? '',
    seen: readCount(raw.seen) ?? count,
    ...(typeof raw.locations === 'string' && { locations: raw.locations }),
    // What succeeded before a restore is not known: a restored answer starts a new streak.
    quiet: 0,
    successesAt: -1,
    ...(raw.showsWrite === true && { showsWrite: true }),
  };
}

/** A tool's repeats as `snapshot` saved them, the latest few. */
function readRepeatedAt(raw: Record<string, unknown>): Repeated[] | undefined {
  if (!Array.isArray(raw.repeats)) return undefined;
  const repeats: Repeated[] = [];
  for (const item of raw.repeats.slice(-MAX_REPEATS_KEPT)) {
    if (!isRecord(item)) continue;
    const at = readCount(item.at);
    const key = readString(item.key);
    if (at !== undefined && key !== undefined) repeats.push({ at, key });
  }
  return repeats.length > 0 ? repeats : undefined;
}

/**
 * A repeat as version 2 saves it: with its standing against the counts of successes and of things
 * done, which are saved beside it.
 */
function readRepeatsWithCounts(raw: Record<string, unknown>): Repeats | undefined {
  const entry = readRepeats(raw);
  if (entry === undefined) return undefined;
  const doingsAt = readCount(raw.doingsAt);
  return {
    ...entry,
    quiet: readCount(raw.quiet) ?? 0,
    successesAt: readCount(raw.successesAt) ?? -1,
    ...(doingsAt !== undefined && { doingsAt }),
  };
}
