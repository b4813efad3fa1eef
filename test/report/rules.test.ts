import { describe, expect, it } from 'vitest';
import { ruleMeaning } from '../../src/report/index.js';

describe('ruleMeaning', () => {
  it('says what a rule of the engine means', () => {
    expect(ruleMeaning('identical-failure')).toMatch(/already failed/);
  });

  it('knows no meaning for a rule named after a property of every object', () => {
    expect([ruleMeaning('constructor'), ruleMeaning('toString')]).toEqual([undefined, undefined]);
  });
});
