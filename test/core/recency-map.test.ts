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

  it('goes on reading in the order a Map would when entries change while it reads', () => {
    const map = new RecencyMap<string, number>();
    const model = new Map<string, number>();
    for (const [key, value] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
      ['d', 4],
    ] as const) {
      map.set(key, value);
      model.set(key, value);
    }
    const read: string[] = [];
    const expected: string[] = [];
    for (const [key] of map) {
      read.push(key);
      if (read.length === 2) {
        // `b` set again (as a Map does it: deleted and set), `c` deleted, the last one deleted, one added.
        map.set('b', 5);
        map.delete('c');
        map.delete('d');
        map.set('e', 6);
      }
    }
    for (const [key] of model) {
      expected.push(key);
      if (expected.length === 2) {
        model.delete('b');
        model.set('b', 5);
        model.delete('c');
        model.delete('d');
        model.set('e', 6);
      }
    }
    expect(read).toEqual(expected);
  });

  it('sets a key it holds again in constant time, however many times it was set before', () => {
    // Sixteen times the settings, in a map sixteen times larger, cost about sixteen times as long; a
    // chain of every earlier setting, walked each time, costs 256 times. The bound sits a factor of
    // four from each. The large size is timed in sixteen slices, each as much work as the small size's
    // run: a machine busy with other processes takes the processor from a long run in every round,
    // from a short one in a few, so the least time of each slice over seven rounds is the slice's own
    // cost, as the small size's is. A slice costs what the settings before it made it cost, so their
    // sum keeps the growth a chain would bring. The maps are filled before the clock starts.
    const rounds = 7;
    const slices = 16;
    const settings = 10_000;
    const filled = (scale: number) => {
      const map = new RecencyMap<string, number>();
      for (let key = 0; key < 2_000 * scale; key++) map.append(`constraint-${key}`, key);
      return map;
    };
    const setAgain = (map: RecencyMap<string, number>, from: number): number => {
      const started = performance.now();
      for (let step = from; step < from + settings; step++) map.set(step % 2 === 0 ? 'read' : 'edit', step);
      return performance.now() - started;
    };
    let small = Number.POSITIVE_INFINITY;
    const large = new Array<number>(slices).fill(Number.POSITIVE_INFINITY);
    for (let round = 0; round < rounds; round++) {
      small = Math.min(small, setAgain(filled(1), 0));
      const map = filled(slices);
      for (let slice = 0; slice < slices; slice++)
        large[slice] = Math.min(large[slice] as number, setAgain(map, slice * settings));
    }
    // Below a twentieth of a millisecond the clock's own grain decides the ratio.
    const ratio = large.reduce((sum, time) => sum + time, 0) / Math.max(small, 0.05);
    expect(ratio).toBeLessThan(64);
  });
});
