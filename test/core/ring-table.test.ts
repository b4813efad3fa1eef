import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RingTable } from '../../src/core/ring-table.js';

type Step = { op: 'add' | 'remove' | 'removeOldest'; high: number; low: number };

const name = (high: number, low: number) => `${high}:${low}`;

/** The table's keys, oldest first. */
function keysOf(table: RingTable): string[] {
  return [...table.positions()].map((at) => name(table.high(at), table.low(at)));
}

/**
 * Applies `step` to the table and to `model`, a list of its keys in order of addition, checking
 * that both drop the same key when the table is full.
 */
function apply(table: RingTable, model: string[], { op, high, low }: Step): void {
  const position = table.find(high, low);
  if (op === 'add') {
    if (position >= 0) return;
    // A full ring gives up its oldest key; one with gaps may not need to.
    if (table.isLive(table.nextPosition)) {
      expect(name(table.high(table.nextPosition), table.low(table.nextPosition))).toBe(model.shift());
    }
    table.add(high, low);
    model.push(name(high, low));
  } else if (op === 'remove') {
    if (position < 0) return;
    table.remove(position);
    model.splice(model.indexOf(name(high, low)), 1);
  } else {
    const oldest = table.oldest();
    expect(oldest < 0 ? undefined : name(table.high(oldest), table.low(oldest))).toBe(model[0]);
    if (oldest >= 0) {
      table.remove(oldest);
      model.shift();
    }
  }
}

describe('RingTable', () => {
  it('finds each key it holds by both lanes, and no key with only one lane in common', () => {
    const table = new RingTable(4);
    const first = table.add(1, 2);
    const second = table.add(3, 2);
    expect([table.find(1, 2), table.find(3, 2), table.find(1, 3)]).toEqual([first, second, -1]);
  });

  it('drops the oldest key when a key is added to a full table', () => {
    const table = new RingTable(2);
    table.add(0, 1);
    table.add(0, 2);
    table.add(0, 3);
    expect([table.find(0, 1), table.size, table.high(table.oldest()), table.low(table.oldest())]).toEqual([
      -1, 2, 0, 2,
    ]);
  });

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => new RingTable(0)).toThrow(/positive integer/);
  });

  it('agrees with a list kept in order of addition, for any sequence of adds and removals', () => {
    // Few distinct keys, sharing lanes, and small tables make collisions and wrap-around common.
    const key = fc.record({ high: fc.integer({ min: 0, max: 3 }), low: fc.integer({ min: 0, max: 7 }) });
    const step = fc.oneof(
      key.map((lanes) => ({ op: 'add' as const, ...lanes })),
      key.map((lanes) => ({ op: 'remove' as const, ...lanes })),
      fc.constant({ op: 'removeOldest' as const, high: 0, low: 0 }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9 }), fc.array(step, { maxLength: 300 }), (capacity, steps) => {
        const table = new RingTable(capacity);
        const model: string[] = [];
        for (const step of steps) {
          apply(table, model, step);
          expect(table.size).toBe(model.length);
          expect(keysOf(table)).toEqual(model);
          for (let h = 0; h <= 3; h++) {
            for (let l = 0; l <= 7; l++) expect(table.find(h, l) >= 0).toBe(model.includes(name(h, l)));
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('lists the few keys of a table of a large capacity without stepping through the capacity', () => {
    const table = new RingTable(50_000_000);
    table.add(1, 1);
    table.add(2, 2);
    table.add(3, 3);
    table.remove(table.find(2, 2));
    const started = performance.now();
    expect(keysOf(table)).toEqual(['1:1', '3:3']);
    // Stepping through 50 million positions takes seconds; the arrays the table has grown to, none.
    expect(performance.now() - started).toBeLessThan(250);
  });

  it('holds nothing once cleared, and fills again from the start', () => {
    const table = new RingTable(3);
    table.add(1, 1);
    table.add(2, 2);
    table.clear();
    table.add(3, 3);
    expect([table.size, table.find(1, 1), table.oldest()]).toEqual([1, -1, table.find(3, 3)]);
  });

  it('starts small and grows to its capacity, keeping each key at the position it was given', () => {
    const table = new RingTable(1000);
    expect(table.allocated).toBeLessThan(1000);
    const positions = Array.from({ length: 1000 }, (_, index) =>
      table.add(index % 7, Math.imul(index, 0x9e3779b1)),
    );
    expect(positions).toEqual(Array.from({ length: 1000 }, (_, index) => index));
    expect(table.allocated).toBe(1000);
    expect(
      positions.every((position, index) => table.find(index % 7, Math.imul(index, 0x9e3779b1)) === position),
    ).toBe(true);
    // Full, it drops the oldest as a table allocated at its capacity from the start does.
    expect(table.add(9, 9)).toBe(0);
    expect([table.find(0, 0), table.size, table.oldest()]).toEqual([-1, 1000, 1]);
  });

  it('agrees with a list kept in order of addition while it grows past its first size', () => {
    // Many keys sharing few low lanes, so that growing rebuilds buckets full of collisions.
    const key = fc.record({ high: fc.integer({ min: 0, max: 99 }), low: fc.integer({ min: 0, max: 63 }) });
    const step = fc.oneof(
      { weight: 8, arbitrary: key.map((lanes) => ({ op: 'add' as const, ...lanes })) },
      { weight: 1, arbitrary: key.map((lanes) => ({ op: 'remove' as const, ...lanes })) },
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 257, max: 700 }),
        fc.array(step, { minLength: 300, maxLength: 1500 }),
        (capacity, steps) => {
          const table = new RingTable(capacity);
          const model: string[] = [];
          for (const step of steps) apply(table, model, step);
          expect(table.size).toBe(model.length);
          expect(keysOf(table)).toEqual(model);
          for (const held of model) {
            const [high, low] = held.split(':').map(Number) as [number, number];
            expect(name(table.high(table.find(high, low)), table.low(table.find(high, low)))).toBe(held);
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});
