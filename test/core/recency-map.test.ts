import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RecencyMap } from '../../src/core/recency-map.js';

describe('RecencyMap', () => {
  it('gives up its entries least recently set first, counting a key set again as new', () => {
    const map = new RecencyMap<string, number>();
    map.set('a', 1).set('b', 2).set('c', 3).set('a', 4);
    expect([map.shift(), map.shift(), map.shift(), map.shift()]).toEqual([2, 3, 4, undefined]);
  });

  it('lists its entries least recently set first', () => {
    const map = new RecencyMap<string, number>();
    map.set('a', 1).set('b', 2).set('c', 3).set('a', 4);
    map.delete('b');
    expect([...map]).toEqual([
      ['c', 3],
      ['a', 4],
    ]);
    expect([...map.values()]).toEqual([3, 4]);
  });

  it('appends a key it does not hold as the most recent entry', () => {
    const map = new RecencyMap<string, number>();
    map.set('a', 1).append('b', 2).set('c', 3).append('d', 4);
    map.set('b', 5);
    expect([...map]).toEqual([
      ['a', 1],
      ['c', 3],
      ['d', 4],
      ['b', 5],
    ]);
    expect(map.shift()).toBe(1);
  });

  it('keeps going after it was emptied and filled again', () => {
    const map = new RecencyMap<string, number>();
    map.set('a', 1);
    expect(map.shift()).toBe(1);
    expect(map.shift()).toBeUndefined();
    map.set('b', 2);
    map.clear();
    map.set('c', 3);
    expect(map.size).toBe(1);
    expect(map.shift()).toBe(3);
  });

  it('behaves as a list in order of setting under any mix of sets, deletions, shifts and drops', () => {
    const operation = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), key: fc.integer({ min: 0, max: 20 }) }),
      fc.record({ kind: fc.constant('delete' as const), key: fc.integer({ min: 0, max: 20 }) }),
      fc.record({ kind: fc.constant('shift' as const) }),
      fc.record({ kind: fc.constant('drop' as const) }),
      fc.record({ kind: fc.constant('clear' as const) }),
    );
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 400 }), (operations) => {
        const map = new RecencyMap<number, number>();
        let model: [number, number][] = [];
        operations.forEach((operation, step) => {
          if (operation.kind === 'set') {
            map.set(operation.key, step);
            model = [...model.filter(([key]) => key !== operation.key), [operation.key, step]];
          } else if (operation.kind === 'delete') {
            expect(map.delete(operation.key)).toBe(model.some(([key]) => key === operation.key));
            model = model.filter(([key]) => key !== operation.key);
          } else if (operation.kind === 'shift') {
            expect(map.shift()).toBe(model.shift()?.[1]);
          } else if (operation.kind === 'drop') {
            map.dropOldest();
            model.shift();
          } else {
            map.clear();
            model = [];
          }
          expect([...map]).toEqual(model);
          expect(map.size).toBe(model.length);
        });
      }),
    );
  });

  it('lets its eviction cursor go when the map keeps changing without evictions', () => {
    const map = new RecencyMap<number, number>();
    for (let key = 0; key < 10; key++) map.set(key, key);
    map.shift();
    const cursor = () => (map as unknown as { cursor?: unknown }).cursor;
    expect(cursor()).toBeDefined();
    // Renewing entries makes the map outgrow tables that a standing cursor would keep alive.
    for (let step = 0; step < 5_000; step++) map.set(step % 9, step);
    expect(cursor()).toBeUndefined();
    expect(map.shift()).toBe(9);
    expect(map.shift()).toBe(4_991);
  });
});
