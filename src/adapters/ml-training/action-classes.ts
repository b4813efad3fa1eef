/**
 * What a trial changes relative to the baseline config: the paper's eight strategies of a
 * hyperparameter search, plus `baseline` for a config that changes none of the parameters they read.
 */
import { CANONICAL, isLearningRate, type Parameters, type ParameterValue } from './parameters.js';

export const ML_TRAINING_ACTION_CLASSES = [
  'architecture_swap',
  'optimizer_change',
  'scale_up_depth',
  'scale_up_width',
  'batch_size_increase',
  'scale_down',
  'lr_increase',
  'lr_decrease',
  'baseline',
] as const;

export type MlTrainingActionClass = (typeof ML_TRAINING_ACTION_CLASSES)[number];

const ARCHITECTURE_KEYS = new Set([
  'arch',
  'architecture',
  'model',
  'model_type',
  'activation',
  'norm',
  'norm_type',
  'attention',
  'attention_type',
  'block_type',
  'position_embedding',
]);
const OPTIMIZER_KEYS = new Set(['optimizer', 'optim', 'opt', 'optimizer_name']);
const WIDTH_KEYS = new Set<string>([CANONICAL.width, CANONICAL.aspectRatio]);
/** More tokens per step: a longer sequence costs memory the way a larger batch does. */
const TOKENS_PER_STEP_KEYS = new Set<string>([CANONICAL.batchSize, CANONICAL.seqLen]);
const SIZE_KEYS = new Set<string>([CANONICAL.depth, ...WIDTH_KEYS, ...TOKENS_PER_STEP_KEYS]);

function changed(a: ParameterValue | undefined, b: ParameterValue | undefined): boolean {
  return a !== undefined && b !== undefined && a !== b;
}

function direction(from: ParameterValue | undefined, to: ParameterValue | undefined): -1 | 0 | 1 {
  if (typeof from !== 'number' || typeof to !== 'number' || from === to) return 0;
  return to > from ? 1 : -1;
}

/**
 * The class of a trial. When several things change, the one with the largest consequence names it:
 * a new architecture or optimiser first, then growth in memory (depth, width, tokens per step), then
 * shrinking, then the learning rate.
 */
export function classifyTrial(parameters: Parameters, baseline: Parameters): MlTrainingActionClass {
  let architecture = false;
  let optimizer = false;
  let depthUp = false;
  let widthUp = false;
  let tokensUp = false;
  let sizeDown = false;
  let lrUp = false;
  let lrDown = false;
  for (const name in parameters) {
    const value = parameters[name];
    const before = baseline[name];
    if (ARCHITECTURE_KEYS.has(name)) architecture ||= changed(before, value);
    else if (OPTIMIZER_KEYS.has(name)) optimizer ||= changed(before, value);
    const step = direction(before, value);
    if (step === 0) continue;
    if (SIZE_KEYS.has(name)) {
      if (step < 0) sizeDown = true;
      else if (name === CANONICAL.depth) depthUp = true;
      else if (WIDTH_KEYS.has(name)) widthUp = true;
      else tokensUp = true;
    } else if (isLearningRate(name)) {
      if (step > 0) lrUp = true;
      else lrDown = true;
    }
  }
  if (architecture) return 'architecture_swap';
  if (optimizer) return 'optimizer_change';
  if (depthUp) return 'scale_up_depth';
  if (widthUp) return 'scale_up_width';
  if (tokensUp) return 'batch_size_increase';
  if (sizeDown) return 'scale_down';
  if (lrUp) return 'lr_increase';
  if (lrDown) return 'lr_decrease';
  return 'baseline';
}
