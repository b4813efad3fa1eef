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

/** Whole seconds, rounded up so that "wait 0 s" is never said while waiting is still needed. */
export function secondsFrom(milliseconds: number): number {
  return Math.max(1, Math.ceil(milliseconds / 1000));
}
