import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HashMemory } from '../../src/core/hash-memory.js';
import { hashLanes, withLegacyHash } from '../../src/core/identity/hashing.js';

describe('HashMemory', () => {
  it('holds the value a key was last set to, and no other', () => {
    const memory = new HashMemory(8);
    memory.set('src/app.ts', 'edit_file#a1');
    memory.set('src/app.ts', 'edit_file#b2');
    expect([memory.holds('src/app.ts', 'edit_file#b2'), memory.holds('src/app.ts', 'edit_file#a1')]).toEqual([
      true,
      false,
    ]);
  });

  it('forgets the key set least recently once full, counting a key set again as new', () => {
    const memory = new HashMemory(2);
    memory.set('a.ts', '1');
    memory.set('b.ts', '2');
    memory.set('a.ts', '3');
    memory.set('c.ts', '4');
    expect([memory.holds('a.ts', '3'), memory.holds('b.ts', '2'), memory.holds('c.ts', '4')]).toEqual([
      true,
      false,
      true,
    ]);
  });

  it('asks about a key by the hash of the generation it is asked in, after the same key was asked about in another', () => {
    const memory = new HashMemory(8);
    // Long enough to be hashed otherwise by generation 1: a command line of a few hundred characters.
    const command = `python3 -c "${'print(1); '.repeat(40)}"`;
    const legacy = withLegacyHash(() => {
      const lanes = hashLanes(command);
      return [lanes.high, lanes.low];
    });
    const current = hashLanes(command);
    expect([current.high, current.low]).not.toEqual(legacy);
    memory.set(command, 'run#1');
    expect([withLegacyHash(() => memory.holds(command, 'run#1')), memory.holds(command, 'run#1')]).toEqual([
      false,
      true,
    ]);
  });

  it('restores what it saved, in the same order', () => {
    const memory = new HashMemory(3);
    for (const [key, value] of [
      ['a', '1'],
      ['b', '2'],
      ['c', '3'],
    ])
      memory.set(key as string, value as string);
    const copy = new HashMemory(3);
    copy.restore(JSON.parse(JSON.stringify(memory.entries())));
    copy.set('d', '4');
    expect([copy.holds('a', '1'), copy.holds('b', '2'), copy.holds('c', '3'), copy.holds('d', '4')]).toEqual([
      false,
      true,
      true,
      true,
    ]);
  });

  it('skips saved entries that are not four 32-bit integers', () => {
    const memory = new HashMemory(4);
    memory.restore([[1, 2, 3], 'x', [1, 2, 3, 2 ** 40], [1, 2, 3, 4]]);
    expect(memory.size).toBe(1);
  });

  it('agrees with a list of keys by last write that keeps `capacity` and forgets any not written in twice that many sets', () => {
    const set = fc.record({
      key: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
      value: fc.constantFrom('1', '2'),
    });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.array(set, { maxLength: 100 }), (capacity, sets) => {
        const memory = new HashMemory(capacity);
        const model = new Map<string, { value: string; at: number }>();
        sets.forEach(({ key, value }, at) => {
          memory.set(key, value);
          model.delete(key);
          if (model.size === capacity) model.delete(model.keys().next().value as string);
          model.set(key, { value, at });
          for (const [held, { at: written }] of model) if (written <= at - capacity * 2) model.delete(held);
          for (const candidate of ['a', 'b', 'c', 'd', 'e']) {
            for (const expected of ['1', '2'])
              expect(memory.holds(candidate, expected)).toBe(model.get(candidate)?.value === expected);
          }
        });
      }),
    );
  });

  it('holds every value set while it grew past its first size, and forgets the oldest once full', () => {
    const memory = new HashMemory(700);
    for (let index = 0; index < 700; index++) memory.set(`src/file-${index}.ts`, `v${index}`);
    let held = 0;
    for (let index = 0; index < 700; index++) if (memory.holds(`src/file-${index}.ts`, `v${index}`)) held++;
    expect(held).toBe(700);
    memory.set('src/new.ts', 'v');
    expect([memory.holds('src/file-0.ts', 'v0'), memory.holds('src/file-1.ts', 'v1'), memory.size]).toEqual([
      false,
      true,
      700,
    ]);
  });
});
