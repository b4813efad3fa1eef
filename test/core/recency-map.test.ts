import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RecencyMap } from '../../src/core/recency-map.js';
import { growth } from '../growth.js';

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

  it('finds a key set again and again as fast as one set once, however often it was set', async () => {
    const map = new RecencyMap<string, number>();
    for (let key = 0; key < 20_000; key++) map.set(`constraint-${key}`, key);
    const renewed = ['constraint-3', 'constraint-7', 'constraint-11', 'constraint-19'];
    let found = 0;
    // Setting a handful of keys `scale` thousand times, reading each after it is set: linear work,
    // unless each setting made the keys longer to find.
    const ratio = await growth((scale) => {
      for (let step = 0; step < scale * 2_000; step++) {
        const key = renewed[step % renewed.length] as string;
        map.set(key, step);
        found += map.get(key) === step ? 1 : 0;
      }
    }, 8);
    expect(found).toBeGreaterThan(0);
    expect(ratio).toBeLessThan(24);
  });

  it('lets go of what an entry held once the entry leaves', () => {
    const map = new RecencyMap<string, { readonly payload: string }>();
    map.set('a', { payload: 'x' }).set('b', { payload: 'y' });
    const links = () => (map as unknown as { oldestLink?: { value?: unknown; newer?: unknown } }).oldestLink;
    const first = links();
    expect(first?.value).toEqual({ payload: 'x' });
    map.dropOldest();
    expect(first?.value).toBeUndefined();
    expect(first?.newer).toBeUndefined();
    expect([...map.keys()]).toEqual(['b']);
  });
});
