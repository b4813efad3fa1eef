/**
 * Hyperparameters under one name whatever the training script calls them, so that an OOM at
 * `n_layer: 12` and a proposal of `depth: 12` speak about the same thing.
 */

export type ParameterValue = number | string | boolean;
export type Parameters = Readonly<Record<string, ParameterValue>>;

/** Names every alias resolves to. */
export const CANONICAL = {
  depth: 'depth',
  width: 'width',
  aspectRatio: 'aspect_ratio',
  lr: 'lr',
  batchSize: 'batch_size',
  seqLen: 'seq_len',
} as const;

export const DEFAULT_PARAMETER_ALIASES: Readonly<Record<string, string>> = {
  n_layer: 'depth',
  n_layers: 'depth',
  num_layers: 'depth',
  num_hidden_layers: 'depth',
  layers: 'depth',
  n_embd: 'width',
  d_model: 'width',
  hidden_size: 'width',
  hidden_dim: 'width',
  model_dim: 'width',
  embed_dim: 'width',
  learning_rate: 'lr',
  matrix_lr: 'lr',
  bs: 'batch_size',
  device_batch_size: 'batch_size',
  per_device_train_batch_size: 'batch_size',
  block_size: 'seq_len',
  max_seq_len: 'seq_len',
  sequence_length: 'seq_len',
  context_length: 'seq_len',
};

/** Larger values need more memory: an OOM at a size is an OOM at every larger size. */
export const MEMORY_PARAMETERS: readonly string[] = [
  CANONICAL.depth,
  CANONICAL.width,
  CANONICAL.aspectRatio,
  CANONICAL.batchSize,
  CANONICAL.seqLen,
];

/** `lr`, and the per-group rates of optimisers that keep several (`embedding_lr`, `scalar_lr`). */
export function isLearningRate(name: string): boolean {
  return name === CANONICAL.lr || /(?:^|_)lr$|learning_rate/.test(name);
}

const MAX_PARAMETERS = 64;

/**
 * The primitive entries of a config under their canonical names. A name written out wins over an alias
 * of it; an alias whose canonical name is taken keeps its own name, so no value is lost.
 */
export function canonicalParameters(
  config: Readonly<Record<string, unknown>>,
  aliases: Readonly<Record<string, string>>,
  skip: ReadonlySet<string>,
): Record<string, ParameterValue> {
  const out: Record<string, ParameterValue> = {};
  const aliased: [string, string, ParameterValue][] = [];
  let seen = 0;
  for (const key in config) {
    if (!Object.hasOwn(config, key) || skip.has(key) || key === '__proto__') continue;
    if (++seen > MAX_PARAMETERS) break;
    const value = config[key];
    if (!isParameterValue(value)) continue;
    const canonical = Object.hasOwn(aliases, key) ? aliases[key] : undefined;
    if (canonical === undefined || canonical === key) out[key] = value;
    else aliased.push([key, canonical, value]);
  }
  for (const [key, canonical, value] of aliased) {
    if (Object.hasOwn(out, canonical)) out[key] = value;
    else out[canonical] = value;
  }
  return out;
}

function isParameterValue(value: unknown): value is ParameterValue {
  return (
    (typeof value === 'number' && Number.isFinite(value)) ||
    typeof value === 'string' ||
    typeof value === 'boolean'
  );
}

/** Settings that change how training moves, not how much memory a step takes. */
const MEMORY_NEUTRAL =
  /^(?:seed|weight_decay|warmup\w*|\w*_decay|momentum|beta\d?|adam_beta\d|grad_clip|clip_grad\w*|\w*_iters?|max_steps|steps|epochs|num_epochs|eval_\w+|log_\w+)$/;

/** True when `name` cannot change the memory a training step needs. */
export function isMemoryNeutral(name: string): boolean {
  return isLearningRate(name) || MEMORY_NEUTRAL.test(name);
}
