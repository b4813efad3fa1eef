/**
 * Spellings of one command under a key looser than the call's own (its options left out, or the way
 * it is started), failing in a row the same way: the evidence that the spelling does not change what
 * the command does. The rules that keep such runs decide what "the same way" is; this is how a run
 * goes on or starts over.
 */

/** Spellings a run keeps, the latest, and the most failures it counts. */
export const MAX_RUN_SPELLINGS = 8;
export const MAX_RUN_FAILURES = 1_000;

export interface SpellingRun {
  /** The hashes of the spellings that failed so, each once, the latest few. */
  readonly spellings: readonly string[];
  /** How many failures, in a row under the key, failed so. */
  readonly failures: number;
}

/**
 * The run after the spelling `spelling` (a hash) failed: the earlier run gone on when the failure was
 * alike, the spelling moved to its end; a run of this spelling alone otherwise.
 */
export function runAfter(earlier: SpellingRun | undefined, alike: boolean, spelling: string): SpellingRun {
  if (earlier === undefined || !alike) return { spellings: [spelling], failures: 1 };
  return {
    spellings: [...earlier.spellings.filter((hash) => hash !== spelling), spelling].slice(-MAX_RUN_SPELLINGS),
    failures: Math.min(earlier.failures + 1, MAX_RUN_FAILURES),
  };
}
