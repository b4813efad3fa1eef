/**
 * The shape of the blame catalogue's data. A family (network, TLS, HTTP, filesystem, VCS…) is a table
 * from failure kinds to the words that recognise them in that family; `kinds.ts` says what each kind
 * means (signature, blame, determinism, tier) and joins the families' words into one rule per kind.
 */

/** Every kind of failure the catalogue knows, in no particular order (`kinds.ts` orders them). */
export type FailureKind =
  | 'testsFailed'
  | 'compile'
  | 'dependencyConflict'
  | 'editAmbiguous'
  | 'edit'
  | 'editNoop'
  | 'staleRead'
  | 'outsideSandbox'
  | 'schema'
  | 'malformedHost'
  | 'timeout'
  | 'rateLimit'
  | 'quota'
  | 'permission'
  | 'resources'
  | 'unavailable'
  | 'toolFault'
  | 'brokenEnvironment'
  | 'locked'
  | 'harnessState'
  | 'cancelled'
  | 'serviceDown'
  | 'toolMissing'
  | 'parentMissing'
  | 'wrongDirectory'
  | 'fileMissing'
  | 'idMissing'
  | 'sql'
  | 'syntax'
  | 'usage'
  | 'validation'
  | 'conflict'
  | 'commandNotFound'
  | 'runtime'
  | 'empty'
  | 'command'
  | 'apiOther'
  | 'killed'
  | 'crashedServer';

/**
 * White space at the start of a line that stays on that line: what `^\s*` says where a pattern needs
 * it. `\s*` crosses line ends, so in a run of blank lines every line's start would read the rest of
 * the run again (time quadratic in the run, seconds for a few kilobytes of blank lines); a match
 * that crosses them starts as well at the last line end it crosses, where this one starts.
 */
export const LINE_INDENT = '[^\\S\\n\\r\\u2028\\u2029]*';

/** The words of one family for one kind. */
export interface Vocabulary {
  /**
   * Regex sources, written for lower-cased text (unless the kind is case-sensitive), `^` and `$` at
   * line ends. Anchored: a number is a status only where the text frames it as one.
   */
  readonly patterns: readonly string[];
  /**
   * Lower-case fragments of which every match of a pattern contains at least one: a text holding
   * none of them is not searched with the patterns.
   */
  readonly hints: readonly string[];
  /** HTTP statuses that mean this kind where the text frames them as statuses (`HTTP 429`). */
  readonly statuses?: readonly number[];
}

/** One family's words, by kind. */
export type FamilyTable = Readonly<Partial<Record<FailureKind, Vocabulary>>>;

/** The integers from `from` to `to`, both included: a class of HTTP statuses. */
export function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}
