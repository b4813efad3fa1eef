/**
 * Fourteen failure signatures of training trials, read from the exception name first and the log
 * text second. Patterns are anchored: "room" and "zoom" are not OOM, a grad norm of 1.5 is not an
 * explosion.
 */
import type { Blame } from '../../core/types.js';

/** In priority order: when several match, the first wins. */
export const ML_TRAINING_SIGNATURES = [
  'oom_gpu',
  'oom_cpu',
  'disk_full',
  'tensor_shape_error',
  'dtype_mismatch',
  'gradient_explosion',
  'training_divergence',
  'cuda_error',
  'data_loader_error',
  'syntax_error',
  'import_error',
  'invalid_config',
  'trial_timeout',
  'trial_crash',
] as const;

export type MlTrainingSignature = (typeof ML_TRAINING_SIGNATURES)[number];

export interface MlSignatureRule {
  readonly signature: MlTrainingSignature;
  readonly blame: Blame;
  /** The same config against the same code and machine fails the same way. */
  readonly deterministic: boolean;
  readonly pattern: RegExp;
}

function anyOf(...sources: string[]): RegExp {
  return new RegExp(sources.join('|'), 'im');
}

function rule(
  signature: MlTrainingSignature,
  blame: Blame,
  deterministic: boolean,
  pattern: RegExp,
): MlSignatureRule {
  return { signature, blame, deterministic, pattern };
}

/** The config asked for more memory than the device has: the same config always will. */
const OOM_GPU = rule(
  'oom_gpu',
  'agent_failure',
  true,
  anyOf(
    '\\bCUDA out of memory\\b',
    '\\bOutOfMemoryError\\b',
    '\\bCUBLAS_STATUS_ALLOC_FAILED\\b',
    '\\bCUDNN_STATUS_ALLOC_FAILED\\b',
    '\\bResourceExhaustedError\\b',
    '\\bRESOURCE_EXHAUSTED\\b[^\\n]{0,80}\\bmemory\\b',
    '\\bOOM\\b(?![- ]?kill)',
    '\\b(?:GPU|CUDA|device|MPS|HIP|ROCm|XLA|TPU)\\b[^\\n]{0,80}\\bout of memory\\b',
    '\\bout of memory\\b[^\\n]{0,80}\\b(?:GPU|CUDA|device)\\b',
  ),
);

const OOM_CPU = rule(
  'oom_cpu',
  'agent_failure',
  true,
  anyOf(
    '\\bMemoryError\\b',
    '\\bcannot allocate memory\\b',
    '\\bstd::bad_alloc\\b',
    '\\bDefaultCPUAllocator\\b',
    '\\boom[- _]?kill(?:er|ed)?\\b',
    '\\bKilled process\\b',
    '^Killed\\s*$',
    '\\bout of memory\\b',
  ),
);

/** The machine's disk, not the config. */
const DISK_FULL = rule(
  'disk_full',
  'harness_fault',
  false,
  anyOf('\\bno space left on device\\b', '\\bENOSPC\\b', '\\bdisk quota exceeded\\b', '\\bEDQUOT\\b'),
);

/** Sizes that do not fit together (often after a width or head change): the same config fails again. */
const SHAPE = rule(
  'tensor_shape_error',
  'agent_failure',
  true,
  anyOf(
    '\\bsize mismatch\\b',
    '\\bshape mismatch\\b',
    '\\bmat1 and mat2 shapes cannot be multiplied\\b',
    '\\bsize of tensor a \\(\\d+\\) must match the size of tensor b\\b',
    "\\bshape '\\[[^\\]\\n]*\\]' is invalid for input of size\\b",
    '\\bexpected input batch_size \\(\\d+\\) to match target batch_size\\b',
    '\\bshapes \\([^)\\n]*\\) and \\([^)\\n]*\\) not aligned\\b',
    '\\bincompatible shapes\\b',
    '\\bdimensions must be equal\\b',
    '\\bsizes of tensors must match\\b',
  ),
);

const DTYPE = rule(
  'dtype_mismatch',
  'agent_failure',
  true,
  anyOf(
    '\\bexpected scalar type \\w+ but found \\w+\\b',
    '\\bexpected object of scalar type\\b',
    '\\bdtype mismatch\\b',
    '\\binput type \\([^)\\n]*\\) and weight type \\([^)\\n]*\\) should be the same\\b',
    '\\bmust have the same dtype\\b',
  ),
);

/** Too high a learning rate; seeds decide exactly when, so one failure does not prove the next. */
const GRADIENT = rule(
  'gradient_explosion',
  'agent_failure',
  false,
  anyOf(
    '\\bgrad(?:ient)?[ _]norm\\b[^\\n]{0,30}?(?:\\b(?:nan|inf)\\b|\\b\\d{4,}(?:\\.\\d+)?\\b|\\b\\d(?:\\.\\d+)?e\\+?\\d{2,}\\b)',
    '\\bexploding gradients?\\b',
    '\\bgradient explosion\\b',
    '\\bgradients? (?:exploded|overflow(?:ed)?)\\b',
  ),
);

const DIVERGENCE = rule(
  'training_divergence',
  'agent_failure',
  false,
  anyOf(
    '(?:\\b|_)loss\\b["\']?\\s*[=:]?\\s*["\']?-?(?:nan|inf(?:inity)?)\\b',
    '\\b(?:nan|non-finite|infinite) loss\\b',
    '\\bloss (?:is|became|went to) (?:nan|inf|infinite|non-finite)\\b',
    '\\bloss became infinite or nan\\b',
    '\\b(?:training|loss|model|run) (?:has )?diverged\\b',
    '\\bdivergence detected\\b',
    '\\bFloatingPointError\\b',
    '\\bdetected (?:nan|inf)\\b',
  ),
);

/** A missing or sick device, driver or interconnect is the machine's. */
const CUDA_MACHINE = rule(
  'cuda_error',
  'harness_fault',
  false,
  anyOf(
    '\\bno CUDA GPUs are available\\b',
    '\\bCUDA driver version is insufficient\\b',
    '\\bno CUDA-capable device\\b',
    '\\bbusy or unavailable\\b',
    '\\bNCCL error\\b',
    '\\bNCCL (?:timeout|watchdog)\\b',
    // The collective library's own errors, communicator aborts and watchdog timeouts: the
    // interconnect or a peer rank failed, not this trial's configuration.
    '\\bnccl[A-Z]\\w*Error\\b',
    '\\bNCCL communicator\\b',
    '\\bWorkNCCL\\b',
    '\\bProcessGroupNCCL\\b',
    '\\bECC error\\b',
  ),
);

/** A device-side assert or an illegal access can be the model's code or the device: nobody is blamed. */
const CUDA = rule(
  'cuda_error',
  'unknown',
  false,
  anyOf(
    '\\bCUDA error\\b',
    '\\bcuDNN error\\b',
    '\\bCUDNN_STATUS_\\w+',
    '\\billegal memory access\\b',
    '\\bdevice-side assert\\b',
  ),
);

/** Workers, shared memory and dataset files belong to the environment, not to the hyperparameters. */
const DATA = rule(
  'data_loader_error',
  'harness_fault',
  false,
  anyOf(
    '\\bDataLoader worker\\b',
    '\\bdataloader\\b[^\\n]{0,80}\\b(?:exited|killed|timed out|error)\\b',
    '\\binsufficient shared memory\\b',
    '\\bdataset\\b[^\\n]{0,80}\\b(?:not found|missing|corrupt(?:ed)?)\\b',
  ),
);

/** The training code the agent wrote does not parse: the same code fails the same way. */
const SYNTAX = rule(
  'syntax_error',
  'agent_failure',
  true,
  anyOf('\\bSyntaxError\\b', '\\bIndentationError\\b', '\\bTabError\\b'),
);

const IMPORT = rule(
  'import_error',
  'harness_fault',
  true,
  anyOf(
    '\\bModuleNotFoundError\\b',
    '\\bImportError\\b',
    '\\bno module named\\b',
    '\\bcannot import name\\b',
  ),
);

/** A value the training code rejects outright (`n_embd` not divisible by `n_head`, a float depth). */
const CONFIG = rule(
  'invalid_config',
  'agent_failure',
  true,
  anyOf(
    '\\bmust be divisible by\\b',
    '\\bnot divisible by\\b',
    '\\binvalid (?:config(?:uration)?|hyperparameters?|value)\\b',
    '\\bunrecognized arguments?\\b',
    '\\bAssertionError\\b',
    '\\bValueError\\b',
    '\\bTypeError\\b',
  ),
);

/** The time budget is the harness's; a slow config is not a wrong one. */
const TIMEOUT = rule(
  'trial_timeout',
  'harness_fault',
  false,
  anyOf(
    '\\btimed out\\b',
    '\\bTimeoutExpired\\b',
    '\\bTimeoutError\\b',
    '\\btime (?:budget|limit) exceeded\\b',
    '\\bexceeded (?:the )?(?:time|wall[- ]clock) (?:budget|limit)\\b',
    '\\bDEADLINE_EXCEEDED\\b',
  ),
);

/** Any other crash: the trial died, and the log does not say whose fault it was. */
export const CRASH = rule(
  'trial_crash',
  'unknown',
  false,
  anyOf(
    '\\bsegmentation fault\\b',
    '\\bcore dumped\\b',
    '\\bSIGSEGV\\b',
    '\\bSIGABRT\\b',
    '\\billegal instruction\\b',
  ),
);

export const ML_TEXT_RULES: readonly MlSignatureRule[] = [
  OOM_GPU,
  OOM_CPU,
  DISK_FULL,
  SHAPE,
  DTYPE,
  GRADIENT,
  DIVERGENCE,
  CUDA_MACHINE,
  CUDA,
  DATA,
  SYNTAX,
  IMPORT,
  CONFIG,
  TIMEOUT,
  CRASH,
];

const RULE_BY_EXCEPTION = new Map<string, MlSignatureRule>([
  ['OutOfMemoryError', OOM_GPU],
  ['MemoryError', OOM_CPU],
  ['FloatingPointError', DIVERGENCE],
  ['SyntaxError', SYNTAX],
  ['IndentationError', SYNTAX],
  ['TabError', SYNTAX],
  ['ModuleNotFoundError', IMPORT],
  ['ImportError', IMPORT],
  ['TimeoutError', TIMEOUT],
  ['TimeoutExpired', TIMEOUT],
]);

const RULE_BY_CODE = new Map<string, MlSignatureRule>([
  ['ENOSPC', DISK_FULL],
  ['EDQUOT', DISK_FULL],
  ['ETIMEDOUT', TIMEOUT],
]);

/**
 * Only specific exception names decide alone; `RuntimeError` or `ValueError` say too little, so the
 * log text is read for them.
 */
export function mlRuleForException(name: string): MlSignatureRule | undefined {
  return RULE_BY_EXCEPTION.get(name.replace(/^.*\./, ''));
}

export function mlRuleForErrorCode(code: string): MlSignatureRule | undefined {
  return RULE_BY_CODE.get(code.toUpperCase());
}

export function mlRuleForText(text: string): MlSignatureRule | undefined {
  if (text === '') return undefined;
  for (const candidate of ML_TEXT_RULES) if (candidate.pattern.test(text)) return candidate;
  return undefined;
}
