/**
 * The ML-training domain adapter: a proposal is one training trial whose arguments are its
 * hyperparameters; a failure is read from the trial's error log.
 */
import type { CallFacts, DomainAdapter, FailureFacts, Outcome, Proposal } from '../../core/types.js';
import { classifyTrial, ML_TRAINING_ACTION_CLASSES } from './action-classes.js';
import {
  canonicalParameters,
  DEFAULT_PARAMETER_ALIASES,
  isLearningRate,
  isMemoryNeutral,
  MEMORY_PARAMETERS,
  type Parameters,
} from './parameters.js';
import {
  CRASH,
  ML_TRAINING_SIGNATURES,
  type MlSignatureRule,
  mlRuleForErrorCode,
  mlRuleForException,
  mlRuleForText,
} from './signatures.js';

export interface MlTrainingAdapterOptions {
  /** The reference config that action classes are measured against. Default: the first trial seen. */
  readonly baseline?: Readonly<Record<string, unknown>>;
  /** Extra names for parameters (`{ n_head: 'heads' }`), on top of the built-in aliases. */
  readonly parameterAliases?: Readonly<Record<string, string>>;
}

/** The argument that names the experiment: the trial's target, not a hyperparameter. */
const EXPERIMENT_KEY = 'experiment';
const NOT_PARAMETERS: ReadonlySet<string> = new Set([EXPERIMENT_KEY]);
const MAX_LOG_SCANNED = 16_384;

type Monotone = NonNullable<FailureFacts['monotone']>;

export function createMlTrainingAdapter(options: MlTrainingAdapterOptions = {}): DomainAdapter {
  const aliases = { ...DEFAULT_PARAMETER_ALIASES, ...options.parameterAliases };
  let baseline: Parameters | undefined =
    options.baseline === undefined
      ? undefined
      : canonicalParameters(options.baseline, aliases, NOT_PARAMETERS);

  function describeCall(proposal: Proposal): CallFacts {
    const config = isRecord(proposal.args) ? proposal.args : {};
    const parameters = canonicalParameters(config, aliases, NOT_PARAMETERS);
    baseline ??= parameters;
    const experiment = config[EXPERIMENT_KEY];
    return {
      actionClass: classifyTrial(parameters, baseline),
      kind: 'exec',
      targets: typeof experiment === 'string' && experiment !== '' ? [experiment] : [],
      parameters,
    };
  }

  function describeFailure(outcome: Outcome, call: CallFacts): FailureFacts | undefined {
    if (outcome.success) return undefined;
    const rule = structuredRule(outcome) ?? mlRuleForText(logText(outcome)) ?? CRASH;
    const facts: FailureFacts = {
      signature: rule.signature,
      blame: rule.blame,
      deterministic: rule.deterministic,
      meaning: 'call',
    };
    const parameters = call.parameters ?? {};
    const monotone = monotoneFor(rule, parameters);
    if (monotone.length === 0) return facts;
    return onlyMemoryMatters(rule, parameters, monotone)
      ? { ...facts, monotone, monotoneOnly: true }
      : { ...facts, monotone };
  }

  return {
    name: 'ml-training',
    signatures: ML_TRAINING_SIGNATURES,
    actionClasses: ML_TRAINING_ACTION_CLASSES,
    describeCall,
    describeFailure,
  };
}

function structuredRule(outcome: Outcome): MlSignatureRule | undefined {
  if (typeof outcome.exceptionName === 'string' && outcome.exceptionName !== '') {
    const byName = mlRuleForException(outcome.exceptionName);
    if (byName) return byName;
  }
  if (typeof outcome.errorCode === 'string' && outcome.errorCode !== '')
    return mlRuleForErrorCode(outcome.errorCode);
  return undefined;
}

function logText(outcome: Outcome): string {
  const error = typeof outcome.error === 'string' ? outcome.error : '';
  const content = typeof outcome.content === 'string' ? outcome.content : '';
  const text = error && content ? `${error}\n${content}` : error || content;
  if (text.length <= MAX_LOG_SCANNED) return text;
  // A traceback ends with the error; the start names the command and the config.
  return `${text.slice(0, MAX_LOG_SCANNED / 4)}\n${text.slice(-(MAX_LOG_SCANNED * 3) / 4)}`;
}

/**
 * The parameters in which this failure only gets worse as they grow: memory for an OOM, the learning
 * rates for a divergence. Only numeric parameters of this trial are named.
 */
function monotoneFor(rule: MlSignatureRule, parameters: Parameters): Monotone {
  const grows: string[] = [];
  if (rule.signature === 'oom_gpu' || rule.signature === 'oom_cpu') {
    for (const name of MEMORY_PARAMETERS) if (typeof parameters[name] === 'number') grows.push(name);
  } else if (rule.signature === 'training_divergence' || rule.signature === 'gradient_explosion') {
    for (const name in parameters)
      if (isLearningRate(name) && typeof parameters[name] === 'number') grows.push(name);
  }
  return grows.map((parameter) => ({ parameter, direction: 'up' as const }));
}

/**
 * An OOM depends on the sizes alone when everything else in the trial is a learning rate or a schedule
 * setting: then larger sizes fail whatever those are. A different optimiser or precision can change
 * memory, so any such parameter keeps the ban pinned to its value.
 */
function onlyMemoryMatters(rule: MlSignatureRule, parameters: Parameters, monotone: Monotone): boolean {
  if (rule.signature !== 'oom_gpu' && rule.signature !== 'oom_cpu') return false;
  const sized = new Set(monotone.map((entry) => entry.parameter));
  return Object.keys(parameters).every((name) => sized.has(name) || isMemoryNeutral(name));
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
