/**
 * One reading of a command line, shared by everything the adapter reads from it. Describing a shell
 * call asks for the line's effects, whether it leaves sources alone, its program, its attempt key,
 * and a failure whether it runs tests: each of those splits the line into words, parses it or splits
 * it into commands. Each is worked out once, when a reader first asks, and kept on the line's
 * reading; the readings of the last few lines are kept, since one call's readers ask about its line
 * as written and as collapsed (the same text for most lines), and the attempt key about its
 * program's words.
 *
 * What is kept is shared: its readers never change it.
 */
import type { SyntaxNode } from 'unbash';

/** What a command line does to the workspace, as `shellEffectsOf` reads it. */
export interface ShellEffects {
  /** Every command of the line only looks: nothing is written (output to `/dev/null` aside). */
  readonly onlyLooks: boolean;
  /** Files the line writes, creates, moves or removes, as targets. */
  readonly touches: readonly string[];
  /** `touches` is all it changes: every command was understood and every path it writes is literal. */
  readonly touchesOnly: boolean;
  /** A command of the line writes a file, whether or not its path could be read (`chmod +x ~/a.py`). */
  readonly writes: boolean;
  /** The working tree may have changed anywhere (a branch switch, a reset, a stash, an applied patch). */
  readonly changesTree: boolean;
  /** A command of the line changes something outside this machine (see `outside-changes.ts`). */
  readonly changesOutside: boolean;
  /**
   * Every command of the line only reads the workspace's files (`ls`, `cat a.py`, `git diff`): its
   * answer depends on them alone, not on processes, services or the clock, which change by themselves.
   */
  readonly readsFilesOnly: boolean;
  /**
   * Every command of the line only looks or runs code that only computes (`python3 -c "print(…)"`),
   * and one of them runs such code: it changes nothing, though what it prints is new.
   */
  readonly computesOnly: boolean;
  /**
   * What the line's commands act on (`docker restart shop-app`: `shop-app`), read past wrappers,
   * assignments and the program's subcommand, as targets.
   */
  readonly operands: readonly string[];
  /**
   * The line prints a service's log and does nothing else: one command prints a log (`docker logs
   * app`, `journalctl -u nginx`, `tail logs/app.log`), the others only filter text, wait or move,
   * and nothing is written.
   */
  readonly printsLogs: boolean;
}

export class CommandReading {
  private splitWords: readonly string[] | undefined;
  /** The syntax tree (see `parseShell`), or what parsing threw. */
  tree: SyntaxNode | undefined;
  parseError: unknown;
  parsed = false;
  effects: ShellEffects | undefined;
  /** The effects as a Windows shell reads the line (see `windows-shell.ts`). */
  windowsEffects: ShellEffects | undefined;
  leavesSourcesAlone: boolean | undefined;
  commands: readonly (readonly string[])[] | undefined;
  program: string | undefined;
  programRead = false;
  /** The words that could name a file (see `commandTargets`). */
  targets: readonly string[] | undefined;
  /**
   * The words of a line of plain words (see `shell-parse.ts`), set when it is parsed: one command,
   * its program first, each word its own value. Undefined for any other line, or before the parse.
   */
  plainWords: readonly string[] | undefined;

  constructor(readonly text: string) {}

  /** The line's words, as `text.trim().split(/\s+/)` gives them. */
  get words(): readonly string[] {
    this.splitWords ??= this.text.trim().split(/\s+/);
    return this.splitWords;
  }

  /** The words, found by a reader that split the line as `words` would (a plain line's parse). */
  splitInto(words: readonly string[]): void {
    this.splitWords ??= words;
  }
}

/** Lines whose readings are kept, most recent first: a call's line, collapsed, and its program's words. */
const KEPT = 4;
const kept: CommandReading[] = [];

/** The reading of `text`: the one kept if the line was read lately, a new one otherwise. */
export function commandReading(text: string): CommandReading {
  for (let index = 0; index < kept.length; index++) {
    const reading = kept[index] as CommandReading;
    if (reading.text !== text) continue;
    if (index > 0) {
      kept.splice(index, 1);
      kept.unshift(reading);
    }
    return reading;
  }
  const reading = new CommandReading(text);
  kept.unshift(reading);
  if (kept.length > KEPT) kept.pop();
  return reading;
}
