/** Which learned constraints a person means when they name one to forget. */
import type { Constraint } from '../core/types.js';

/** An id prefix shorter than this could name many constraints by accident. */
const MIN_ID_PREFIX = 6;

function plainTarget(target: string): string {
  return target.replace(/^(?:\.\/)+/, '').replace(/\/+$/, '');
}

/**
 * A constraint is meant when a selector is its id, a prefix of its id of at least six characters
 * (as `inspect` shows them), or its target (`src/a.ts` and `./src/a.ts` alike).
 */
export function constraintSelector(selectors: readonly string[]): (constraint: Constraint) => boolean {
  const ids = selectors.filter((selector) => selector.length >= MIN_ID_PREFIX);
  const targets = new Set(selectors.map(plainTarget));
  return (constraint) =>
    ids.some((id) => constraint.id.startsWith(id)) ||
    (constraint.target !== undefined && targets.has(plainTarget(constraint.target)));
}

/**
 * Which of the constraints just forgotten a fresh look at the store still finds in force: another
 * process wrote them back, or a store kept them. `forget` reports these rather than claim them gone.
 */
export function stillInForce(
  forgotten: readonly Constraint[],
  activeNow: readonly Constraint[],
): Constraint[] {
  const active = new Set(activeNow.map((constraint) => constraint.id));
  return forgotten.filter((constraint) => active.has(constraint.id));
}
