/** Small pieces of the sentences detectors write for the model. */
import { truncate } from '../identity/index.js';

const EXCERPT_LIMIT = 200;

export function times(count: number): string {
  if (count === 1) return 'once';
  if (count === 2) return 'twice';
  return `${count} times`;
}

/** Appends the tools configured as alternatives, so a blocked agent has somewhere to go. */
export function withAlternatives(suggestion: string, alternatives: readonly string[]): string {
  if (alternatives.length === 0) return suggestion;
  return `${suggestion} Tools that may do the job instead: ${alternatives.join(', ')}.`;
}

/** A result or error text short enough to quote in evidence, on one line. */
export function excerpt(text: string): string {
  return truncate(text.replace(/\s+/g, ' ').trim(), EXCERPT_LIMIT);
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

/** The last error as reasons and snapshots quote it. */
export function quotedLastError(record: PendingQuote): string {
  if (record.pendingError !== undefined) {
    record.lastError = excerpt(record.pendingError);
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
