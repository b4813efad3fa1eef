/**
 * One tool failing the same way again and again while the agent varies its arguments: guessing
 * paths, ids or flags instead of finding out. "The same way" is the error's shape (its whole text
 * with values masked), so one error in several wordings of its values is one; a command's guesses
 * are counted per program and subcommand (`cargo build`). Identical retries are the
 * identical-failure rule's business; this counts the distinct calls in a streak. A success of the
 * tool ends the streak, and so does any change to the world, which may be what the next guess was
 * waiting for, and any failure of another shape, whoever is to blame for it: the tool answers
 * otherwise now. A failure of unknown blame is never counted as a guess, and a call that succeeded
 * earlier in the session is never blocked as one: it is a value the agent knows works. Edits, the
 * changes that write text into a file, are never judged here: varied edit guesses often succeed.
 * Other changes are (a pull request opened with one guessed branch after another, a click on one
 * guessed element after another): each refused alike says the next guess is one too. A guess that
 * changes a word every guess of the streak kept alike in one of its arguments (`go to toaster 1`
 * after `go to stoveburner 5` … `16`) tries what none of them did: it is only warned.
 */

import { provesAgentFault } from '../blame-proof.js';
import { hashString } from '../identity/index.js';
import { namesLookedUp, onlyLooks } from '../subject-lookup.js';
import type { VerdictKind, Violation } from '../types.js';
import { ViolationWrittenOnRead } from '../written-on-read.js';
import { isHarnessFault, isWatched, kindOf } from './applicability.js';
import { LruMap } from './bounded.js';
import { deferredShape, mergedShape, outcomeShape } from './error-shape.js';
import {
  isHash,
  readCount,
  readEntries,
  readNumber,
  readSnapshot,
  readString,
  readStrings,
} from './restore.js';
import type { CallContext, Detector, ObservedOutcome } from './types.js';
import { sharesWord, wordHashes } from './word-hashes.js';
import { laterQuote, type PendingQuote, withAlternatives, withQuotedError } from './wording.js';

const NAME = 'error-streak';
/** What the streak key of every command that fetches one kind of operand counts its guesses under. */
const GUESSES_OF = '\u0000guesses of ';
const MAX_TOOLS = 1_000;
/** Enough recent keys to tell a new guess from a retry; older keys are forgotten. */
const MAX_KEYS_PER_STREAK = 32;
const MAX_EVIDENCE_CALLS = 5;
/** Calls remembered as having succeeded: a session's worth of distinct calls. */
const MAX_WORKED = 1_000;
const VERSION = 1;

/**
 * Guesses refused in a row before one is let through to see whether the world now answers it: the
 * agent's next guesses may follow what it found out meanwhile (a search, a page it read), and only a
 * guess that runs can show it. The interval doubles after each guess let through that failed again.
 */
const FIRST_PROBE_AFTER = 2;
const MAX_PROBE_AFTER = 64;

/** Names a streak keeps of what looking calls showed since it began; the latest are kept. */
const MAX_SHOWN_NAMES = 256;
/** Characters of a looking call's answer read for the names it shows. */
const SHOWN_CHARS = 4_000;

/** The shape of every failure of a program not found, whichever name was tried. */
const PROGRAM_NOT_FOUND = '<program> not found';
/** Words a run of missing programs keeps, and tools whose runs are kept. */
const MAX_PROGRAM_WORDS = 32;
const MAX_MISSING_RUNS = 64;

/**
 * Programs a tool's shell did not find, one after another: names that share a word (`apply_patch`,
 * `codex-apply-patch`, `~/.codex/bin/apply_patch`) are guesses at one program's name, a streak of
 * their own whichever name each guess tried.
 */
interface MissingPrograms {
  /** The words of the names tried, by their hashes. */
  readonly words: Set<string>;
  /** Tells this run's streak from an earlier run's of the same tool. */
  readonly id: number;
  readonly world: number;
}

/** Failing to find things that are absent is exploration, not a loop: such streaks only warn. */
const WARN_ONLY_SIGNATURES: ReadonlySet<string> = new Set(['empty_result']);

/** With its last error quoted only when a reason or a snapshot needs it: most streaks never block. */
interface Streak extends PendingQuote {
  signature: string;
  /** The masked shape of the streak's error: a failure of another shape starts a new streak. */
  shape: string;
  /**
   * Shapes the streak's error into `shape` when it is first compared or saved: most streaks end (a
   * success, a change) before their tool fails again, and shaping costs more than the rest of noting.
   */
  pendingShape: (() => string) | undefined;
  /**
   * Distinct calls that failed with `signature`, in a row for this tool; calls issued together in one
   * model step count once, since none of them saw the others fail.
   */
  distinct: number;
  /** The model step of the streak's last guess, when the host said which step issued it. */
  step?: string | number;
  keys: string[];
  calls: string[];
  world: number;
  /**
   * A call of the streak asked again and failing alike, nothing having changed in between: an
   * agent asking again what it knows is absent is no longer exploring.
   */
  reasked?: boolean;
  /**
   * Each argument every guess of the streak gave, with the words of its value (see `valueWords`): a
   * word kept where every guess had it at that place, `null` where they differed.
   */
  held?: Record<string, (string | null)[]>;
  /** Whether `held` holds the words' hashes, as a saved streak does, rather than the words. */
  heldHashed?: boolean;
  /**
   * The arguments of the guesses not yet read into `held`, read when a guess is judged or the streak
   * is saved: most streaks end before either (at most `MAX_UNREAD_GUESSES` wait).
   */
  unreadGuesses?: Readonly<Record<string, unknown>>[] | undefined;
  /** Guesses of the streak refused since one was last let through (see `FIRST_PROBE_AFTER`). */
  refused?: number;
  /** How many refused guesses in a row let the next one through; doubles each time. */
  probeAfter?: number;
  /**
   * File names a call that only looks showed since the streak began (a listing, a search), less
   * those a guess of the streak has tried since: a guess naming one of them follows what the agent
   * found out, and is no longer a guess.
   */
  shown?: string[];
  /**
   * Answers of looks made since the names were last read, read only when the streak needs its names
   * (a guess to judge, a failure to take off, a snapshot): most looks come and go with no guess after.
   */
  looks?: Look[];
}

/** A looking call's answer, shared by the streaks it showed names to; its names are read once. */
interface Look {
  readonly text: string;
  names?: readonly string[];
}

/** Looks a streak keeps unread; past this, it reads them. */
const MAX_UNREAD_LOOKS = 32;

/** Adds the names of the looks a streak has not read yet to those it keeps. */
function readLooks(streak: Streak): void {
  const looks = streak.looks;
  if (looks === undefined) return;
  delete streak.looks;
  for (const look of looks) {
    // Paths are read segment by segment: a search's `./logs/app.log` shows `app.log`.
    look.names ??= [...namesLookedUp(look.text.replace(/\//g, ' '))];
    if (look.names.length === 0) continue;
    streak.shown = [...new Set([...(streak.shown ?? []), ...look.names])].slice(-MAX_SHOWN_NAMES);
  }
}

/**
 * What tells one guess from another: the call, less the words about it the adapter left out of its
 * failure key (a reworded description), since the streak's failures are alike; unless the failure
 * was about those words.
 */
function guessKey(call: CallContext, aboutTheWholeCall: boolean): string {
  const { failureKey, failureKeyLeavesOutWords } = call.facts;
  return failureKeyLeavesOutWords === true && failureKey !== undefined && !aboutTheWholeCall
    ? failureKey
    : call.identity.callKey;
}

export function createErrorStreakDetector(): Detector {
  const tools = new LruMap<Streak>(MAX_TOOLS);
  let world = 0;
  /** Keys of the streaks begun in this world: the others are stale, and a look shows them nothing. */
  const live = new Set<string>();
  /** The call `check` last blocked as a guess of a streak: that block is the streak's own. */
  let judged: CallContext | undefined;
  /** Whether `judged` was a guess let through to probe rather than blocked. */
  let probing = false;
  /**
   * Calls that succeeded in this session, by call key: one of them proposed again is a value the
   * agent knows works (`turn faucet` between refused verbs), not a guess at one.
   */
  const worked = new LruMap<true>(MAX_WORKED);
  /** Each tool's run of programs its shell did not find, in this world. */
  const missing = new LruMap<MissingPrograms>(MAX_MISSING_RUNS);
  let runs = 0;
  /**
   * The words of the program last looked at: a call's streak key is read at its check, its outcome
   * and after its verdict, each time the same program.
   */
  let named: { readonly program: string; readonly words: Set<string> } | undefined;

  function wordsOf(program: string): Set<string> {
    if (named?.program !== program) named = { program, words: programWords(program) };
    return named.words;
  }

  /**
   * Guesses are counted per tool, and for a command per program and subcommand; a program whose
   * name shares a word with those of the tool's run of missing programs is a guess of that run.
   */
  function streakKey(call: CallContext): string {
    const program = call.facts.program;
    if (program === undefined) return call.tool;
    if (missing.size > 0) {
      const run = missing.peek(call.tool);
      if (run !== undefined && run.world === world && sharesWord(wordsOf(program), run.words))
        return `${call.tool}\u0000missing program ${run.id}`;
    }
    return `${call.tool}\u0000${program}`;
  }

  /**
   * Where a command that fetches one kind of operand counts one that is not there: one run of guesses
   * whatever program fetched it (`cat`, `sed -n`, `head` a path; `curl`, `wget` an address), as an
   * operand guessed through another is the same guess. Its other failures are its program's.
   */
  function operandGuessesKey(call: CallContext): string | undefined {
    const kind = call.facts.operandKind;
    return kind === undefined ? undefined : `${call.tool}${GUESSES_OF}${kind}`;
  }

  /** The streak under `key`, when it is of this world. */
  function liveAt(key: string): Streak | undefined {
    const streak = tools.peek(key);
    return streak && streak.world === world ? streak : undefined;
  }

  /** The key of the streak a call continues: the run of guessed operands where one is going, else its program's. */
  function currentKey(call: CallContext): string {
    const operandGuesses = operandGuessesKey(call);
    return operandGuesses !== undefined && liveAt(operandGuesses) !== undefined
      ? operandGuesses
      : streakKey(call);
  }

  /** A program its shell did not find: a guess of the tool's run when it shares a word with it. */
  function noteMissingProgram(call: CallContext): void {
    const program = call.facts.program;
    if (program === undefined) return;
    const words = wordsOf(program);
    if (words.size === 0) return;
    const run = missing.peek(call.tool);
    if (run !== undefined && run.world === world && sharesWord(words, run.words)) {
      for (const word of words) if (run.words.size < MAX_PROGRAM_WORDS) run.words.add(word);
      return;
    }
    // A copy: the run's words grow, the memo's stay the program's.
    missing.set(call.tool, { words: new Set(words), id: ++runs, world });
  }

  function current(call: CallContext): Streak | undefined {
    return liveAt(currentKey(call));
  }

  /** A call that only looks succeeded: the names it showed go to every streak of this world. */
  function noteShown(call: CallContext, outcome: ObservedOutcome): void {
    const mine = streakKey(call);
    let look: Look | undefined;
    for (const key of live) {
      const streak = tools.peek(key);
      if (streak === undefined || streak.world !== world) {
        live.delete(key);
        continue;
      }
      if (key === mine) continue;
      look ??= { text: outcome.content.slice(0, SHOWN_CHARS) };
      streak.looks ??= [];
      streak.looks.push(look);
      if (streak.looks.length > MAX_UNREAD_LOOKS) readLooks(streak);
    }
  }

  return {
    name: NAME,

    check(call: CallContext): Violation | undefined {
      judged = undefined;
      probing = false;
      const limits = call.toolPolicy.detectors.errorStreak;
      if (!isWatched(call, limits) || isEdit(call)) return undefined;
      const streak = current(call);
      if (!streak || worked.peek(call.identity.callKey) !== undefined) return undefined;
      const proposal = streak.distinct + 1;
      if (
        proposal >= limits.blockAt &&
        limits.effect === 'block' &&
        (!WARN_ONLY_SIGNATURES.has(streak.signature) || streak.reasked === true)
      ) {
        if (followsWhatWasShown(call, streak) || !keepsWhatWasHeld(call, streak))
          return describe(call, streak, 'warn');
        judged = call;
        // A new guess after enough refused in a row runs, steered: what it answers is evidence.
        probing =
          !streak.keys.includes(guessKey(call, false)) &&
          (streak.refused ?? 0) >= (streak.probeAfter ?? FIRST_PROBE_AFTER);
        return describe(call, streak, probing ? 'warn' : 'block');
      }
      if (proposal >= limits.warnAt) return describe(call, streak, 'warn');
      return undefined;
    },

    observe(call: CallContext, outcome: ObservedOutcome): void {
      if (isHarnessFault(outcome)) return;
      // Streaks from before a change are left to go stale rather than cleared, to stay O(1).
      if (outcome.changedWorld) {
        world++;
        live.clear();
      }
      if (outcome.success && live.size > 0 && onlyLooks(call.facts)) noteShown(call, outcome);
      if (!isWatched(call, call.toolPolicy.detectors.errorStreak) || isEdit(call)) return;
      if (outcome.failure?.programMissing === true && provesAgentFault(outcome.failure))
        noteMissingProgram(call);
      const operandGuesses = operandGuessesKey(call);
      if (outcome.success) {
        worked.set(call.identity.callKey, true);
        // A program that fetches what its operand names fetched it: the run of guesses is over.
        for (const key of new Set([streakKey(call), currentKey(call)])) {
          tools.delete(key);
          live.delete(key);
        }
        return;
      }
      const failure = outcome.failure;
      const at =
        operandGuesses !== undefined && failure?.missesOperand === true ? operandGuesses : streakKey(call);
      const streak = liveAt(at);
      if (!provesAgentFault(failure)) {
        // Unknown blame is no evidence against the agent, so never a guess; but a failure of
        // another shape shows the tool answering otherwise now, and the guesses in a row are over.
        if (streak !== undefined && mergedShape(outcomeShape(outcome), shapeOfStreak(streak)) === undefined) {
          tools.delete(at);
          live.delete(at);
        }
        return;
      }
      const key = guessKey(call, failure.dependsOnWholeCall === true);
      // A program not found is one failure whatever the name tried: the name is the guess. Any other
      // failure is shaped only when a streak waits to be compared with it.
      const shape =
        failure.programMissing === true
          ? PROGRAM_NOT_FOUND
          : streak === undefined
            ? undefined
            : outcomeShape(outcome);
      // Each program words a missing operand its own way (`cat: x: No such file…`, `sed: can't read
      // x: …`, `curl: (22) … error: 404`, wget's `ERROR 404: Not Found.`): the same answer, whatever the words.
      const alike =
        streak === undefined || shape === undefined
          ? undefined
          : at === operandGuesses
            ? shapeOfStreak(streak)
            : mergedShape(shapeOfStreak(streak), shape);
      if (!streak || shape === undefined || alike === undefined) {
        tools.set(at, {
          signature: failure.signature,
          shape: shape ?? '',
          pendingShape: shape === undefined ? deferredShape(outcome) : undefined,
          distinct: 1,
          keys: [key],
          calls: [call.description],
          lastError: '',
          pendingError: outcome.text,
          world,
          ...(call.step !== undefined && { step: call.step }),
          ...(keptUnread(call.args) ? { unreadGuesses: [call.args] } : { held: argumentWords(call.args) }),
        });
        live.add(at);
        return;
      }
      streak.shape = alike;
      streak.pendingError = outcome.text;
      readLooks(streak);
      if (streak.shown !== undefined) {
        const tried = guessedNames(call);
        streak.shown = streak.shown.filter((name) => !tried.has(name));
      }
      if (!streak.keys.includes(key)) {
        // Guesses issued at once are one guess: the agent chose them all before any answered.
        if (call.step === undefined || call.step !== streak.step) streak.distinct++;
        if (call.step !== undefined) streak.step = call.step;
        else delete streak.step;
        streak.keys = [...streak.keys, key].slice(-MAX_KEYS_PER_STREAK);
        holdAlso(streak, call.args);
        streak.calls = [...streak.calls, call.description].slice(-MAX_EVIDENCE_CALLS);
      } else {
        streak.reasked = true;
      }
      tools.set(at, streak);
    },

    afterCheck(call: CallContext, verdict: VerdictKind): void {
      const own = judged === call;
      const probed = own && probing;
      judged = undefined;
      probing = false;
      const refused = verdict === 'block' || verdict === 'halt';
      if (own) {
        const streak = current(call);
        if (!streak) return;
        if (refused) streak.refused = (streak.refused ?? 0) + 1;
        else if (probed) {
          streak.refused = 0;
          streak.probeAfter = Math.min(MAX_PROBE_AFTER, 2 * (streak.probeAfter ?? FIRST_PROBE_AFTER));
        }
        return;
      }
      if (!refused) return;
      const at = currentKey(call);
      const streak = liveAt(at);
      // A call of the streak's tool blocked by another rule, not one of the streak's guesses, is
      // one the agent goes back to between guesses (a script that worked, run again): the record
      // of the guesses in a row is broken, as a success of it would have broken it.
      if (
        streak &&
        !streak.keys.includes(guessKey(call, false)) &&
        !streak.keys.includes(call.identity.callKey)
      )
        tools.delete(at);
    },

    reset(reason): void {
      tools.clear();
      live.clear();
      missing.clear();
      if (reason === 'session') worked.clear();
    },

    snapshot(): unknown {
      const kept = tools
        .entries()
        .filter(([, streak]) => streak.world === world)
        .map(([tool, streak]) => {
          shapeOfStreak(streak);
          readLooks(streak);
          const held = heldOf(streak);
          const {
            pendingShape: _shaped,
            unreadGuesses: _unread,
            heldHashed: _hashed,
            ...saved
          } = withQuotedError(streak);
          // Words are saved by their hashes: an argument may hold a secret.
          if (held !== undefined) saved.held = streak.heldHashed === true ? held : hashedWords(held);
          return [tool, saved] as const;
        });
      const runsKept = missing
        .entries()
        .filter(([, run]) => run.world === world)
        .map(([tool, run]) => [tool, { words: [...run.words], id: run.id }] as const);
      return {
        version: VERSION,
        world,
        tools: kept,
        worked: worked.entries().map(([key]) => key),
        missing: runsKept,
        runs,
      };
    },

    restore(state: unknown): void {
      tools.clear();
      const snapshot = readSnapshot(state, VERSION);
      world = readCount(snapshot?.world) ?? 0;
      live.clear();
      worked.clear();
      for (const key of readStrings(snapshot?.worked, MAX_WORKED)) worked.set(key, true);
      for (const [tool, streak] of readEntries(snapshot?.tools, MAX_TOOLS, readStreak)) {
        if (streak.world !== world) continue;
        tools.set(tool, streak);
        live.add(tool);
      }
      missing.clear();
      runs = readCount(snapshot?.runs) ?? 0;
      for (const [tool, run] of readEntries(snapshot?.missing, MAX_MISSING_RUNS, readMissingPrograms)) {
        missing.set(tool, { ...run, world });
        runs = Math.max(runs, run.id);
      }
    },
  };
}

function describe(call: CallContext, streak: Streak, severity: 'warn' | 'block'): Violation {
  // What the streak holds now: it goes on changing after the check, the words are written later.
  const { distinct, signature, calls, reasked } = streak;
  const lastError = laterQuote(streak);
  const names = streak.shape === PROGRAM_NOT_FOUND;
  const suggestion = WARN_ONLY_SIGNATURES.has(signature)
    ? 'If what you are looking for may not exist, say so instead of trying more variations.'
    : names
      ? "Stop guessing the program's name: list what is installed (the folder you expect it in, the commands the shell knows), or take another approach."
      : 'Stop guessing: list or search the valid values first (list the directory, search for the id, read the help or the schema), or take another approach.';
  return new ViolationWrittenOnRead(
    NAME,
    severity,
    () => {
      const seen =
        `${call.tool} has failed ${distinct} times in a row with ${signature}, ` +
        (names
          ? `each time running a program the shell did not find, under another name (last error: ${lastError()})`
          : `each time with different arguments (last error: ${lastError()})`) +
        (reasked === true ? ', and one was asked again with nothing changed in between' : '');
      return severity === 'block'
        ? `${seen}, so further guesses are blocked until something changes.`
        : `${seen}; another guess is unlikely to go differently.`;
    },
    withAlternatives(suggestion, call.toolPolicy.alternatives),
    () => ({ count: distinct, calls, lastError: lastError(), signature }),
  );
}

/** Arguments, and words and characters of one argument's value, read for what guesses keep alike. */
const MAX_HELD_FIELDS = 16;
const MAX_HELD_WORDS = 32;
const HELD_CHARS = 1_000;
const WORD_BREAKS = /[\s"'`{}()[\],:;=]+/;
/** Guesses whose arguments wait to be read into what the streak's guesses kept alike. */
const MAX_UNREAD_GUESSES = 8;
/** Characters of a guess's arguments kept to be read later; longer ones are read at once. */
const MAX_UNREAD_CHARS = 4_000;

/** Whether a guess's arguments are short and flat enough to keep until they are read. */
function keptUnread(args: Readonly<Record<string, unknown>>): boolean {
  let chars = 0;
  for (const value of Object.values(args)) {
    if (typeof value === 'string') chars += value.length;
    else if (value !== null && typeof value === 'object') return false;
    if (chars > MAX_UNREAD_CHARS) return false;
  }
  return true;
}

/**
 * The words of an argument's value in order, those of values nested in it included (their fields by
 * name, so that fields written in another order keep their places), at most `MAX_HELD_WORDS` words
 * of its first `HELD_CHARS` characters.
 */
function valueWords(value: unknown): string[] {
  const words: string[] = [];
  let chars = 0;
  const add = (text: string): void => {
    const taken = text.slice(0, HELD_CHARS - chars).toLowerCase();
    chars += taken.length;
    for (const word of taken.split(WORD_BREAKS)) {
      if (word !== '' && words.length < MAX_HELD_WORDS) words.push(word);
    }
  };
  const visit = (item: unknown, depth: number): void => {
    if (words.length >= MAX_HELD_WORDS || chars >= HELD_CHARS) return;
    if (typeof item === 'string') add(item);
    else if (typeof item === 'number' || typeof item === 'boolean') add(String(item));
    else if (typeof item !== 'object' || item === null || depth >= 4) return;
    else if (Array.isArray(item)) for (const inner of item.slice(0, MAX_HELD_WORDS)) visit(inner, depth + 1);
    else
      for (const key of Object.keys(item).sort().slice(0, MAX_HELD_WORDS)) {
        add(key);
        visit((item as Record<string, unknown>)[key], depth + 1);
      }
  };
  visit(value, 0);
  return words;
}

/** The words of each of a call's arguments, the first `MAX_HELD_FIELDS` by name. */
function argumentWords(args: Readonly<Record<string, unknown>>): Record<string, (string | null)[]> {
  // No prototype: an argument named `__proto__` is a field like any other.
  const fields: Record<string, (string | null)[]> = Object.create(null);
  for (const name of Object.keys(args).sort().slice(0, MAX_HELD_FIELDS)) {
    fields[name] = valueWords(args[name]);
  }
  return fields;
}

/** The words a guess gives in one argument, as the streak holds them (hashed for a saved streak). */
function givenWords(
  streak: Streak,
  args: Readonly<Record<string, unknown>>,
  name: string,
): string[] | undefined {
  if (!Object.hasOwn(args, name)) return undefined;
  const words = valueWords(args[name]);
  return streak.heldHashed === true ? words.map((word) => hashString(word)) : words;
}

function hashedWords(held: Record<string, (string | null)[]>): Record<string, (string | null)[]> {
  const hashed: Record<string, (string | null)[]> = Object.create(null);
  for (const [name, words] of Object.entries(held)) {
    hashed[name] = words.map((word) => (word === null ? null : hashString(word)));
  }
  return hashed;
}

/**
 * A guess joins the streak: a word it does not have where the others had it varies from now on, and
 * an argument it does not give is no longer one they all gave.
 */
function holdAlso(streak: Streak, args: Readonly<Record<string, unknown>>): void {
  if (streak.unreadGuesses !== undefined) {
    // Read later, all at once: past a few waiting, or for arguments too long to keep, now.
    if (keptUnread(args) && streak.unreadGuesses.length < MAX_UNREAD_GUESSES) {
      streak.unreadGuesses.push(args);
      return;
    }
    heldOf(streak);
  }
  const held = streak.held;
  if (held === undefined) return;
  let kept = false;
  for (const [name, words] of Object.entries(held)) {
    const own = givenWords(streak, args, name);
    const still =
      own === undefined
        ? []
        : words.map((word, index) => (word !== null && own[index] === word ? word : null));
    // An argument whose every word varies keeps nothing: it is dropped, and a streak that keeps
    // nothing anywhere drops them all, so that its later guesses are judged at no cost.
    if (still.some((word) => word !== null)) {
      held[name] = still;
      kept = true;
    } else delete held[name];
  }
  if (!kept) delete streak.held;
}

/**
 * Whether a guess keeps every word the streak's guesses all kept, in each argument they all gave:
 * one that changes such a word (`go to toaster 1` after `go to stoveburner 5` … `16`) tries what
 * none of them did, and their failures are no evidence about it. An argument added or left out, or
 * words added after the others, change nothing kept: the same attempt written otherwise.
 */
function keepsWhatWasHeld(call: CallContext, streak: Streak): boolean {
  const held = heldOf(streak);
  if (held === undefined) return true;
  for (const [name, words] of Object.entries(held)) {
    const own = givenWords(streak, call.args, name);
    if (own === undefined) continue;
    for (const [index, word] of words.entries()) {
      if (word !== null && index < own.length && own[index] !== word) return false;
    }
  }
  return true;
}

function heldOf(streak: Streak): Record<string, (string | null)[]> | undefined {
  const unread = streak.unreadGuesses;
  if (unread !== undefined) {
    streak.unreadGuesses = undefined;
    const [first, ...rest] = unread;
    if (first !== undefined) {
      streak.held = argumentWords(first);
      for (const args of rest) holdAlso(streak, args);
    }
  }
  return streak.held;
}

function shapeOfStreak(streak: Streak): string {
  if (streak.pendingShape !== undefined) {
    streak.shape = streak.pendingShape();
    streak.pendingShape = undefined;
  }
  return streak.shape;
}

/**
 * The file names a call's targets name: the last part of every path, and words that read as a
 * file's name (`notes.txt`), not options and not the program the command runs.
 */
function guessedNames(call: CallContext): Set<string> {
  const names = new Set<string>();
  const program = call.facts.program?.split(' ')[0];
  for (const target of call.facts.targets) {
    for (const token of target
      .slice(0, SHOWN_CHARS)
      .toLowerCase()
      .split(/[\s'"`,;()[\]{}|&<>=]+/)) {
      if (token.startsWith('-')) continue;
      const slash = token.lastIndexOf('/');
      const name = (slash < 0 ? token : token.slice(slash + 1)).replace(/[.:]+$/, '');
      if (name.length < 3 || !/[a-z]/.test(name) || name === program) continue;
      if (slash >= 0 || name.includes('.')) names.add(name);
    }
  }
  return names;
}

/** Whether the guess names a file a look since the streak began showed, and no guess has tried since. */
function followsWhatWasShown(call: CallContext, streak: Streak): boolean {
  readLooks(streak);
  if (streak.shown === undefined || streak.shown.length === 0) return false;
  const shown = new Set(streak.shown);
  for (const name of guessedNames(call)) if (shown.has(name)) return true;
  return false;
}

/**
 * The words of the name of the program a command runs (not its subcommand), by their hashes (see
 * `word-hashes.ts`: four letters or more leave out what many names share, `bin`, `run`, `app`).
 */
function programWords(program: string): Set<string> {
  const space = program.indexOf(' ');
  return wordHashes((space < 0 ? program : program.slice(0, space)).slice(0, 256), MAX_PROGRAM_WORDS);
}

function readMissingPrograms(raw: Record<string, unknown>): Omit<MissingPrograms, 'world'> | undefined {
  const id = readCount(raw.id);
  const words = readStrings(raw.words, MAX_PROGRAM_WORDS).filter(isHash);
  return id === undefined || words.length === 0 ? undefined : { id, words: new Set(words) };
}

/**
 * A change that writes text into a file (a search-and-replace edit, a patch, a whole-file write):
 * judged only when its arguments and error repeat.
 */
function isEdit(call: CallContext): boolean {
  const kind = kindOf(call);
  if (kind !== 'mutate' && kind !== 'create') return false;
  const facts = call.facts;
  return (
    facts.writtenText !== undefined ||
    facts.searchTexts !== undefined ||
    facts.replacesTarget === true ||
    facts.replacesLinesInPlace === true
  );
}

function readStreak(raw: Record<string, unknown>): Streak | undefined {
  const signature = readString(raw.signature);
  const distinct = readCount(raw.distinct);
  const world = readNumber(raw.world);
  if (signature === undefined || distinct === undefined || distinct < 1 || world === undefined) {
    return undefined;
  }
  return {
    signature,
    shape: readString(raw.shape) ?? '',
    pendingShape: undefined,
    distinct,
    keys: readStrings(raw.keys, MAX_KEYS_PER_STREAK),
    calls: readStrings(raw.calls, MAX_EVIDENCE_CALLS),
    lastError: readString(raw.lastError) ?? '',
    pendingError: undefined,
    world,
    ...(raw.reasked === true && { reasked: true }),
    ...((typeof raw.step === 'string' || typeof raw.step === 'number') && { step: raw.step }),
    ...(readCount(raw.refused) !== undefined && { refused: readCount(raw.refused) }),
    ...(readCount(raw.probeAfter) !== undefined && { probeAfter: readCount(raw.probeAfter) }),
    ...(Array.isArray(raw.shown) && { shown: readStrings(raw.shown, MAX_SHOWN_NAMES) }),
    ...readHeld(raw),
  };
}

/** What a saved streak's guesses kept alike; nothing when it cannot be read, so that none is let through on it. */
function readHeld(raw: Record<string, unknown>): Pick<Streak, 'held' | 'heldHashed'> {
  const held = raw.held;
  if (typeof held !== 'object' || held === null || Array.isArray(held)) return {};
  const entries = Object.entries(held);
  if (entries.length > MAX_HELD_FIELDS) return {};
  // No prototype: an argument named `__proto__` is a field like any other.
  const fields: Record<string, (string | null)[]> = Object.create(null);
  for (const [name, words] of entries) {
    if (!Array.isArray(words) || words.length > MAX_HELD_WORDS) return {};
    if (!words.every((word) => word === null || isHash(word))) return {};
    fields[name] = words as (string | null)[];
  }
  return { held: fields, heldHashed: true };
}
