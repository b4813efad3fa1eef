import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergedShape } from '../../../src/core/detectors/error-shape.js';

describe('mergedShape', () => {
  it('takes a word where the other shape has a placeholder, with the same marks around it, for that placeholder', () => {
    expect(
      mergedShape(
        "error executing query: table <q> doesn't exist (request <id>)",
        "error executing query: table <q> doesn't exist (request xqzhwvkdmpt)",
      ),
    ).toBe("error executing query: table <q> doesn't exist (request <id>)");
  });

  it('keeps shapes apart that differ in a word neither of them masked', () => {
    expect(
      mergedShape(
        "error executing query: table <q> doesn't exist",
        "error executing query: column <q> doesn't exist",
      ),
    ).toBeUndefined();
  });

  it('keeps shapes apart where the marks around the value differ', () => {
    expect(
      mergedShape('function <id> not found in <path>', 'function main() not found in <path>'),
    ).toBeUndefined();
  });

  it('keeps shapes of a few words apart, which say too little to align', () => {
    expect(mergedShape('unknown <id>', 'unknown command')).toBeUndefined();
  });

  it('keeps shapes apart that differ in more values than a mask could have missed', () => {
    expect(
      mergedShape(
        'request <id> failed at <id> on <id> after retries',
        'request abc failed at def on ghi after retries',
      ),
    ).toBeUndefined();
  });

  it('is symmetric, and a shape merged with itself is itself', () => {
    const word = fc.constantFrom(
      'error',
      'table',
      '<q>',
      '<id>',
      '(run',
      '<id>)',
      'xqzhwv)',
      'not',
      'found',
      'in',
    );
    const shape = fc.array(word, { minLength: 1, maxLength: 8 }).map((words) => words.join(' '));
    fc.assert(
      fc.property(shape, shape, (a, b) => {
        expect(mergedShape(a, b)).toBe(mergedShape(b, a));
        expect(mergedShape(a, a)).toBe(a);
      }),
    );
  });
});
