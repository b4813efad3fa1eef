/**
 * What a shared store last knew of the shared state: the copy that answers while the database or
 * the server is away, and the yardstick that tells what changed. Taking in a state gives back only
 * what was new to the copy, so a write sends a few rows instead of the whole state, and a message
 * from another agent reaches the engine only when it says something new.
 */
import type { Constraint, LiftedMark, PersistedState } from '../core/types.js';
import { newer } from './merge.js';

export class LocalCopy {
  private readonly constraints = new Map<string, Constraint>();
  private readonly lifted = new Map<string, number>();
  private savedAt = 0;

  get size(): number {
    return this.constraints.size;
  }

  /** Merges `state` in; returns what was new to this copy, `undefined` when nothing was. */
  absorb(state: PersistedState): PersistedState | undefined {
    const lifted: LiftedMark[] = [];
    for (const mark of state.lifted) {
      const known = this.lifted.get(mark.id);
      if (known !== undefined && known >= mark.at) continue;
      this.lifted.set(mark.id, mark.at);
      lifted.push(mark);
      const current = this.constraints.get(mark.id);
      if (current && current.evidence.lastAt <= mark.at) this.constraints.delete(mark.id);
    }
    const constraints: Constraint[] = [];
    for (const constraint of state.constraints) {
      const liftedAt = this.lifted.get(constraint.id);
      if (liftedAt !== undefined && liftedAt >= constraint.evidence.lastAt) continue;
      const current = this.constraints.get(constraint.id);
      if (current && (sameVersion(current, constraint) || newer(current, constraint) === current)) continue;
      this.constraints.set(constraint.id, constraint);
      constraints.push(constraint);
    }
    this.savedAt = Math.max(this.savedAt, state.savedAt);
    if (constraints.length === 0 && lifted.length === 0) return undefined;
    return { version: 1, savedAt: state.savedAt, constraints, lifted };
  }

  state(): PersistedState {
    return {
      version: 1,
      savedAt: this.savedAt,
      constraints: [...this.constraints.values()],
      lifted: [...this.lifted].map(([id, at]) => ({ id, at })),
    };
  }
}

/**
 * The fields an engine changes on a constraint it keeps (its key too, when it re-keys a ban an older
 * version wrote): equal in all of them, two copies say the
 * same thing, and the exact comparison (which serialises both) is skipped. Every save exports the
 * whole state, so this is what keeps a save of 40,000 unchanged constraints cheap.
 */
function sameVersion(a: Constraint, b: Constraint): boolean {
  return (
    a.evidence.lastAt === b.evidence.lastAt &&
    a.callKey === b.callKey &&
    a.keyHash === b.keyHash &&
    a.createdAt === b.createdAt &&
    a.expiresAt === b.expiresAt &&
    a.strikes === b.strikes &&
    a.probation === b.probation &&
    a.evidence.failures === b.evidence.failures
  );
}

/** Several partial states as one (later ones win where they are newer). */
export function combineChanges(parts: readonly PersistedState[]): PersistedState | undefined {
  if (parts.length === 0) return undefined;
  if (parts.length === 1) return parts[0];
  const copy = new LocalCopy();
  for (const part of parts) copy.absorb(part);
  return copy.state();
}
