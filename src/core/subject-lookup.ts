/**
 * Looking up what an error was about is new evidence. A failed call's error names its subject (a
 * package, a version, a branch, a record); a later call that only looks (a read, a search, a command
 * that changes nothing) and names that subject, when the failed call itself does not, told the agent
 * something about why it failed: the failed call gets one retry. An error's subject is what it quotes
 * (`'feature-x'`) or pins to a version or value (`tsx@^4.22.1`, `torch==9.9`), never its prose, and
 * never a path: reading a file an error names is judged by the rules on reads.
 */
import type { CallFacts } from './types.js';

/** Names shorter than this are too common to say what an error was about. */
const MIN_NAME = 3;
/** Texts are bounded, and a subject is named early. */
const MAX_TEXT = 4_000;
const QUOTED = /['"`]([^'"`\s]{3,200})['"`]/g;
const PINNED = /[^\s'"`@=]{3,200}(?=@|==?)/g;
const TOKEN_BREAK = /[\s'"`,;()[\]{}]+/;

/** A name, not a path, a flag or a number. */
function isName(word: string): boolean {
  return word.length >= MIN_NAME && /[a-z]/.test(word) && !word.includes('/') && !word.startsWith('-');
}

/** The names a text is made of, each also without what pins it (`tsx@latest` → `tsx`). */
function namesOf(text: string): Set<string> {
  const names = new Set<string>();
  for (const token of text.slice(0, MAX_TEXT).toLowerCase().split(TOKEN_BREAK)) {
    const bare = token.replace(/[.:]+$/, '');
    if (isName(bare)) names.add(bare);
    const name = bare.split(/@|==?/)[0] ?? '';
    if (name !== bare && isName(name)) names.add(name);
  }
  return names;
}

/** What an error is about: the names it quotes or pins. */
function subjectsOf(error: string): Set<string> {
  const text = error.slice(0, MAX_TEXT).toLowerCase();
  const subjects = new Set<string>();
  for (const [, quoted] of text.matchAll(QUOTED))
    if (isName(quoted as string)) subjects.add(quoted as string);
  // A pin needs an `@` or `=` after it: most errors hold neither, and the search for one is slow.
  if (text.includes('@') || text.includes('='))
    for (const [pinned] of text.matchAll(PINNED)) if (isName(pinned)) subjects.add(pinned);
  return subjects;
}

/** Whether a call only looks: it reads, searches, or is a command that changes nothing. */
export function onlyLooks(facts: CallFacts): boolean {
  return facts.kind === 'read' || facts.kind === 'search' || facts.changesNothing === true;
}

/** The names a look-up's arguments name: read once per look-up, compared with every failed call. */
export function namesLookedUp(lookup: string): ReadonlySet<string> {
  return namesOf(lookup);
}

/**
 * The subject of a failed call's error that a look-up names and the failed call itself does not, or
 * undefined when there is none.
 */
export function subjectLookedUp(lookup: string, failed: string, error: string): string | undefined {
  return subjectNamed(namesOf(lookup), failed, error);
}

/** Errors whose subjects are kept; past this, they are read again. */
const MAX_KNOWN_ERRORS = 256;

/**
 * What errors are about, each error read once: every look-up compares its names with the errors of
 * the same latest failing commands, which change far less often than look-ups are made.
 */
export class ErrorSubjects {
  private readonly known = new Map<string, ReadonlySet<string>>();

  of(error: string): ReadonlySet<string> {
    let subjects = this.known.get(error);
    if (subjects === undefined) {
      if (this.known.size >= MAX_KNOWN_ERRORS) this.known.clear();
      subjects = subjectsOf(error);
      this.known.set(error, subjects);
    }
    return subjects;
  }
}

/**
 * `subjectLookedUp` with the look-up's names read already (see `namesLookedUp`), and the errors'
 * subjects from `errors` when given.
 */
export function subjectNamed(
  looked: ReadonlySet<string>,
  failed: string,
  error: string,
  errors?: ErrorSubjects,
): string | undefined {
  if (looked.size === 0) return undefined;
  const subjects = errors === undefined ? subjectsOf(error) : errors.of(error);
  if (subjects.size === 0) return undefined;
  let own: Set<string> | undefined;
  for (const name of looked) {
    if (!subjects.has(name)) continue;
    own ??= namesOf(failed);
    if (!own.has(name)) return name;
  }
  return undefined;
}
