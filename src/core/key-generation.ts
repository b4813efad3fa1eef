/**
 * Generations of the keys call bans are learned under, each ban saying its own (`keyHash`):
 *
 * - 1 (written as no `keyHash`): every text hashed by the 64-bit hash written here;
 * - 2: texts of `LONG_TEXT` characters or more hashed by SHA-256 (`HASH_GENERATION`);
 * - 3: an adapter may key a call otherwise than it did (`CallFacts.olderFailureKey`).
 *
 * A ban of an earlier generation is found by the key that generation gave the call, and is keyed
 * anew when it is.
 */
export const KEY_GENERATION = 3;

/** The generation a stored ban's key was computed in. */
export function keyGenerationOf(keyHash: number | undefined): number {
  return keyHash ?? 1;
}
