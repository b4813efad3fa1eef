/**
 * A command stopped for taking too long after it asked for input (`Enter your choice: ` then the
 * harness's `Command timed out`): the program was waiting on its standard input, which the call
 * never gave it. Nothing outside the call made it slow: the same line waits at the same prompt
 * every time, so the failure is the call's own.
 */
import { carriesOnlyFreshValues } from './volatile-lines.js';

/** The line a prompt for input ends with: a colon, a question mark or an angle bracket (`>> `). */
const PROMPT_END = /[:?>]\s*$/;
/** A prompt is one short line; a longer one is output that happens to end so. */
const PROMPT_CHARS = 160;
/** How far from the end of the output the timeout's own line may be. */
const TAIL_LINES = 2;
/**
 * Lines after the timeout's own that carry only what a run draws afresh (`log: /tmp/tmpx/run.log`,
 * `real 0m0.775s`), passed over: at most this many.
 */
const MOST_FRESH_LINES = 3;
const TIMED_OUT_LINE = /^\W*(?:command|execution|process)?\s*timed ?out\b/i;

/** The output's last lines, blank ones and a few of only fresh values at its very end left out. */
function lastLines(text: string, count: number): string[] {
  const lines: string[] = [];
  let fresh = 0;
  let end = text.length;
  while (end > 0 && lines.length < count) {
    const start = text.lastIndexOf('\n', end - 1);
    const line = text.slice(start + 1, end);
    end = start < 0 ? 0 : start;
    if (line.trim() === '') continue;
    if (lines.length === 0 && fresh < MOST_FRESH_LINES && carriesOnlyFreshValues(line)) {
      fresh++;
      continue;
    }
    lines.unshift(line);
  }
  return lines;
}

/**
 * Whether a timed-out command's output shows it stopped at a prompt: its last line says it timed
 * out and the line before it asks for input.
 */
export function waitedForInput(text: string): boolean {
  const tail = lastLines(text.length > 4_000 ? text.slice(-4_000) : text, TAIL_LINES);
  if (tail.length < TAIL_LINES) return false;
  const [prompt, timedOut] = tail as [string, string];
  return TIMED_OUT_LINE.test(timedOut.trim()) && prompt.length <= PROMPT_CHARS && PROMPT_END.test(prompt);
}
