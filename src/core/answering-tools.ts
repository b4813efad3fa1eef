/**
 * Which tools have ever answered with something. A tool that has answered every call with nothing
 * (a scratchpad, a note to itself, a question whose host keeps no answer) says nothing by answering
 * nothing again: its blank answer is how it answers, not a question that found nothing. Once it has
 * answered something, a blank answer is a miss again.
 */
import { isBlank } from './blank.js';
import { LruMap } from './detectors/bounded.js';

/** Tools remembered: far more than a session uses. */
const MAX_TOOLS = 1_000;

export class AnsweringTools {
  private readonly tools = new LruMap<true>(MAX_TOOLS);

  /** Notes what `tool` answered. */
  note(tool: string, text: string): void {
    if (this.tools.peek(tool) === undefined && !isBlank(text)) this.tools.add(tool, true);
  }

  /** `tool` has answered nothing but blanks so far. */
  onlyBlank(tool: string): boolean {
    return this.tools.peek(tool) === undefined;
  }

  clear(): void {
    this.tools.clear();
  }

  snapshot(): string[] {
    return this.tools.entries().map(([tool]) => tool);
  }

  restore(tools: readonly string[]): void {
    this.tools.clear();
    for (const tool of tools.slice(-MAX_TOOLS)) this.tools.set(tool, true);
  }
}
