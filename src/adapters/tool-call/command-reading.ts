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
import type { ShellEffects } from './shell-effects.js';

export class CommandReading {
  private splitWords: readonly string[] | undefined;
  /** The syntax tree (see `parseShell`), or what parsing threw. */
  tree: SyntaxNode | undefined;
  parseError: unknown;
  parsed = false;
  effects: ShellEffects | undefined;
  leavesSourcesAlone: boolean | undefined;
  commands: readonly (readonly string[])[] | undefined;
  program: string | undefined;
  programRead = false;
  /** The words that could name a file (see `commandTargets`). */
  targets: readonly string[] | undefined;

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
