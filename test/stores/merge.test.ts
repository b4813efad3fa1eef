import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Constraint, PersistedState } from '../../src/core/types.js';
import { EMPTY_STATE, mergePersistedStates, pruneLiftedMarks } from '../../src/stores/merge.js';
import { missingFile, stateOf } from './sample-state.js';

const paths = ['src/config.ts', 'src/db/pool.ts', 'README.md', 'docs/setup.md'];

const constraintArb: fc.Arbitrary<Constraint> = fc
  .record({
    path: fc.constantFrom(...paths),
    lastAt: fc.integer({ min: 1_000, max: 1_010 }),
    age: fc.integer({ min: 0, max: 3 }),
    strikes: fc.integer({ min: 0, max: 2 }),
  })
  .map(({ path, lastAt, age, strikes }) => missingFile(path, lastAt, { createdAt: lastAt - age, strikes }));

const stateArb: fc.Arbitrary<PersistedState> = fc
  .record({
    constraints: fc.array(constraintArb, { maxLength: 6 }),
    lifted: fc.array(
      fc.record({
        id: fc.constantFrom(...paths.map((path) => `target-missing:${path}`)),
        at: fc.integer({ min: 1_000, max: 1_010 }),
      }),
      { maxLength: 3 },
    ),
    savedAt: fc.integer({ min: 0, max: 5 }),
  })
  .map(({ constraints, lifted, savedAt }) => stateOf(constraints, lifted, savedAt));

const merge = mergePersistedStates;

describe('mergePersistedStates', () => {
  it('gives the same result whichever side comes first', () => {
    fc.assert(
      fc.property(stateArb, stateArb, (a, b) => {
        expect(merge(a, b)).toEqual(merge(b, a));
      }),
    );
  });

  it('gives the same result however three states are grouped', () => {
    fc.assert(
      fc.property(stateArb, stateArb, stateArb, (a, b, c) => {
        expect(merge(merge(a, b), c)).toEqual(merge(a, merge(b, c)));
      }),
    );
  });

  it('changes nothing when a merged state is merged with itself', () => {
    fc.assert(
      fc.property(stateArb, stateArb, (a, b) => {
        const merged = merge(a, b);
        expect(merge(merged, merged)).toEqual(merged);
        expect(merge(merged, a)).toEqual(merged);
      }),
    );
  });

  it('never keeps a constraint that a lifted mark at or after its last evidence removed', () => {
    fc.assert(
      fc.property(stateArb, stateArb, (a, b) => {
        const merged = merge(a, b);
        for (const mark of [...a.lifted, ...b.lifted]) {
          const kept = merged.constraints.find((constraint) => constraint.id === mark.id);
          if (kept !== undefined) expect(kept.evidence.lastAt).toBeGreaterThan(mark.at);
        }
      }),
    );
  });

  it('keeps, for every id, the copy with the newest evidence unless it was lifted', () => {
    fc.assert(
      fc.property(stateArb, stateArb, (a, b) => {
        const merged = merge(a, b);
        for (const constraint of [...a.constraints, ...b.constraints]) {
          const liftedAt = Math.max(
            -1,
            ...[...a.lifted, ...b.lifted].filter((mark) => mark.id === constraint.id).map((mark) => mark.at),
          );
          const kept = merged.constraints.find((other) => other.id === constraint.id);
          if (constraint.evidence.lastAt > liftedAt) {
            expect(kept).toBeDefined();
            expect(kept!.evidence.lastAt).toBeGreaterThanOrEqual(constraint.evidence.lastAt);
          }
        }
      }),
    );
  });

  it('lets a constraint learned again after it was lifted come back', () => {
    const lifted = stateOf([], [{ id: 'target-missing:src/config.ts', at: 2_000 }]);
    const relearned = stateOf([missingFile('src/config.ts', 2_500)]);
    expect(merge(lifted, relearned).constraints.map((constraint) => constraint.evidence.lastAt)).toEqual([
      2_500,
    ]);
  });

  it('prefers the later creation when two copies have the same last evidence', () => {
    const older = missingFile('src/config.ts', 2_000, { createdAt: 1_000, strikes: 0 });
    const newer = missingFile('src/config.ts', 2_000, { createdAt: 1_500, strikes: 1 });
    expect(merge(stateOf([newer]), stateOf([older])).constraints).toEqual([newer]);
  });

  it('keeps the latest savedAt and the latest time each constraint was lifted', () => {
    const a = stateOf([], [{ id: 'x', at: 5 }], 10);
    const b = stateOf([], [{ id: 'x', at: 7 }], 20);
    expect(merge(a, b)).toEqual(stateOf([], [{ id: 'x', at: 7 }], 20));
  });
});

describe('pruneLiftedMarks', () => {
  it('forgets marks older than the retention period and keeps the newest ones up to the cap', () => {
    const day = 24 * 60 * 60 * 1000;
    const now = 100 * day;
    const state = stateOf(
      [],
      [
        { id: 'old', at: now - 31 * day },
        { id: 'a', at: now - 3 * day },
        { id: 'b', at: now - 2 * day },
        { id: 'c', at: now - 1 * day },
      ],
    );
    expect(pruneLiftedMarks(state, now, { maxMarks: 2 }).lifted.map((mark) => mark.id)).toEqual(['b', 'c']);
  });

  it('returns the same state when nothing needs forgetting', () => {
    const state = mergePersistedStates(EMPTY_STATE, stateOf([], [{ id: 'a', at: 1_000 }]));
    expect(pruneLiftedMarks(state, 2_000)).toBe(state);
  });
});
