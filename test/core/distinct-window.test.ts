import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DistinctWindow } from '../../src/core/distinct-window.js';

describe('DistinctWindow', () => {
  it('counts each call once and keeps whether its last proposal was ruled out', () => {
    const window = new DistinctWindow(10);
    window.note(7, false);
    window.note(9, true);
    window.note(7, true);
    window.note(9, false);
    expect({ size: window.size, blocked: window.blocked }).toEqual({ size: 2, blocked: 1 });
  });

  it('forgets the call it saw first once it is full', () => {
    const window = new DistinctWindow(2);
    window.note(1, true);
    window.note(2, false);
    window.note(3, false);
    expect({ size: window.size, blocked: window.blocked }).toEqual({ size: 2, blocked: 0 });
    window.note(2, true);
    expect(window.blocked).toBe(1);
  });

  it('agrees with a list kept in order of first sight, for any sequence of calls', () => {
    // Few distinct values and a small table make collisions and wrap-around common.
    const note = fc.record({ fingerprint: fc.integer({ min: 0, max: 40 }), blocked: fc.boolean() });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.array(note, { maxLength: 500 }), (capacity, notes) => {
        const window = new DistinctWindow(capacity);
        const model = new Map<number, boolean>();
        for (const { fingerprint, blocked } of notes) {
          window.note(fingerprint, blocked);
          if (!model.has(fingerprint) && model.size === capacity)
            model.delete(model.keys().next().value as number);
          model.set(fingerprint, blocked);
          expect(window.size).toBe(model.size);
          expect(window.blocked).toBe([...model.values()].filter(Boolean).length);
          for (let candidate = 0; candidate <= 40; candidate++) {
            expect(window.has(candidate)).toBe(model.has(candidate));
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('starts empty again when cleared', () => {
    const window = new DistinctWindow(4);
    window.note(1, true);
    window.clear();
    window.note(1, false);
    expect({ size: window.size, blocked: window.blocked }).toEqual({ size: 1, blocked: 0 });
  });

  it('keeps whether each call was ruled out while it grew past its first size', () => {
    const window = new DistinctWindow(1000);
    for (let fingerprint = 0; fingerprint < 1000; fingerprint++)
      window.note(fingerprint, fingerprint % 3 === 0);
    expect({ size: window.size, blocked: window.blocked }).toEqual({ size: 1000, blocked: 334 });
    // The first call, ruled out, is forgotten for a new one.
    window.note(5000, false);
    expect({ size: window.size, blocked: window.blocked, first: window.has(0) }).toEqual({
      size: 1000,
      blocked: 333,
      first: false,
    });
  });
});
