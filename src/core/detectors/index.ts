/** The run-scoped loop detectors, one per file. */
import { createAbsentTextDetector } from './absent-text.js';
import { createBlindEditDetector } from './blind-edit.js';
import { createConvergenceDetector } from './convergence.js';
import { createCreationRateDetector } from './creation-rate.js';
import { createCycleDetector } from './cycle.js';
import { createDuplicateEffectDetector } from './duplicate-effect.js';
import { createEditStreakDetector } from './edit-streak.js';
import { createErrorStreakDetector } from './error-streak.js';
import { createIdenticalResultDetector } from './identical-result.js';
import { createNonAdvancingDetector } from './non-advancing.js';
import { createNumberedCopyDetector } from './numbered-copy.js';
import { createPollDetector } from './poll.js';
import { createRespelledCommandDetector } from './respelled-command.js';
import { createToolHealthDetector } from './tool-health.js';
import type { Detector } from './types.js';
import { createUnavailableValueDetector } from './unavailable-value.js';
import { createUnseenCreationDetector } from './unseen-creation.js';

export { createAbsentTextDetector } from './absent-text.js';
export { createBlindEditDetector } from './blind-edit.js';
export type { ConvergenceDetector } from './convergence.js';
export { createConvergenceDetector, isConvergenceDetector } from './convergence.js';
export { createCreationRateDetector } from './creation-rate.js';
export { createCycleDetector } from './cycle.js';
export { createDuplicateEffectDetector } from './duplicate-effect.js';
export { createEditStreakDetector } from './edit-streak.js';
export { createErrorStreakDetector } from './error-streak.js';
export { createIdenticalResultDetector } from './identical-result.js';
export { createNonAdvancingDetector } from './non-advancing.js';
export { createNumberedCopyDetector, numberedLine } from './numbered-copy.js';
export { createPollDetector } from './poll.js';
export { createRespelledCommandDetector } from './respelled-command.js';
export { createToolHealthDetector } from './tool-health.js';
export type { CallContext, Detector, ObservedOutcome } from './types.js';
export { createUnavailableValueDetector, extendsArguments } from './unavailable-value.js';
export { createUnseenCreationDetector } from './unseen-creation.js';

/** A fresh set of every detector; find the convergence one with `isConvergenceDetector`. */
export function createDefaultDetectors(): Detector[] {
  return [
    createIdenticalResultDetector(),
    createNonAdvancingDetector(),
    createErrorStreakDetector(),
    createCycleDetector(),
    createPollDetector(),
    createCreationRateDetector(),
    createToolHealthDetector(),
    createConvergenceDetector(),
    createAbsentTextDetector(),
    createDuplicateEffectDetector(),
    createUnseenCreationDetector(),
    createBlindEditDetector(),
    createEditStreakDetector(),
    createUnavailableValueDetector(),
    createRespelledCommandDetector(),
    createNumberedCopyDetector(),
  ];
}
