/** Small pieces of the sentences detectors write for the model. */
import { truncate } from '../identity/index.js';
import { jsonInWords } from './json-words.js';

const EXCERPT_LIMIT = 200;

export function times(count: number): string {
  if (count === 1) return 'once';
  if (count === 2) return 'twice';
  return `${count} times`;
}

/** "failed", "failed twice", "failed 3 times": a first failure needs no count. */
export function failedTimes(count: number): string {
  return count <= 1 ? 'failed' : `failed ${times(count)}`;
}

/**
 * What to do while a tool keeps failing for reasons outside the agent's control. Said so that it can
 * be acted on even when the tool is the agent's main one (its shell): find out what the failures
 * depend on, rather than stop using the tool.
 */
export function faultSuggestion(tool: string, waitSeconds: number): string {
  return (
    `The failures come from what ${tool} reaches, not from how it is called: check that first ` +
    `(is the server or service running, is the address or network right?) and retry that call after ` +
    `about ${waitSeconds} s. ${tool} calls that do not depend on it can go on meanwhile.`
  );
}

/** Appends the tools configured as alternatives, so a blocked agent has somewhere to go. */
export function withAlternatives(suggestion: string, alternatives: readonly string[]): string {
  if (alternatives.length === 0) return suggestion;
  return `${suggestion} Tools that may do the job instead: ${alternatives.join(', ')}.`;
}

/**
 * An error as a reason quotes it: on one line, in the tool's own words, any JSON in it said in words
 * (`title: Required` rather than the validation issue's object). Cut to `limit` characters.
 */
export function errorInWords(text: string, limit: number): string {
  return oneLine(jsonInWords(text), limit);
}

/** A result or error text short enough to quote in evidence, on one line. */
export function excerpt(text: string): string {
  return oneLine(text, EXCERPT_LIMIT);
}

/**
 * A text said on one line, in its own words, once: blank lines left out, and a prefix every line of
 * it repeats (`npm error `, `E   `) said on its first line only, so that a multi-line message does not
 * read "npm error npm error …". Cut to `limit` characters.
 */
export function oneLine(text: string, limit: number): string {
  const lines = text
    .split('\n', 64)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (lines.length <= 1) return truncate(text.replace(/\s+/g, ' ').trim(), limit);
  const prefix = sharedPrefix(lines);
  const said = lines
    .map((line, index) => (index === 0 || prefix === '' ? line : line.slice(prefix.length).trim()))
    .filter((line) => line !== '');
  return truncate(said.join(' ').replace(/\s+/g, ' '), limit);
}

/** The leading words (up to a space) that every line but a stray one repeats; '' when none. */
function sharedPrefix(lines: readonly string[]): string {
  const first = lines[0] as string;
  const words = first.split(' ');
  for (let count = Math.min(words.length - 1, 3); count >= 1; count--) {
    const prefix = words.slice(0, count).join(' ');
    const sharing = lines.filter((line) => line === prefix || line.startsWith(`${prefix} `)).length;
    if (sharing >= 3 && sharing >= lines.length - 1) return prefix;
  }
  return '';
}

/**
 * A last error kept as it came and quoted on first use: most are never shown, and quoting one
 * (collapsing its white space, cutting it) at every failure costs more than the rest of noting it.
 */
export interface PendingQuote {
  lastError: string;
  /** The error as kept, until it is quoted into `lastError`. */
  pendingError: string | undefined;
}

/**
 * The last error `quotedLastError` gives now, quoted when first asked for: the record may have
 * noted another error by then. Quoted into the record when it still holds this one.
 */
export function laterQuote(record: PendingQuote): () => string {
  const pending = record.pendingError;
  if (pending === undefined) {
    const quoted = record.lastError;
    return () => quoted;
  }
  let quote: string | undefined;
  return () => {
    if (quote === undefined) {
      quote =
        record.pendingError === pending ? quotedLastError(record) : errorInWords(pending, EXCERPT_LIMIT);
    }
    return quote;
  };
}

/** The last error as reasons and snapshots quote it. */
export function quotedLastError(record: PendingQuote): string {
  if (record.pendingError !== undefined) {
    record.lastError = errorInWords(record.pendingError, EXCERPT_LIMIT);
    record.pendingError = undefined;
  }
  return record.lastError;
}

/** A record as saved: its last error quoted, without the copy it kept until then. */
export function withQuotedError<Kept extends PendingQuote>(record: Kept): Omit<Kept, 'pendingError'> {
  quotedLastError(record);
  const { pendingError: _quoted, ...saved } = record;
  return saved;
}

/** Whole seconds, rounded up so that "wait 0 s" is never said while waiting is still needed. */
export function secondsFrom(milliseconds: number): number {
  return Math.max(1, Math.ceil(milliseconds / 1000));
}
