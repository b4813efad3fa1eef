import { describe, expect, it } from 'vitest';
import { forEachMatch } from '../../../src/adapters/tool-call/matches.js';

const TSC_OUTPUT =
  "src/orders/parse.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.\n" +
  "src/orders/total.ts(3,14): error TS2304: Cannot find name 'Order'.\n" +
  'Found 2 errors in 2 files.';
const LOCATION = /([\w./-]+\.ts)\((\d+),(\d+)\)/g;

function visited(text: string, pattern: RegExp, stopAt?: string): string[][] {
  const seen: string[][] = [];
  forEachMatch(text, pattern, (match) => {
    seen.push([...match]);
    return stopAt !== undefined && match[1] === stopAt;
  });
  return seen;
}

describe('each match of an expression in a failure text', () => {
  it('finds the matches matchAll finds, in its order, with their groups and places', () => {
    const expected = [...TSC_OUTPUT.matchAll(LOCATION)];
    const found: RegExpExecArray[] = [];
    forEachMatch(TSC_OUTPUT, LOCATION, (match) => {
      found.push(match);
      return false;
    });
    expect(found.map((match) => [...match])).toEqual(expected.map((match) => [...match]));
    expect(found.map((match) => match.index)).toEqual(expected.map((match) => match.index));
  });

  it('stops at the first match the reader says is enough', () => {
    expect(visited(TSC_OUTPUT, LOCATION, 'src/orders/parse.ts')).toEqual([
      ['src/orders/parse.ts(12,5)', 'src/orders/parse.ts', '12', '5'],
    ]);
  });

  it('leaves the expression ready for its next text, after a stop as after the last match', () => {
    visited(TSC_OUTPUT, LOCATION, 'src/orders/parse.ts');
    expect(LOCATION.lastIndex).toBe(0);
    visited(TSC_OUTPUT, LOCATION);
    expect(LOCATION.lastIndex).toBe(0);
    expect(visited(TSC_OUTPUT, LOCATION)).toHaveLength(2);
  });

  it('moves past an empty match instead of finding it forever', () => {
    expect(visited('a1b', /\d*/g)).toEqual([[''], ['1'], [''], ['']]);
    expect(visited('a1b', /\d*/g)).toEqual([...'a1b'.matchAll(/\d*/g)].map((match) => [...match]));
  });
});
