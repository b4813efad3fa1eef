import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LruMap } from '../../../src/core/detectors/bounded.js';

describe('LruMap', () => {
  it('forgets the entry written least recently once full, counting a rewrite as new', () => {
    const map = new LruMap<number>(2);
    map.set('read_file', 1);
    map.set('bash', 2);
    map.set('read_file', 3);
    map.set('edit_file', 4);
    expect(map.entries()).toEqual([
      ['read_file', 3],
      ['edit_file', 4],
    ]);
  });

  it('trims to a smaller size from the oldest end', () => {
    const map = new LruMap<number>(10);
    for (const [index, key] of ['a', 'b', 'c', 'd'].entries()) map.set(key, index);
    map.trim(2);
    expect([...map.values()]).toEqual([2, 3]);
  });

  it('agrees with a list of keys by last write that keeps `capacity`, for any sequence of writes, deletes and trims', () => {
    const key = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f');
    const step = fc.oneof(
      fc.record({ op: fc.constant('set' as const), key, value: fc.integer({ min: 0, max: 9 }) }),
      fc.record({ op: fc.constant('delete' as const), key, value: fc.constant(0) }),
      fc.record({ op: fc.constant('trim' as const), key, value: fc.integer({ min: 0, max: 5 }) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.array(step, { maxLength: 200 }), (capacity, steps) => {
        const map = new LruMap<number>(capacity);
        const model = new Map<string, number>();
        for (const { op, key: name, value } of steps) {
          if (op === 'set') {
            map.set(name, value);
            model.delete(name);
            if (model.size === capacity) model.delete(model.keys().next().value as string);
            model.set(name, value);
          } else if (op === 'delete') {
            map.delete(name);
            model.delete(name);
          } else {
            map.trim(value);
            while (model.size > value) model.delete(model.keys().next().value as string);
          }
          expect(map.entries()).toEqual([...model]);
          for (const candidate of ['a', 'b', 'c', 'd', 'e', 'f'])
            expect(map.peek(candidate)).toBe(model.get(candidate));
        }
      }),
      { numRuns: 300 },
    );
  });
});
