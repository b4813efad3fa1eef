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

/**
 * A value as an adapter's shape leaves it, with the marks around it: a placeholder (`<id>`, `<q>`), or
 * a value whose mask took only part of it (`inv-<id>` for `INV-1001`, `#<id>` for `#1001`).
 */
const MASKED_VALUE = /^(\W*)((?:[\w#-]*?<([a-z]+)>)+[\w#-]*)(\W*)$/;
/** One value: word characters, `#` and `-`, and placeholders, nothing else. */
const VALUE = /^(?:[\w#-]|<[a-z]+>)+$/;
/**
 * Two error shapes as one, when they are one: equal, or equal word for word but where one has a
 * masked value and the other a single value with the same marks around it (`(run <id>)` and `(run
 * xqzhwvkd)`; `invoice inv-<id>` and `invoice <id>`, from `INV-1001` and `inv_1001`): a value no mask
 * could tell from a word (an id drawn without a digit), or one a mask took only part of, left in one
 * of them. At most two such places, in a shape of four words or more (see `alignedDifferences`). The
 * result has the placeholder there; undefined when the shapes differ otherwise.
 */
export function mergedShape(a: string, b: string): string | undefined {
  if (a === b) return a;
  const wordsA = a.split(' ');
  const wordsB = b.split(' ');
  const differing = alignedDifferences(
    wordsA,
    wordsB,
    (wordA, wordB) => mergedValue(wordA, wordB) !== undefined,
  );
  if (differing === undefined) return undefined;
  const merged = [...wordsA];
  for (const index of differing)
    merged[index] = mergedValue(wordsA[index] as string, wordsB[index] as string) as string;
  return merged.join(' ');
}

/** The placeholder two words are one value under, either way round. */
function mergedValue(wordA: string, wordB: string): string | undefined {
  return placeholderFor(wordA, wordB) ?? placeholderFor(wordB, wordA);
}

/**
 * The placeholder, with its marks, when `masked` is a masked value standing where `word` has one
 * value with the same marks around it.
 */
function placeholderFor(masked: string, word: string): string | undefined {
  const match = MASKED_VALUE.exec(masked);
  if (match === null) return undefined;
  const before = match[1] as string;
  const after = match[4] as string;
  if (!word.startsWith(before) || !word.endsWith(after)) return undefined;
  const value = word.slice(before.length, word.length - after.length);
  return VALUE.test(value) ? `${before}<${match[3] as string}>${after}` : undefined;
}
