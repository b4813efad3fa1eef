import { describe, expect, it } from 'vitest';
import { ruleMeaning } from '../../src/report/index.js';

describe('ruleMeaning', () => {
  it('says what a rule of the engine means', () => {
    expect(ruleMeaning('identical-failure')).toMatch(/already failed/);
  });

  it('says what the rules about unseen creations, blind edits and unavailable values mean', () => {
    expect(ruleMeaning('unseen-creation')).toMatch(/did not appear/);
    expect(ruleMeaning('blind-edit')).toMatch(/never read/);
    expect(ruleMeaning('unavailable-value')).toMatch(/not available/);
    expect(ruleMeaning('numbered-copy')).toMatch(/line numbers/);
  });

  it('knows no meaning for a rule named after a property of every object', () => {
    expect([ruleMeaning('constructor'), ruleMeaning('toString')]).toEqual([undefined, undefined]);
  });
});
