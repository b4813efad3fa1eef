import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonErrorPosition } from '../../src/policy-file/json-position.js';

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe('jsonErrorPosition', () => {
  it('finds no error in any valid JSON', () => {
    fc.assert(fc.property(fc.json(), (text) => jsonErrorPosition(text) === undefined));
  });

  it('agrees with JSON.parse on arbitrary text', () => {
    const almostJson = fc.oneof(
      fc.string(),
      fc
        .json()
        .chain((text) => fc.nat({ max: text.length }).map((cut) => text.slice(0, cut) + text.slice(cut + 1))),
    );
    fc.assert(fc.property(almostJson, (text) => (jsonErrorPosition(text) === undefined) === parses(text)));
  });

  it('points at the token where the text goes wrong', () => {
    expect(jsonErrorPosition('{\n  "preset": "strict",\n  "detectors": }\n')).toEqual({
      line: 3,
      column: 16,
    });
  });

  it('points past the end of a truncated document', () => {
    expect(jsonErrorPosition('{"a": [1, 2')).toEqual({ line: 1, column: 12 });
  });
});
