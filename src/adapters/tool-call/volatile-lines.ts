/**
 * Lines that carry nothing but what a run draws afresh: an id, a time, a duration, a pid, a port or a
 * temporary path, under a label of a few words (`request id: 3fa2b9c01d7e`, `took 412 ms`,
 * `[07:42:31] done`, `log: /tmp/tmpqyhchoyb/run.log`). Beside an otherwise fixed answer such a line
 * says nothing about what the answer is.
 */
import { maskVolatile } from '../../core/identity/index.js';

/** What the result masker writes in place of a value drawn afresh. */
const MASKED_VALUE = /<(?:address|clock|date|duration|epoch|hex|id|n|pid|port|time|tmp|uptime|uuid)>/;

/** The most words a label beside the values may have (`at <object at 0x…>`). */
const MOST_LABEL_WORDS = 3;

/**
 * Whether the line, once masked, holds a masked value and besides the words that hold one at most
 * three words without a digit: a count or a file's line number beside a time (`Searched 1204 files
 * in 412 ms`) says something of the answer.
 */
export function carriesOnlyFreshValues(line: string): boolean {
  const masked = maskVolatile(line, 'result');
  if (masked === line) return false;
  let labelWords = 0;
  let fresh = false;
  for (const word of masked.split(/\s+/)) {
    if (word === '') continue;
    if (MASKED_VALUE.test(word)) {
      fresh = true;
      continue;
    }
    if (/\d/.test(word) || ++labelWords > MOST_LABEL_WORDS) return false;
  }
  return fresh;
}
