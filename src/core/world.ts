/**
 * What a successful call changed. Invalidation rests on this: a ban holds only while the state it
 * was learned against is unchanged, so the model of change must err towards "changed".
 */
import { LruMap } from './detectors/bounded.js';
import { isHash } from './detectors/restore.js';
import { HashMemory } from './hash-memory.js';
import { hashString } from './identity/index.js';
import { fileNameOf } from './path-spellings.js';
import type { CallFacts } from './types.js';

export interface Effect {
  /** Targets whose content or existence changed. */
  readonly changedTargets: readonly string[];
  /** `outside`: a side effect through a service (a cancellation, a sent message); no file changed. */
  readonly kind: 'none' | 'mutate' | 'create' | 'delete' | 'unknown' | 'outside' | 'navigate';
  /** The service whose state a side effect changed: what its other calls return may differ now. */
  readonly service?: string;
  /** Text written into the targets, when known. */
  readonly writtenText?: string;
  /** For commands with unknown effects: the command line, to see which paths it names. */
  readonly command?: string;
  /** Any file may have changed (a branch switch, a reset, an applied patch): every ban may be stale. */
  readonly everywhere?: boolean;
  /** A move of the working directory (`cd lib`): every relative path now points elsewhere. */
  readonly movesDirectory?: boolean;
  /**
   * A command reached outside this machine (a push, a publish, a deploy): what any outside service
   * answers may differ now, whichever tool asks it.
   */
  readonly reachesServices?: boolean;
}

const NO_EFFECT: Effect = { changedTargets: [], kind: 'none' };
const NAVIGATED: Effect = { changedTargets: [], kind: 'navigate' };
const MOVED_DIRECTORY: Effect = { changedTargets: [], kind: 'navigate', movesDirectory: true };
/**
 * Targets and commands whose last change is remembered. A repeat is recognised as a no-op only
 * against recent changes; a session that changes more files than this is rare.
 */
const MEMORY = 5_000;
/** Answers remembered by the tool that gave them: a session is shown a few hundred pages at most. */
const SHOWN_MEMORY = 2_000;
/** Scripts whose named files are remembered: the ones an agent wrote lately. */
const SCRIPT_MEMORY = 64;
/** Files remembered per script, and the longest path taken from saved state. */
const MAX_SCRIPT_NAMES = 32;
const MAX_SAVED_PATH = 1_024;

/** Two spellings of one file: equal, or one is the other with a leading directory. */
export function samePath(a: string, b: string): boolean {
  if (a === b) return true;
  // Without an array for the pair: this runs for every file a detector holds, on every call.
  const longer = a.length > b.length ? a : b;
  const shorter = longer === a ? b : a;
  if (longer.endsWith(shorter) && longer[longer.length - shorter.length - 1] === '/') return true;
  // `~/ctf/solve.py` is a path under a home directory the guard does not know: any absolute path that
  // ends with `/ctf/solve.py` may be it.
  return shorter.startsWith('~/') && longer.startsWith('/') && longer.endsWith(shorter.slice(1));
}

/** Remembers the last change of each target so that repeating it can be recognised as a no-op. */
export class WorldTracker {
  /** Each target's last change, by the call that made it. */
  private readonly lastChange = new HashMemory(MEMORY);
  /** Each command's last run that changed something: its output, and the world as it left it. */
  private readonly lastCommand = new HashMemory(MEMORY);
  /** What tools' successes answered, by tool and answer: the pages the agent was shown through each. */
  private readonly shown = new HashMemory(SHOWN_MEMORY);
  private generation = 0;
  /**
   * The file an editor has open: the last one a navigation named (`open src/app.py`) or a creation
   * made. An edit that names no file (SWE-agent's `edit 12:14`) changes this one.
   */
  private openFile: string | undefined;
  /** Where the last move of the working directory went, when its line named the place in full. */
  private directory: string | undefined;
  /**
   * The line that moved the working directory, what it answered and the world it left (hashed), when
   * it is the last call that ran; empty after any other call.
   */
  private lastMove = '';
  /** The move of the call running now, which becomes `lastMove` once it is recorded. */
  private pendingMove = '';
  /** The ban key of the last call that ran, when it failed (hashed); empty after a success. */
  private lastFailed = '';
  /**
   * The files each script the agent wrote names in quotes, by the script's file name: a run of the
   * script may have changed them, though the line that runs it names only the script.
   */
  private readonly scripts = new LruMap<readonly string[]>(SCRIPT_MEMORY);
  /** The place the last move of the working directory named, as written; `undefined` when unsaid. */
  private place: string | undefined;

  /**
   * A command of unknown effects ran naming `words`: it may have moved, removed or rewritten a file
   * an edit last changed (`mv encrypted.txt server.py`), so the same edit made again is a change
   * again. Only files an edit changed are marked: the rest of a command's words are not remembered.
   */
  touchedByCommand(words: readonly string[]): void {
    for (const word of words) if (this.lastChange.has(word)) this.lastChange.set(word, TOUCHED);
  }

  /**
   * A success of `tool` answered `resultDigest`: whether the tool had not shown that answer before
   * in the session (a page the agent had not been on), remembering it either way.
   */
  showsNew(tool: string, resultDigest: string): boolean {
    const key = `${tool}\u0001${resultDigest}`;
    if (this.shown.has(key)) return false;
    this.shown.set(key, '');
    return true;
  }

  /**
   * The user spoke. Users act on the machine outside the guard's view (they switch a branch, edit a
   * file by hand), so a change made again after they spoke is no longer known to find the world as
   * the same change left it before: it is a change again, and relieves what it may have cured.
   */
  userSpoke(): void {
    this.generation++;
    this.lastChange.clear();
  }

  /** A call ran (whatever it did), failing under `failedBanKey` or not: what runs next comes right after it. */
  recorded(failedBanKey?: string): void {
    this.lastMove = this.pendingMove;
    this.pendingMove = '';
    this.lastFailed = failedBanKey === undefined ? '' : hashString(failedBanKey);
  }

  /** Whether the call that ran last failed under `banKey`. */
  failedRightBefore(banKey: string): boolean {
    return this.lastFailed !== '' && this.lastFailed === hashString(banKey);
  }

  /** A move, as `lastMove` keeps it: the line, its answer and the world it found. */
  private moveRun(callKey: string, resultDigest: string): string {
    return hashString(`${editRun(callKey, resultDigest)}\u0001${this.generation}`);
  }

  /** A call that failed yet left `target` open: an edit that names no file now changes it. */
  opened(target: string): void {
    this.openFile = target;
  }

  /**
   * `silent`: the call answered nothing. A change that answers nothing shows nothing of what it did
   * (an append, a copy, a redirection), so its repeat is never taken for one that changed nothing.
   */
  effectOf(facts: CallFacts, callKey: string, resultDigest: string, silent = false): Effect {
    const moves = this.movesByLeadingPlace(facts);
    const effect = this.ownEffectOf(facts, callKey, resultDigest, silent);
    if (!moves || effect.movesDirectory === true) return effect;
    return effect.kind === 'none' ? MOVED_DIRECTORY : { ...effect, movesDirectory: true };
  }

  /**
   * Whether a line that moves before doing more (`cd apps/web && pnpm build`) left the working
   * directory somewhere new. A move to the place the last move named, as written, is no move: in a
   * shell that keeps its directory it is already there (a relative one fails or goes deeper, and
   * the rest of the line says so), and in one that starts each command afresh no move outlives its
   * line, so only the first of a run of such lines is taken for one.
   */
  private movesByLeadingPlace(facts: CallFacts): boolean {
    if (facts.kind !== 'exec') return false;
    if (facts.navigates) {
      this.place = undefined;
      return false;
    }
    if (facts.movesTo === undefined) return false;
    const moves = facts.movesTo !== this.place;
    this.place = facts.movesTo;
    return moves;
  }

  private ownEffectOf(facts: CallFacts, callKey: string, resultDigest: string, silent: boolean): Effect {
    // Another file opened, another line or directory: what later calls see has changed, no file has.
    if (facts.kind === 'exec' && facts.directory !== undefined) {
      // A move to where the last one went, answering where it is (`cd /srv/app && pwd`), changes
      // nothing: a shell that keeps its directory is already there, and in one that starts each
      // command afresh neither move outlived its line. A move that answers nothing (`cd /srv/app`)
      // shows nothing of where the shell was before it, as a silent change shows nothing of what it
      // did: it is a move again, and what failed on a path from the working directory gets its retry.
      // The same line again right after itself, answering as it did, changes nothing either, silent
      // or not: it went where it went the time before, and no call ran between. (`directory` names a
      // place in full or is empty: a relative move, which in a shell that keeps its directory goes
      // deeper each time, never comes this far.)
      if (
        facts.navigates &&
        facts.directory !== '' &&
        facts.directory === this.directory &&
        (!silent || this.lastMove === this.moveRun(callKey, resultDigest))
      ) {
        // The same move again: it stays the last one once this call is recorded.
        if (silent) this.pendingMove = this.lastMove;
        return NO_EFFECT;
      }
      this.directory = facts.directory === '' ? undefined : facts.directory;
    }
    if (facts.navigates) {
      this.generation++;
      if (facts.kind === 'exec') this.pendingMove = this.moveRun(callKey, resultDigest);
      if (facts.kind !== 'exec' && facts.targets.length === 1) this.openFile = facts.targets[0];
      // A command that only navigates changes directory; a tool that navigates opens a file or a line.
      return facts.kind === 'exec' ? MOVED_DIRECTORY : NAVIGATED;
    }
    // A tool whose name says nothing of what it does, on files it names, may have changed them.
    const kind = facts.mayChangeTargets === true && facts.targets.length > 0 ? 'mutate' : facts.kind;
    switch (kind) {
      case 'mutate':
      case 'create':
      case 'delete': {
        if (facts.kind === 'create' && facts.targets.length === 1) this.openFile = facts.targets[0];
        // An edit that names no file (SWE-agent's `edit 12:14`) changes the file the editor has open.
        // When no call said which one that is, any file may be the one it changed: every ban may be
        // stale, as after a branch switch. Either way, only the same edit again, answering as it did,
        // with nothing else changed since, changes nothing: an edit by line numbers (`edit 4:5`) made
        // again replaces other lines the second time, and what it answers (the file as it left it)
        // shows it.
        const targets =
          facts.targets.length > 0 || this.openFile === undefined ? facts.targets : [this.openFile];
        if (targets.length === 0) return this.unknownChange(callKey, resultDigest, silent, '', [], true);
        const change = editRun(callKey, resultDigest);
        // A change saved before answers were kept holds the call alone: taken as answering alike.
        const madeAgain = (target: string) =>
          this.lastChange.holds(target, change) || this.lastChange.holds(target, callKey);
        // Usually every target changed: the list is then the call's own, not a copy.
        const changed =
          !silent && targets.some(madeAgain) ? targets.filter((target) => !madeAgain(target)) : targets;
        if (changed.length === 0) return NO_EFFECT;
        // A whole-file write of files a change of the session already made is a rewrite of files that
        // are there (a component written anew after edits failed to fix the build): a change of what
        // every failing command may read, not a new file that only a failure about a missing one needs.
        const rewrites = kind === 'create' && changed.every((target) => this.lastChange.has(target));
        for (const target of changed) this.lastChange.set(target, change);
        if (facts.scriptNames !== undefined && targets.length === 1)
          this.wroteScript(targets[0] as string, facts);
        this.generation++;
        const effect: Effect = {
          changedTargets: changed,
          kind: rewrites ? 'mutate' : kind,
          writtenText: facts.writtenText,
        };
        // A changed order, a new issue: the service's other answers (its lists, its seats) may differ too.
        return facts.service !== undefined ? { ...effect, service: facts.service } : effect;
      }
      case 'exec': {
        const command = facts.targets[0] ?? '';
        // Code that only computes (`python3 -c "print(…)"`) leaves nothing behind either.
        if (facts.changesNothing || facts.computesOnly) return NO_EFFECT;
        // The same command, with the same output, and nothing else changed since: it changed nothing.
        // A command that may change something and answers nothing shows nothing of what it did (a
        // script that writes its output to a file, a redirection, a copy): its repeat is a change again.
        // Commands known only to look or check (`tsc --noEmit`, `grep -q`) are `changesNothing` above.
        const effect = this.unknownChange(
          callKey,
          resultDigest,
          silent,
          command,
          this.touchedBy(facts),
          facts.changesTree,
        );
        return facts.changesOutside === true && effect !== NO_EFFECT
          ? { ...effect, reachesServices: true }
          : effect;
      }
      default:
        // A session, a server or a debugger started or stopped: what later calls talk to is new.
        // Counted under the key its answers are counted under: a reworded description is the same start.
        if (facts.startsOrStops === true)
          return this.unknownChange(facts.answerKey ?? callKey, resultDigest, silent, '');
        // A booking, a cancellation, a payment, a message: the service's state changed, no file did.
        // Reads and searches (`get_*`, `list_*`, `search_*`) change nothing.
        if (!facts.sideEffect || facts.service === undefined) return NO_EFFECT;
        this.generation++;
        return { changedTargets: facts.targets, kind: 'outside', service: facts.service };
    }
  }

  /**
   * A script was written or edited: remember the files its text names. A whole new text replaces
   * what was known of the script; an edit adds to it.
   */
  private wroteScript(script: string, facts: CallFacts): void {
    const key = fileNameOf(script);
    const known = facts.replacesTarget === true ? undefined : this.scripts.peek(key);
    const names = [...new Set([...(known ?? []), ...(facts.scriptNames ?? [])])];
    this.scripts.set(key, names.slice(0, MAX_SCRIPT_NAMES));
  }

  /**
   * What a command of unknown effects is known to write: the paths its line writes to, and, for a
   * run of a script the agent wrote, the files the script's text names.
   */
  private touchedBy(facts: CallFacts): readonly string[] {
    const own = facts.touches ?? [];
    const named =
      facts.scriptFile === undefined ? undefined : this.scripts.peek(fileNameOf(facts.scriptFile));
    return named === undefined ? own : [...own, ...named];
  }

  /**
   * A change of what is unknown: none when the same call left the same output and nothing changed
   * since, unless that output was nothing, which says nothing about what the call did.
   */
  private unknownChange(
    callKey: string,
    resultDigest: string,
    silent: boolean,
    command: string,
    touches: readonly string[] = [],
    changesTree = false,
  ): Effect {
    if (!silent && this.lastCommand.holds(callKey, commandRun(resultDigest, this.generation)))
      return NO_EFFECT;
    this.generation++;
    this.lastCommand.set(callKey, commandRun(resultDigest, this.generation));
    const effect: Effect = { changedTargets: touches, kind: 'unknown', command };
    return changesTree ? { ...effect, everywhere: true } : effect;
  }

  snapshot(): unknown {
    return {
      version: 2,
      changes: this.lastChange.entries(),
      commands: this.lastCommand.entries(),
      shown: this.shown.entries(),
      generation: this.generation,
      ...(this.openFile !== undefined && { openFile: this.openFile }),
      ...(this.directory !== undefined && { directory: this.directory }),
      ...(this.place !== undefined && { place: this.place }),
      ...(this.scripts.size > 0 && { scripts: this.scripts.entries() }),
      ...(this.lastMove !== '' && { lastMove: this.lastMove }),
      ...(this.lastFailed !== '' && { lastFailed: this.lastFailed }),
    };
  }

  restore(state: unknown): void {
    const value = state as {
      changes?: unknown;
      commands?: unknown;
      shown?: unknown;
      lastChange?: [string, string][];
      lastCommand?: [string, { digest: string; generation: number }][];
      generation?: number;
      openFile?: unknown;
      directory?: unknown;
      place?: unknown;
      scripts?: unknown;
      lastMove?: unknown;
      lastFailed?: unknown;
    };
    if (!value || typeof value !== 'object') return;
    this.lastChange.clear();
    this.lastCommand.clear();
    this.lastChange.restore(value.changes);
    this.lastCommand.restore(value.commands);
    this.shown.clear();
    this.shown.restore(value.shown);
    // Saved before memories were kept as hashes: the texts themselves.
    for (const [key, change] of Array.isArray(value.lastChange) ? value.lastChange : []) {
      if (typeof key === 'string' && typeof change === 'string') this.lastChange.set(key, change);
    }
    for (const [key, command] of Array.isArray(value.lastCommand) ? value.lastCommand : []) {
      if (typeof key === 'string' && command && typeof command.digest === 'string')
        this.lastCommand.set(key, commandRun(command.digest, command.generation));
    }
    this.generation = typeof value.generation === 'number' ? value.generation : 0;
    this.openFile = typeof value.openFile === 'string' ? value.openFile : undefined;
    this.directory = typeof value.directory === 'string' ? value.directory : undefined;
    this.place = typeof value.place === 'string' ? value.place : undefined;
    this.lastMove = isHash(value.lastMove) ? value.lastMove : '';
    this.lastFailed = isHash(value.lastFailed) ? value.lastFailed : '';
    this.restoreScripts(value.scripts);
  }

  /** The scripts' named files as `snapshot` saved them; anything else in their place is skipped. */
  private restoreScripts(saved: unknown): void {
    this.scripts.clear();
    if (!Array.isArray(saved)) return;
    for (const entry of saved.slice(-SCRIPT_MEMORY)) {
      if (!Array.isArray(entry) || typeof entry[0] !== 'string' || !Array.isArray(entry[1])) continue;
      const names = (entry[1] as unknown[])
        .filter((name): name is string => typeof name === 'string' && name.length <= MAX_SAVED_PATH)
        .slice(0, MAX_SCRIPT_NAMES);
      if (entry[0].length <= MAX_SAVED_PATH && names.length > 0) this.scripts.set(entry[0], names);
    }
  }
}

/** What a file an edit changed is marked with once a command may have touched it: no edit's key. */
const TOUCHED = '\u0002touched by a command';

/** An edit as it ran: the call, and what it answered. */
function editRun(callKey: string, resultDigest: string): string {
  return `${callKey}\u0001${resultDigest}`;
}

function commandRun(resultDigest: string, generation: number): string {
  return `${resultDigest}\u0001${generation}`;
}

/**
 * Could writing `written` have put `needle` into the file? Err towards yes: only text that shares
 * no substantial run with the needle is taken as unable to create it.
 */
export function mayIntroduce(written: string | undefined, needle: string): boolean {
  if (written === undefined) return true;
  if (written.includes(needle) || needle.includes(written)) return true;
  const run = Math.min(8, needle.length, written.length);
  if (run <= 0) return true;
  for (let start = 0; start + run <= needle.length; start++) {
    if (written.includes(needle.slice(start, start + run))) return true;
  }
  return false;
}
