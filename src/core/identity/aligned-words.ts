/**
 * Two texts read word by word, for telling one answer or one error written twice from two: the same
 * words but in a place or two, where each pair is one value the caller recognises (a placeholder a
 * mask put beside the word it missed, two drawn ids).
 */

/** Words two texts must have before they are read side by side. */
const MIN_ALIGNED_WORDS = 4;
/** Places two aligned texts may differ in. */
const MAX_DIFFERING = 2;

/**
 * The places where `wordsA` and `wordsB` differ, when they have as many words (four or more) and
 * differ in at most two places, each a pair `sameValue` takes as one; undefined otherwise.
 */
export function alignedDifferences(
  wordsA: readonly string[],
  wordsB: readonly string[],
  sameValue: (a: string, b: string) => boolean,
): number[] | undefined {
  if (wordsA.length !== wordsB.length || wordsA.length < MIN_ALIGNED_WORDS) return undefined;
  const differing: number[] = [];
  for (let index = 0; index < wordsA.length; index++) {
    const wordA = wordsA[index] as string;
    const wordB = wordsB[index] as string;
    if (wordA === wordB) continue;
    if (!sameValue(wordA, wordB) || differing.push(index) > MAX_DIFFERING) return undefined;
  }
  return differing;
}
