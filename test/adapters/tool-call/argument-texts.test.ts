import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { argumentTexts } from '../../../src/adapters/tool-call/argument-texts.js';

/** The walk the three checks made each on their own: every string (and number), depth first. */
function plainTexts(value: unknown, depth: number, items: number, numbers: boolean): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'number') return numbers ? [String(value)] : [];
  if (depth === 0 || value === null || typeof value !== 'object') return [];
  const children = Array.isArray(value) ? value.slice(0, items) : Object.values(value).slice(0, items);
  return children.flatMap((child) => plainTexts(child, depth - 1, items, numbers));
}

describe("a walk over a call's argument texts", () => {
  const booking = {
    user_id: 'mia_li_3668',
    flights: [
      { flight_number: 'HAT136', date: '2024-05-20' },
      { flight_number: 'HAT039', date: '2024-05-22' },
    ],
    passengers: 2,
    insurance: false,
  };

  it('gives the strings of a tau-bench booking in the order they were written, depth first', () => {
    expect([...argumentTexts(booking, { depth: 4, itemsPerContainer: 64 })]).toEqual([
      'mia_li_3668',
      'HAT136',
      '2024-05-20',
      'HAT039',
      '2024-05-22',
    ]);
  });

  it('gives numbers as text only when asked', () => {
    expect([...argumentTexts(booking, { depth: 4, itemsPerContainer: 64, numbers: true })]).toContain('2');
    expect([...argumentTexts(booking, { depth: 4, itemsPerContainer: 64 })]).not.toContain('2');
  });

  it('goes no deeper than its depth and reads no more items of a list than its bound', () => {
    expect([...argumentTexts(booking, { depth: 2, itemsPerContainer: 64 })]).toEqual(['mia_li_3668']);
    expect([
      ...argumentTexts({ paths: ['a.ts', 'b.ts', 'c.ts'] }, { depth: 2, itemsPerContainer: 2 }),
    ]).toEqual(['a.ts', 'b.ts']);
  });

  it('stops at the first text its reader wants, reading no further', () => {
    let read = 0;
    const args = { first: 'shop-backend-1', rest: Array.from({ length: 50 }, (_, at) => `svc-${at}`) };
    for (const text of argumentTexts(args, { depth: 4, itemsPerContainer: 64 })) {
      read += 1;
      if (text === 'shop-backend-1') break;
    }
    expect(read).toBe(1);
  });

  it('looks at a bounded number of values however wide and deep the tree', () => {
    const wide = Array.from({ length: 64 }, () =>
      Array.from({ length: 64 }, () => Array.from({ length: 64 }, () => 'x')),
    );
    expect([...argumentTexts({ wide }, { depth: 4, itemsPerContainer: 64 })].length).toBeLessThanOrEqual(
      4096,
    );
  });

  it('gives what the plain walk gives for any argument tree of a realistic size', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 5 }),
        fc.integer({ min: 0, max: 5 }),
        fc.integer({ min: 1, max: 8 }),
        fc.boolean(),
        (value, depth, items, numbers) => {
          expect([...argumentTexts(value, { depth, itemsPerContainer: items, numbers })]).toEqual(
            plainTexts(value, depth, items, numbers),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
