import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GenerationalMap, LruMap } from '../../../src/core/detectors/bounded.js';

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

  it('agrees with a list of keys by last write that keeps `capacity`, for any sequence of writes, adds, deletes and trims', () => {
    const key = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f');
    const step = fc.oneof(
      fc.record({ op: fc.constant('set' as const), key, value: fc.integer({ min: 0, max: 9 }) }),
      fc.record({ op: fc.constant('delete' as const), key, value: fc.constant(0) }),
      fc.record({ op: fc.constant('trim' as const), key, value: fc.integer({ min: 0, max: 5 }) }),
      fc.record({ op: fc.constant('add' as const), key, value: fc.integer({ min: 0, max: 9 }) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.array(step, { maxLength: 200 }), (capacity, steps) => {
        const map = new LruMap<number>(capacity);
        const model = new Map<string, number>();
        for (const { op, key: name, value } of steps) {
          if (op === 'set' || op === 'add') {
            // `add` is for a key a peek has just not found; for one the map holds, it is a `set`.
            if (op === 'add' && map.peek(name) === undefined) map.add(name, value);
            else map.set(name, value);
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

describe('GenerationalMap', () => {
  it('remembers at least the last half of its capacity and never more than all of it, for any writes', () => {
    const keys = fc.array(fc.constantFrom('a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts', 'f.ts', 'g.ts', 'h.ts'), {
      maxLength: 60,
    });
    fc.assert(
      fc.property(keys, fc.integer({ min: 2, max: 8 }), (writes, capacity) => {
        const map = new GenerationalMap<number>(capacity);
        const lastWrite = new Map<string, number>();
        for (const [index, key] of writes.entries()) {
          map.set(key, index);
          lastWrite.set(key, index);
        }
        const byRecency = [...lastWrite.entries()].sort((a, b) => b[1] - a[1]);
        // The most recent half: each reads back as last written.
        for (const [key, index] of byRecency.slice(0, Math.floor(capacity / 2)))
          expect(map.get(key)).toBe(index);
        // Whatever is remembered is the last value written, and no more keys than the capacity.
        const remembered = byRecency.filter(([key]) => map.get(key) !== undefined);
        for (const [key, index] of remembered) expect(map.get(key)).toBe(index);
        expect(remembered.length).toBeLessThanOrEqual(capacity);
      }),
    );
  });

  it('keeps the guarantees of a write for an update, whether it changes what it finds or not, for any mix of the two', () => {
    const key = fc.constantFrom('a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts', 'f.ts', 'g.ts', 'h.ts');
    const step = fc.record({ update: fc.constantFrom('keep', 'change', 'none'), key });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), fc.integer({ min: 2, max: 8 }), (steps, capacity) => {
        const map = new GenerationalMap<number>(capacity);
        const lastWrite = new Map<string, { at: number; value: number }>();
        for (const [index, { update, key: name }] of steps.entries()) {
          let value = index;
          if (update !== 'none') {
            const before = map.get(name);
            let given: number | undefined = -1;
            map.update(
              name,
              (held, at: number) => {
                given = held;
                return update === 'keep' ? (held ?? at) : at;
              },
              index,
            );
            expect(given).toBe(before);
            value = update === 'keep' ? (before ?? index) : index;
            expect(map.get(name)).toBe(value);
          } else {
            map.set(name, index);
          }
          lastWrite.set(name, { at: index, value });
        }
        const byRecency = [...lastWrite.entries()].sort((a, b) => b[1].at - a[1].at);
        for (const [name, { value }] of byRecency.slice(0, Math.floor(capacity / 2)))
          expect(map.get(name)).toBe(value);
        const remembered = byRecency.filter(([name]) => map.get(name) !== undefined);
        for (const [name, { value }] of remembered) expect(map.get(name)).toBe(value);
        expect(remembered.length).toBeLessThanOrEqual(capacity);
      }),
    );
  });

  it('hands an update the value it was given beside what it holds, so that one function serves every call', () => {
    const map = new GenerationalMap<string[]>(8);
    const withSpelling = (held: string[] | undefined, path: string) => [...(held ?? []), path];
    map.update('a.ts', withSpelling, 'src/a.ts');
    map.update('a.ts', withSpelling, '/repo/src/a.ts');
    expect(map.get('a.ts')).toEqual(['src/a.ts', '/repo/src/a.ts']);
  });

  it('forgets everything when cleared', () => {
    const map = new GenerationalMap<number>(4);
    for (const [index, key] of ['a.ts', 'b.ts', 'c.ts'].entries()) map.set(key, index);
    map.clear();
    expect(['a.ts', 'b.ts', 'c.ts'].map((key) => map.get(key))).toEqual([undefined, undefined, undefined]);
  });
});
