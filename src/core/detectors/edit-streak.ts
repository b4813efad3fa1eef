/**
 * Edits of one file failing again and again, one after another, with the agent never looking at the
 * file in between: each failure says the edit does not fit the file as it is, and the next edit is
 * written from the same picture of it. Varied edits often succeed, and a wrongly blocked edit holds
 * up the test runs after it, so by default the rule only steers: from the third such edit on, the
 * agent is told to read the file again. A policy may make it block the fifth, after four failures of
 * one kind in a row (`effect: 'block'`). Anything that shows the file or changes it starts over: a
 * call that succeeds on the file (a read, an edit, a write), a command that names it or may have
 * changed it, a new user message. Identical retries are the identical-failure rule's business; this
 * counts any edit of the file, whatever its arguments, since an edit's text may not even be recorded.
 * Edits that name no file (`edit 12:14` of the file an editor has open) are left alone: the editors
 * that take them answer a refused edit with the file as the edit would have left it, so the agent is
 * not editing blind, and on recorded runs their fifth failing edit was often the one that worked.
 *
 * Edits refused with "read the file first" (the tool's record of the file is stale) count on
 * through reads that showed the file as the read before them did: reading did not cure the refusal
 * and the file did not change, so the tool's view of it is stuck, and the agent is told to write the
 * change another way. Retrying after a read is what such a refusal asks for, so this too only steers
 * unless the policy lets the rule block.
 */
import { hashString } from '../identity/index.js';
import type { Violation } from '../types.js';
import { samePath } from '../world.js';
import { isHarnessFault, isWatched, kindOf } from './applicability.js';
import { LruMap } from './bounded.js';
import { outcomeShape } from './error-shape.js';
import { FileNames, fileName } from './file-names.js';
import { readCount, readEntries, readPairs, readSnapshot, readString, readStrings } from './restore.js';
import type { CallContext, Detector, ObservedOutcome } from './types.js';
import { excerpt } from './wording.js';

const NAME = 'edit-streak';
/** Files with failing edits kept; past this, the oldest are forgotten. */
const MAX_FILES = 64;
const MAX_EVIDENCE_CALLS = 5;
const VERSION = 1;
/** The kind of a refusal that asks for the file to be read first, whatever its wording. */
const READ_FIRST = 'read-first';

interface Streak {
  /** The kind of failure (see `kindOfFailure`): another kind starts the count over. */
  signature: string;
  /** Failed edits of the file in a row, with nothing shown or changed in between. */
  count: number;
  /**
   * Reads of the file within the streak that showed it as the read before did, while its edits were
   * refused until it was read: they cured nothing, so they did not end the streak.
   */
  rereads: number;
  lastError: string;
  calls: string[];
}

export function createEditStreakDetector(): Detector {
  /** By file, as the edits name it. */
  const files = new LruMap<Streak>(MAX_FILES);
  /**
   * The names (last path segments) of the files above, and perhaps of some forgotten since: two
   * spellings of one file end with the same name, so a call on a file whose name is not here shows
   * none of them, without a look at each.
   */
  const names = new FileNames(() => files.keys(), MAX_FILES);
  /** The digest of each file's last successful read, by file as the read named it. */
  const reads = new LruMap<string>(MAX_FILES);

  function remember(target: string, streak: Streak): void {
    names.add(target);
    files.set(target, streak);
  }

  function forgetAll(): void {
    files.clear();
    names.clear();
    reads.clear();
  }

  /**
   * A read of a file whose edits are refused until it is read, that showed it as the read before it
   * did: the streak goes on. True when the read was one such; the read is remembered either way.
   */
  function rereadAsBefore(call: CallContext, outcome: ObservedOutcome): boolean {
    if (kindOf(call) !== 'read' || call.facts.targets.length !== 1) return false;
    const target = call.facts.targets[0] as string;
    const before = reads.peek(target);
    reads.set(target, outcome.resultDigest);
    const streak = files.peek(target);
    if (streak?.signature !== READ_FIRST || before !== outcome.resultDigest) return false;
    streak.rereads++;
    return true;
  }

  /** Forgets the streaks of every file `target` may be (`src/a.ts`, `/repo/src/a.ts`). */
  function shown(target: string): void {
    if (names.holdsNameOf(target)) forgetWhere(samePath, target);
  }

  /**
   * Forgets the files for which `matches(file, given)` holds. The keys are read in place and the
   * few files to forget deleted afterwards: most successful calls forget none, and a copy of every
   * entry on each of them was most of this rule's cost.
   */
  function forgetWhere(matches: (file: string, given: string) => boolean, given: string): void {
    let gone: string[] | undefined;
    for (const file of files.keys()) {
      if (!matches(file, given)) continue;
      if (gone === undefined) gone = [file];
      else gone.push(file);
    }
    if (gone !== undefined) for (const file of gone) files.delete(file);
  }

  return {
    name: NAME,

    check(call: CallContext): Violation | undefined {
      const limits = call.toolPolicy.detectors.editStreak;
      if (files.size === 0 || !isWatched(call, limits)) return undefined;
      const target = editedFile(call);
      if (target === undefined) return undefined;
      const streak = files.peek(target);
      if (streak === undefined) return undefined;
      const proposal = streak.count + 1;
      const severity = limits.effect === 'block' && proposal >= limits.blockAt ? 'block' : 'warn';
      if (proposal < limits.warnAt && severity === 'warn') return undefined;
      return describe(call, target, streak, severity);
    },

    observe(call: CallContext, outcome: ObservedOutcome): void {
      if (isHarnessFault(outcome)) return;
      if (!outcome.success) {
        const target = editedFile(call);
        if (target === undefined || outcome.failure === undefined) return;
        const signature = kindOfFailure(outcome);
        const before = files.peek(target);
        const streak =
          before !== undefined && before.signature === signature
            ? before
            : { signature, count: 0, rereads: 0, lastError: '', calls: [] };
        streak.count++;
        streak.lastError = outcome.text;
        streak.calls = [...streak.calls, call.description].slice(-MAX_EVIDENCE_CALLS);
        remember(target, streak);
        return;
      }
      if (rereadAsBefore(call, outcome) || files.size === 0) return;
      // A success on the file shows it to the agent, or changes it: a read, an edit, a write.
      for (const target of call.facts.targets) shown(target);
      if (kindOf(call) !== 'exec') return;
      // A command may have changed any file, and one that names the file shows it (`cat a.md`).
      if (outcome.changedWorld && !call.facts.leavesSourcesAlone) {
        forgetAll();
        return;
      }
      const command = call.facts.targets[0] ?? '';
      // Most commands name none of the files: their names are looked for once, not once per file.
      if (names.mayNameIn(command)) forgetWhere(namedIn, command);
    },

    reset(): void {
      // Between user messages, the file may be edited by hand.
      forgetAll();
    },

    snapshot(): unknown {
      return { version: VERSION, files: files.entries(), reads: reads.entries() };
    },

    restore(state: unknown): void {
      forgetAll();
      const snapshot = readSnapshot(state, VERSION);
      for (const [file, streak] of readEntries(snapshot?.files, MAX_FILES, readStreak))
        remember(file, streak);
      for (const [file, digest] of readPairs(snapshot?.reads, MAX_FILES)) reads.set(file, digest);
    },
  };
}

/**
 * The kind of an edit's failure: its signature, when the adapter read one that says the same edit
 * fails the same way again; otherwise (a refusal no rule recognised: a validator's, a hook's, an
 * editor's bare "failed") also the shape of its text, so that refusals of different kinds in a row
 * are not counted as one.
 */
function kindOfFailure(outcome: ObservedOutcome): string {
  const failure = outcome.failure as NonNullable<ObservedOutcome['failure']>;
  // "Modified since read" from an edit and "not read yet" from a write ask for the same cure.
  if (failure.curedByReading === true) return READ_FIRST;
  if (failure.deterministic) return failure.signature;
  return `${failure.signature} ${hashString(outcomeShape(outcome))}`;
}

/** The file an edit changes, when it names one: a search-and-replace, a patch, a write over it. */
function editedFile(call: CallContext): string | undefined {
  const kind = kindOf(call);
  if (kind !== 'mutate' && kind !== 'create') return undefined;
  return call.facts.targets.length === 1 ? call.facts.targets[0] : undefined;
}

/** Whether `command` names the file (`cat a.md` names `docs/a.md`). */
function namedIn(file: string, command: string): boolean {
  return command.includes(fileName(file));
}

function describe(call: CallContext, target: string, streak: Streak, severity: 'warn' | 'block'): Violation {
  const words = streak.rereads > 0 ? stuckWords(call, target, streak) : failedWords(call, target, streak);
  return {
    rule: NAME,
    severity,
    reason: severity === 'block' ? words.blocked : words.likely,
    suggestion: words.suggestion,
    evidence: { count: streak.count, calls: streak.calls, target, lastError: excerpt(streak.lastError) },
  };
}

/** What a streak's warning or block says: the call blocked, the call likely to fail, what to do. */
interface StreakWords {
  readonly blocked: string;
  readonly likely: string;
  readonly suggestion: string;
}

/** A streak of edits that failed with no read or change of the file in between. */
function failedWords(call: CallContext, target: string, streak: Streak): StreakWords {
  const how = streak.signature === READ_FIRST ? 'a refusal until the file is read' : streak.signature;
  const seen =
    `${streak.count} edits of ${target} in a row have failed with ${how} ` +
    `(the last: "${excerpt(streak.lastError)}"), and ${target} has not been read or changed since`;
  return {
    blocked: `${seen}: ${call.description}, written from the same picture of the file, is blocked.`,
    likely: `${seen}; ${call.description}, written from the same picture of the file, is likely to fail too.`,
    suggestion: `Read ${target} again and write the edit from what it holds now, or replace the whole file.`,
  };
}

/** A streak of edits refused until the file is read, through reads that showed it unchanged. */
function stuckWords(call: CallContext, target: string, streak: Streak): StreakWords {
  const seen =
    `${streak.count} edits of ${target} in a row were refused until the file is read ` +
    `(the last: "${excerpt(streak.lastError)}"), and each read in between showed it unchanged: ` +
    'reading it again does not get an edit through';
  return {
    blocked: `${seen}, so ${call.description} is blocked.`,
    likely: `${seen}, and ${call.description} is likely to be refused too.`,
    suggestion:
      `The tool's record of ${target} is stuck: write the change another way (a command that edits ` +
      'the file), or tell the user what keeps refusing it.',
  };
}

function readStreak(raw: Record<string, unknown>): Streak | undefined {
  const signature = readString(raw.signature);
  const count = readCount(raw.count);
  if (signature === undefined || count === undefined || count === 0) return undefined;
  return {
    signature,
    count,
    rereads: readCount(raw.rereads) ?? 0,
    lastError: readString(raw.lastError) ?? '',
    calls: readStrings(raw.calls, MAX_EVIDENCE_CALLS),
  };
}
