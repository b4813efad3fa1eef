/**
 * Edits guessed at a file the agent has not looked at. A search-and-replace edit needs the file's
 * exact text; an agent that has not read the file can only guess it. Once guesses at one unread
 * file have come back "not found" twice, with nothing changing the file in between, the next guess
 * is blocked until the agent reads it (or anything shows it the file: a command naming it, a
 * successful edit, a change). Edits of files it has seen, and whole-file writes, are never judged.
 */
import { hashString } from '../identity/index.js';
import type { Violation } from '../types.js';
import { samePath } from '../world.js';
import { isHarnessFault, isWatched, kindOf } from './applicability.js';
import { GenerationalMap, LruMap } from './bounded.js';
import { fileName } from './file-names.js';
import { isHash, isRecord, readCount, readSnapshot, readStrings } from './restore.js';
import type { CallContext, Detector, ObservedOutcome } from './types.js';
import { excerpt } from './wording.js';

const NAME = 'blind-edit';
/** Failed guesses at one unread file after which the next guess is blocked. */
const GUESSES = 2;
/** File names with failed guesses kept; past this, the oldest are forgotten. */
const MAX_FILES = 256;
/** File names (the last path segment) shown to the agent; past this, the oldest half are forgotten. */
const MAX_SEEN = 4_096;
/** Spellings kept per file name (`a.ts`, `src/a.ts`, `/repo/src/a.ts`, or files of that name elsewhere). */
const MAX_SPELLINGS = 8;

/**
 * 1 saved nothing; 2 saves the names of the files shown (each a short hash of the last path segment)
 * and the failed guesses (the file's path and name by their hashes, and the count).
 */
const VERSION = 2;
/** The part of a hash (see `isHash`) a file name shown is saved as. */
const NAME_HASH = /^[0-9a-f]{8}$/;
/** The most failed guesses a saved count is read as. */
const MAX_COUNT = 1_000;

function nameHash(name: string): string {
  return hashString(name).slice(0, 8);
}

/** What ends a file name in a command line. */
const COMMAND_WORD_BREAK = /[\s'"`;|&<>()=:,/\\]+/;

interface Guesses {
  count: number;
  /** The text the last failed guess looked for ('' when it came from a saved run state). */
  last: string;
}

/** Failed guesses at a file, as a snapshot gives them back: by the hashes of its path and name. */
interface SavedGuesses {
  readonly count: number;
  readonly name: string;
}

export function createBlindEditDetector(): Detector {
  /**
   * Files the agent has been shown in this run, by any call, under their name: two spellings of one
   * file (`src/a.ts`, `/repo/src/a.ts`) end with the same name, so only those are compared.
   */
  const seen = new GenerationalMap<Spellings>(MAX_SEEN);
  /**
   * Failed guesses at files not shown, by file name and then by file: a file shown can only be one
   * guessed at under the same name, so showing one looks at those alone.
   */
  const guesses = new LruMap<Map<string, Guesses>>(MAX_FILES);
  /**
   * What an earlier process saved: the names of the files it was shown, by a short hash (a file of
   * the same name shown elsewhere counts: that errs toward not judging), and its failed guesses, by
   * the hash of the file's path. Each guess moves to `guesses` when the file is guessed at again.
   */
  let savedSeen = new Set<string>();
  const savedGuesses = new LruMap<SavedGuesses>(MAX_FILES);
  /**
   * The saved guesses by the hash of the file's name, each the hashes of the files' paths: a file
   * shown finds the saved guesses of its name at once, where going through them all cost every
   * successful call as much as the guesses saved.
   */
  let savedByName = new Map<string, string[]>();

  function addSaved(hash: string, saved: SavedGuesses): void {
    dropSaved(hash);
    savedGuesses.set(hash, saved);
    const files = savedByName.get(saved.name);
    if (files === undefined) savedByName.set(saved.name, [hash]);
    else files.push(hash);
  }

  function dropSaved(hash: string): void {
    const saved = savedGuesses.peek(hash);
    if (saved === undefined) return;
    savedGuesses.delete(hash);
    const files = savedByName.get(saved.name);
    if (files === undefined) return;
    const at = files.indexOf(hash);
    if (at >= 0) files.splice(at, 1);
    if (files.length === 0) savedByName.delete(saved.name);
  }

  function clearSaved(): void {
    savedGuesses.clear();
    if (savedByName.size > 0) savedByName = new Map();
  }

  function guessesAt(target: string): Guesses | undefined {
    // Most runs never guess at an unread file: the name is not even cut out of the path.
    if (guesses.size === 0 && savedGuesses.size === 0) return undefined;
    const live = guesses.size === 0 ? undefined : guesses.peek(fileName(target))?.get(target);
    if (live !== undefined || savedGuesses.size === 0) return live;
    const saved = savedGuesses.peek(hashString(target));
    return saved === undefined ? undefined : { count: saved.count, last: '' };
  }

  /** Forgets the saved guesses at files of this name: the agent may have been shown one of them. */
  function showSaved(name: string): void {
    const hash = nameHash(name);
    const files = savedByName.get(hash);
    if (files === undefined) return;
    savedByName.delete(hash);
    for (const target of files) savedGuesses.delete(target);
  }

  function show(target: string): void {
    const name = fileName(target);
    seen.update(name, withSpelling, target);
    if (savedGuesses.size > 0) showSaved(name);
    const guessed = guesses.size === 0 ? undefined : guesses.peek(name);
    if (guessed === undefined) return;
    // The agent may read a file under another spelling than it edits it (`src/a.ts`, `/repo/src/a.ts`).
    for (const file of [...guessed.keys()]) if (samePath(file, target)) guessed.delete(file);
    if (guessed.size === 0) guesses.delete(name);
  }

  /**
   * The files guessed at that a command line names: it is cut into words at spaces, quotes, shell
   * punctuation and path separators, and each word is looked up as a file name, so that a command
   * costs its own length rather than one search per file guessed at.
   */
  function guessedIn(command: string): string[] {
    const named: string[] = [];
    if (guesses.size === 0 && savedGuesses.size === 0) return named;
    for (const word of command.split(COMMAND_WORD_BREAK)) {
      if (savedByName.size > 0 && word !== '' && savedByName.has(nameHash(word))) showSaved(word);
      const guessed = word === '' ? undefined : guesses.peek(word);
      if (guessed === undefined) continue;
      for (const target of guessed.keys())
        if (command.includes(target) && !named.includes(target)) named.push(target);
    }
    return named;
  }

  function wasShown(target: string): boolean {
    const spellings = seen.get(fileName(target));
    if (spellings === undefined) return savedSeen.size > 0 && savedSeen.has(nameHash(fileName(target)));
    if (typeof spellings === 'string') return samePath(spellings, target);
    return spellings.some((shown) => samePath(shown, target));
  }

  return {
    name: NAME,

    check(call: CallContext): Violation | undefined {
      const { facts } = call;
      if (!isWatched(call, call.toolPolicy.detectors.blindEdit) || kindOf(call) !== 'mutate')
        return undefined;
      if (!facts.searchTexts || facts.replacesTarget || facts.targets.length !== 1) return undefined;
      const target = facts.targets[0] as string;
      const failed = guessesAt(target);
      return failed && failed.count >= GUESSES ? describe(call, target, failed) : undefined;
    },

    observe(call: CallContext, outcome: ObservedOutcome): void {
      if (isHarnessFault(outcome)) return;
      const { facts } = call;
      const kind = kindOf(call);
      if (!outcome.success) {
        const target = facts.targets[0];
        if (
          kind !== 'mutate' ||
          facts.targets.length !== 1 ||
          target === undefined ||
          outcome.failure?.meaning !== 'content-missing' ||
          wasShown(target)
        )
          return;
        const name = fileName(target);
        const guessed = guesses.peek(name) ?? new Map<string, Guesses>();
        const saved = savedGuesses.size === 0 ? undefined : savedGuesses.peek(hashString(target));
        if (saved !== undefined) dropSaved(hashString(target));
        const failed = guessed.get(target) ?? { count: saved?.count ?? 0, last: '' };
        failed.count++;
        failed.last = outcome.failure.needle ?? facts.searchTexts?.[0] ?? '';
        guessed.delete(target);
        guessed.set(target, failed);
        if (guessed.size > MAX_SPELLINGS) guessed.delete(guessed.keys().next().value as string);
        guesses.set(name, guessed);
        return;
      }
      // Any success on a file shows it to the agent: a read, an edit that found its text, a write.
      for (const target of facts.targets) show(target);
      if (kind === 'exec') {
        // A command shows the files it names (`cat a.js`), and may change any file.
        const command = facts.targets[0] ?? '';
        for (const target of guessedIn(command)) show(target);
        if (outcome.changedWorld && !facts.leavesSourcesAlone) {
          guesses.clear();
          clearSaved();
        }
      }
    },

    reset(reason): void {
      guesses.clear();
      clearSaved();
      if (reason === 'session') {
        seen.clear();
        savedSeen = new Set();
      }
    },

    compacted(): void {
      // The agent no longer has what it was shown.
      seen.clear();
      savedSeen = new Set();
    },

    snapshot(): unknown {
      const names = new Set<string>();
      for (const name of seen.keys()) {
        if (names.size >= MAX_SEEN) break;
        names.add(nameHash(name));
      }
      for (const hash of savedSeen) {
        if (names.size >= MAX_SEEN) break;
        names.add(hash);
      }
      const guessed: [string, SavedGuesses][] = savedGuesses.entries();
      for (const [name, files] of guesses.entries()) {
        for (const [target, { count }] of files)
          guessed.push([hashString(target), { count, name: nameHash(name) }]);
      }
      return { version: VERSION, seen: [...names], guesses: guessed.slice(-MAX_FILES) };
    },

    restore(state: unknown): void {
      seen.clear();
      guesses.clear();
      clearSaved();
      savedSeen = new Set();
      const snapshot = readSnapshot(state, VERSION);
      for (const hash of readStrings(snapshot?.seen, MAX_SEEN)) if (NAME_HASH.test(hash)) savedSeen.add(hash);
      const saved = Array.isArray(snapshot?.guesses) ? snapshot.guesses.slice(-MAX_FILES) : [];
      for (const item of saved) {
        if (!Array.isArray(item) || !isHash(item[0]) || !isRecord(item[1])) continue;
        const count = readCount(item[1].count);
        const { name } = item[1];
        if (count === undefined || count < 1 || typeof name !== 'string' || !NAME_HASH.test(name)) continue;
        addSaved(item[0], { count: Math.min(count, MAX_COUNT), name });
      }
    },
  };
}

/**
 * The spellings a file name was shown under: most files are shown under one, kept as that string,
 * so that a run of distinct reads holds no list per file.
 */
type Spellings = string | string[];

/** `spellings` with `target` among them, the newest last: the same value when it already was. */
function withSpelling(spellings: Spellings | undefined, target: string): Spellings {
  if (spellings === undefined || spellings === target) return target;
  if (typeof spellings === 'string') return [spellings, target];
  if (!spellings.includes(target)) {
    spellings.push(target);
    if (spellings.length > MAX_SPELLINGS) spellings.shift();
  }
  return spellings;
}

function describe(call: CallContext, target: string, failed: Guesses): Violation {
  return {
    rule: NAME,
    severity: 'block',
    reason:
      `${call.description} guesses at the text of ${target}, which you have not read: ${failed.count} ` +
      `earlier guesses were not found in it${failed.last === '' ? '' : ` (the last was "${excerpt(failed.last)}")`}, ` +
      'and nothing has changed it since.',
    suggestion: `Read ${target} first and copy the exact text you want to replace from it.`,
    evidence: { count: failed.count, calls: [call.description], target },
  };
}
