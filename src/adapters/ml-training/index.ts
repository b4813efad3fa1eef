export type { MlTrainingActionClass } from './action-classes.js';
export { ML_TRAINING_ACTION_CLASSES } from './action-classes.js';
export type { MlTrainingAdapterOptions } from './adapter.js';
export { createMlTrainingAdapter } from './adapter.js';
export type { MlTrialResult } from './convert.js';
export { ML_TRIAL_TOOL, mlTrialToOutcome, mlTrialToProposal } from './convert.js';
export { DEFAULT_PARAMETER_ALIASES } from './parameters.js';
export type { MlTrainingSignature } from './signatures.js';
export { ML_TRAINING_SIGNATURES } from './signatures.js';
