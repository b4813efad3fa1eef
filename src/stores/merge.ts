/**
 * Merging two copies of persisted state, written by different processes or at different times.
 * The merge is a join: commutative, associative and idempotent, so the order in which processes
 * write never changes the result, and a stale copy can never bring back a lifted constraint.
 */
import { canonicalJson } from '../core/identity/index.js';
import type { Constraint, LiftedMark, PersistedState } from '../core/types.js';

export const EMPTY_STATE: PersistedState = { version: 1, savedAt: 0, constraints: [], lifted: [] };

export function mergePersistedStates(a: PersistedState, b: PersistedState): PersistedState {
  const marks = new Map<string, number>();
  for (const mark of [...a.lifted, ...b.lifted]) {
    const seen = marks.get(mark.id);
    if (seen === undefined || mark.at > seen) marks.set(mark.id, mark.at);
  }
  const winners = new Map<string, Constraint>();
  for (const constraint of [...a.constraints, ...b.constraints]) {
    const seen = winners.get(constraint.id);
    winners.set(constraint.id, seen === undefined ? constraint : newer(seen, constraint));
  }
  const constraints = [...winners.values()]
    .filter((constraint) => {
      const liftedAt = marks.get(constraint.id);
      // Learned again after it was lifted: the newer evidence stands.
      return liftedAt === undefined || constraint.evidence.lastAt > liftedAt;
    })
    .sort(byId);
  const lifted = [...marks].map(([id, at]): LiftedMark => ({ id, at })).sort(byId);
  return { version: 1, savedAt: Math.max(a.savedAt, b.savedAt), constraints, lifted };
}

export interface LiftedRetention {
  /** How many lifted marks to keep, newest first. */
  readonly maxMarks?: number;
  readonly maxAgeMs?: number;
}

const DEFAULT_MAX_MARKS = 10_000;
const DEFAULT_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Lifted marks are kept only for a while: a copy of the state older than that could revive what
 * they lifted, which is the price of a bounded file. Kept apart from the merge so the merge stays
 * a join.
 */
export function pruneLiftedMarks(
  state: PersistedState,
  now: number,
  { maxMarks = DEFAULT_MAX_MARKS, maxAgeMs = DEFAULT_MAX_AGE_MS }: LiftedRetention = {},
): PersistedState {
  const oldest = now - maxAgeMs;
  const recent = state.lifted.filter((mark) => mark.at >= oldest);
  if (recent.length === state.lifted.length && recent.length <= maxMarks) return state;
  const kept = recent
    .sort((x, y) => y.at - x.at || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))
    .slice(0, maxMarks)
    .sort(byId);
  return { ...state, lifted: kept };
}

/** A total order on copies of one constraint: fresher evidence first, then the later creation. */
export function newer(x: Constraint, y: Constraint): Constraint {
  if (x === y) return x;
  if (x.evidence.lastAt !== y.evidence.lastAt) return x.evidence.lastAt > y.evidence.lastAt ? x : y;
  if (x.createdAt !== y.createdAt) return x.createdAt > y.createdAt ? x : y;
  // The same ban, keyed anew by a later hash generation (see `adoptOlderKey`): the newer key stands.
  if ((x.keyHash ?? 1) !== (y.keyHash ?? 1)) return (x.keyHash ?? 1) > (y.keyHash ?? 1) ? x : y;
  // Same times, different content: any fixed choice keeps the merge commutative.
  return canonicalJson(x) >= canonicalJson(y) ? x : y;
}

function byId(x: { readonly id: string }, y: { readonly id: string }): number {
  return x.id < y.id ? -1 : x.id > y.id ? 1 : 0;
}

/**
 * At most `max` constraints, the ones that failed most recently (as the engine keeps the most recent
 * in memory): without a bound the file would keep every constraint any process ever wrote.
 */
export function boundConstraints(state: PersistedState, max: number): PersistedState {
  if (state.constraints.length <= max) return state;
  const kept = [...state.constraints]
    .sort((x, y) => y.evidence.lastAt - x.evidence.lastAt || byId(x, y))
    .slice(0, Math.max(0, max))
    .sort(byId);
  return { ...state, constraints: kept };
}
