import { describe, expect, it } from 'vitest';
import { errorShape } from '../../src/core/detectors/error-shape.js';
import { Observed } from '../../src/core/observed.js';

const ERROR = "ENOENT: no such file or directory, open 'config/prod.yaml'";

function failure(shapeError: (text: string) => string): Observed {
  const failure = {
    signature: 'not_found',
    blame: 'agent_failure',
    deterministic: true,
    meaning: 'call',
  } as const;
  return new Observed(failure, 'digest', false, false, ERROR, undefined, false, false, false, shapeError);
}

describe('Observed', () => {
  it('shapes an error once for every detector that deferred it and for the shape read later', () => {
    const shaped: string[] = [];
    const outcome = failure((text) => {
      shaped.push(text);
      return errorShape(text);
    });
    const first = outcome.deferredErrorShape();
    const second = outcome.deferredErrorShape();
    expect(shaped).toEqual([]);
    expect(first()).toBe(errorShape(ERROR));
    expect(second()).toBe(errorShape(ERROR));
    expect(outcome.errorShape).toBe(errorShape(ERROR));
    expect(shaped).toHaveLength(1);
  });
});
