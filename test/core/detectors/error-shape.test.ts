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

  it('takes a value a mask took only part of for the placeholder the other shape has there', () => {
    expect(mergedShape('error: invoice inv-<id> not found', 'error: invoice <id> not found')).toBe(
      'error: invoice <id> not found',
    );
    expect(mergedShape('error: invoice inv-<id> not found', 'error: invoice inv1001 not found')).toBe(
      'error: invoice <id> not found',
    );
    expect(mergedShape('order #<id> was not found', 'order <id> was not found')).toBe(
      'order <id> was not found',
    );
  });

  it('keeps shapes apart where a partly masked value stands against words that are no value', () => {
    expect(
      mergedShape('error: invoice inv-<id> not found', 'error: invoice (draft) not found'),
    ).toBeUndefined();
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
      'inv-<id>',
      '#<id>',
      'inv1001',
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
