/**
 * The shape of an error: its whole text with what varies from one call to the next masked — quoted
 * text (over several lines too), URLs, paths and file names, hexadecimal and numbers, flags, and
 * identifiers (with digits, snake_case or camelCase). One error in several wordings of its values is one shape,
 * so the same shape for varied arguments of one tool is guessing, whatever the tool or its language.
 *
 * This is the engine's own, knowing no error text: an adapter that knows its tools' errors hands the
 * engine a better one (`DomainAdapter.errorShape`, as the tool-call adapter does), and detectors
 * read the shape the engine chose from `ObservedOutcome.errorShape`.
 */
import { alignedDifferences } from '../identity/index.js';
import type { ObservedOutcome } from './types.js';

/** Long enough for any one error; a whole test log is cut, its head deciding. */
const MAX_SHAPED = 4_000;

const MASKS: readonly (readonly [RegExp, string])[] = [
  [
    /"(?:[^"\\]|\\.){0,2000}"|'(?:[^'\\\n]|\\.){0,2000}'|`[^`]{0,2000}`|“[^”]{0,2000}”|‘[^’\n]{0,2000}’/g,
    'Q',
  ],
  [/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>)\]]+/gi, 'U'],
  [/(?:~|\.{1,2})?(?:\/[\w.@+-]+)+\/?|\b[\w.@+-]+(?:\/[\w.@+-]+)+\/?/g, 'P'],
  [/\b[\w-]+\.[a-z][a-z0-9]{0,4}\b/gi, 'P'],
  [/(?<![\w-])--?[a-z][\w-]*/gi, 'F'],
  // Identifiers: with digits (`HAT217`, `W2378156`, hex), snake_case, camelCase.
  [/\b\w*\d\w*\b|\b[a-z]\w*_\w+\b/gi, 'X'],
  [/\b[a-z]+[A-Z]\w*\b/g, 'X'],
  [/\s+/g, ' '],
];

/** The masked shape of an error text, compared whole. */
export function errorShape(text: string): string {
  let shape = text.length > MAX_SHAPED ? text.slice(0, MAX_SHAPED) : text;
  for (const [pattern, mask] of MASKS) shape = shape.replace(pattern, mask);
  return shape.trim().toLowerCase();
}

/** The error shape of an outcome: the adapter's when the loop made it, the engine's otherwise. */
export function outcomeShape(outcome: ObservedOutcome): string {
  return outcome.errorShape ?? errorShape(outcome.content);
}

/** The outcome's error shape, left for later when the outcome can defer it, worked out now otherwise. */
export function deferredShape(outcome: ObservedOutcome): () => string {
  const deferred = outcome.deferredErrorShape?.();
  if (deferred !== undefined) return deferred;
  const shape = outcomeShape(outcome);
  return () => shape;
}

/** A placeholder an adapter's shape puts for a value (`<id>`, `<q>`), with the marks around it. */
const PLACEHOLDER = /^(\W*)<[a-z]+>(\W*)$/;
/**
 * Two error shapes as one, when they are one: equal, or equal word for word but where one has a
 * placeholder and the other a single word with the same marks around it (`(run <id>)` and `(run
 * xqzhwvkd)`): a value no mask could tell from a word (an id drawn without a digit) left in one of them.
 * At most two such places, in a shape of four words or more (see `alignedDifferences`). The result has
 * the placeholder there; undefined when the shapes differ otherwise.
 */
export function mergedShape(a: string, b: string): string | undefined {
  if (a === b) return a;
  const wordsA = a.split(' ');
  const wordsB = b.split(' ');
  const differing = alignedDifferences(
    wordsA,
    wordsB,
    (wordA, wordB) => (placeholderFor(wordA, wordB) ?? placeholderFor(wordB, wordA)) !== undefined,
  );
  if (differing === undefined) return undefined;
  const merged = [...wordsA];
  for (const index of differing) {
    const wordA = wordsA[index] as string;
    merged[index] = placeholderFor(wordA, wordsB[index] as string) ?? (wordsB[index] as string);
  }
  return merged.join(' ');
}

/** `masked` when it is a placeholder standing where `word` has one word with the same marks around it. */
function placeholderFor(masked: string, word: string): string | undefined {
  const match = PLACEHOLDER.exec(masked);
  if (match === null) return undefined;
  const before = match[1] as string;
  const after = match[2] as string;
  if (!word.startsWith(before) || !word.endsWith(after)) return undefined;
  const value = word.slice(before.length, word.length - after.length);
  return /^\w+$/.test(value) ? masked : undefined;
}
