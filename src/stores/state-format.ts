/**
 * The version of the state narrowing keeps outside a process (the state file, SQLite rows, Redis
 * entries, session files), and the steps that bring an older one up to it. One module, so that
 * every change of what is persisted joins the same version and the same migration:
 *
 * - 1: the first format.
 * - 2: an edit's search text (`needle`) is never kept in clear: `needleHash` and a short redacted
 *   `needleExcerpt` take its place.
 * - 3: keys hash texts of 256 characters or more with SHA-256 (hash generation 2, see
 *   `HASH_GENERATION`), and a call ban says so (`keyHash: 2`). A key is a hash: one written by an
 *   older version cannot be recomputed from it, so such bans are kept as they are, with no
 *   `keyHash`, and the engine finds them by computing a call's older key as well, for calls that
 *   hashed a long text while such bans are held; one found that way is keyed anew, and saved so.
 *   Keys of shorter texts are the same in every version. Within version 3, an adapter may key a
 *   call otherwise than it did (a command's `--` after an operand, and a quoted word holding a
 *   blank, are kept): a ban learned since says `keyHash: 3` (`KEY_GENERATION`), and one learned
 *   before is found by the call's older key, as the adapter gives it, and keyed anew.
 *
 * A store reads every version from `OLDEST_STATE_VERSION` up to `STATE_VERSION` (a fleet may run
 * builds of both), rewrites what it finds of an older one when it opens, and writes the latest.
 * Journals are never rewritten: their lines are receipts, and verify in whichever version wrote them.
 */
import { persistableConstraint } from '../core/secrets.js';
import type { Constraint } from '../core/types.js';

/** The version this build writes. */
export const STATE_VERSION = 3;
/** The oldest version this build reads (and migrates). */
export const OLDEST_STATE_VERSION = 1;

export function isReadableStateVersion(version: unknown): version is number {
  return (
    typeof version === 'number' &&
    Number.isInteger(version) &&
    version >= OLDEST_STATE_VERSION &&
    version <= STATE_VERSION
  );
}

/**
 * A constraint as this version keeps it, from one read in any readable version (or held in
 * memory): version 1's clear `needle` becomes version 2's hash and excerpt, and the evidence is
 * redacted. Idempotent.
 */
export function toStoredConstraint(constraint: Constraint): Constraint {
  return persistableConstraint(constraint);
}

/**
 * Whether a stored constraint's text must be rewritten in this version's form: one of version 1
 * holds its search text in clear. A ban of version 2 is read as it is (its keys cannot be remade).
 */
export function isOlderStoredText(text: string): boolean {
  return text.includes('"needle":');
}
