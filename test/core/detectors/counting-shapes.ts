/** An outcome as the engine hands it to detectors, counting the error shapes it makes. */
import { errorShape } from '../../../src/core/detectors/error-shape.js';
import type { ObservedOutcome } from '../../../src/core/detectors/types.js';
import { Observed } from '../../../src/core/observed.js';

/**
 * `plain` as the engine hands it to detectors (an `Observed`, which shapes errors on demand), with
 * every text it shapes pushed onto `shaped`.
 */
export function countingShapes(plain: ObservedOutcome, shaped: string[]): Observed {
  const shapeError = (text: string) => {
    shaped.push(text);
    return errorShape(text);
  };
  return new Observed(
    plain.failure,
    plain.resultDigest,
    false,
    false,
    plain.content,
    undefined,
    false,
    false,
    false,
    shapeError,
  );
}
