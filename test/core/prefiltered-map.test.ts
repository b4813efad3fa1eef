import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PrefilteredMap } from '../../src/core/prefiltered-map.js';

describe('PrefilteredMap', () => {
  it('finds every key of a large map and turns away keys it never held', () => {
    const map = new PrefilteredMap<number>();
    for (let index = 0; index < 20_000; index++) map.set(`src/orders/module-${index}.ts`, index);
    const found = Array.from({ length: 20_000 }, (_, index) => map.get(`src/orders/module-${index}.ts`));
    expect(found.every((value, index) => value === index)).toBe(true);
    expect(map.get('src/orders/module-20000.ts')).toBeUndefined();
  });

  it('forgets deleted keys, before and after its filter is rebuilt', () => {
    const map = new PrefilteredMap<string>(8);
    for (let index = 0; index < 40; index++) map.set(`k${index}`, `v${index}`);
    for (let index = 0; index < 35; index++) map.delete(`k${index}`);
    expect([map.size, map.get('k3'), map.get('k36')]).toEqual([5, undefined, 'v36']);
  });

  it('agrees with a Map for any sequence of sets and deletes', () => {
    const key = fc.integer({ min: 0, max: 60 }).map((index) => `target-${index}`);
    const step = fc.record({ key, remove: fc.boolean(), value: fc.integer() });
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 20 }),
        fc.array(step, { maxLength: 400 }),
        (filterFrom, steps) => {
          const map = new PrefilteredMap<number>(filterFrom);
          const model = new Map<string, number>();
          for (const { key: target, remove, value } of steps) {
            if (remove) expect(map.delete(target)).toBe(model.delete(target));
            else {
              map.set(target, value);
              model.set(target, value);
            }
            expect(map.size).toBe(model.size);
          }
          for (let index = 0; index <= 60; index++)
            expect(map.get(`target-${index}`)).toBe(model.get(`target-${index}`));
        },
      ),
      { numRuns: 300 },
    );
  });
});
