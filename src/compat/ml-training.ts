/**
 * `createMLTrainingAdapter` and `computeParameterDeltas` with the shapes of
 * `@sovereign-labs/narrowing/adapters/ml-training`, over this package's ML-training adapter.
 */

import { classifyTrial } from '../adapters/ml-training/action-classes.js';
import {
  createMlTrainingAdapter,
  type MlTrainingAdapterOptions,
  mlTrialToProposal,
} from '../adapters/ml-training/index.js';
import { canonicalParameters, DEFAULT_PARAMETER_ALIASES } from '../adapters/ml-training/parameters.js';
import { ML_TEXT_RULES, mlRuleForText } from '../adapters/ml-training/signatures.js';
import type { DomainAdapter as EngineAdapter } from '../core/types.js';
import { bind, honouringActionClass } from './binding.js';
import { isMarker, type PaperView, rememberView, withoutMarkers } from './proposals.js';
import type { DomainAdapter } from './types.js';

const PREVIOUS = '_prev_';
const DELTA = '_delta';
const NOTHING_SKIPPED: ReadonlySet<string> = new Set();

/**
 * That package's names for the signatures this engine calls otherwise: the failure is the same, the
 * word differs. A `cuda_error` is `nccl_failure` there only when the collective library failed.
 */
const PAPER_NAMES: Readonly<Record<string, string>> = {
  syntax_error: 'code_syntax_error',
  trial_timeout: 'timeout',
  import_error: 'missing_import',
};
const NCCL = /\bNCCL|nccl[A-Z]\w*Error\b/;

export function paperMlSignature(signature: string, text: string): string {
  if (signature === 'cuda_error') return NCCL.test(text) ? 'nccl_failure' : signature;
  return PAPER_NAMES[signature] ?? signature;
}

/** The engine's adapter, learning and reporting under that package's signature names. */
function withPaperSignatures(adapter: EngineAdapter): EngineAdapter {
  return {
    ...adapter,
    describeFailure(outcome, call) {
      const facts = adapter.describeFailure(outcome, call);
      if (facts === undefined) return undefined;
      const text = `${outcome.error ?? ''}\n${outcome.content ?? ''}`;
      const signature = paperMlSignature(facts.signature, text);
      return signature === facts.signature ? facts : { ...facts, signature };
    },
  };
}

function engineProposal(view: PaperView) {
  return rememberView(mlTrialToProposal(withoutMarkers(view.parameters)), view);
}

/** The config before this trial, from the `_prev_` markers `computeParameterDeltas` leaves. */
function previousConfig(parameters: Readonly<Record<string, unknown>>): Record<string, unknown> | undefined {
  let found = false;
  const previous = withoutMarkers(parameters);
  for (const key of Object.keys(parameters)) {
    if (!key.startsWith(PREVIOUS)) continue;
    previous[key.slice(PREVIOUS.length)] = parameters[key];
    found = true;
  }
  return found ? previous : undefined;
}

/** The adapter, answering that package's five questions and running on this engine's. */
export function createMLTrainingAdapter(options: MlTrainingAdapterOptions = {}): DomainAdapter {
  const engine = createMlTrainingAdapter(options);
  const aliases = { ...DEFAULT_PARAMETER_ALIASES, ...options.parameterAliases };
  const canonical = (config: Readonly<Record<string, unknown>>) =>
    canonicalParameters(config, aliases, NOTHING_SKIPPED);

  /** Relative to the previous trial when the markers say what it was; otherwise to the baseline. */
  function classifyFromMarkers(view: PaperView): string | undefined {
    const previous = previousConfig(view.parameters);
    return previous && classifyTrial(canonical(withoutMarkers(view.parameters)), canonical(previous));
  }

  const adapter: DomainAdapter = {
    name: 'ml-training',
    extractSignature(error) {
      const text = String(error);
      const rule = mlRuleForText(text);
      return rule && paperMlSignature(rule.signature, text);
    },
    classifyBlame: (error) => mlRuleForText(String(error))?.blame ?? 'unknown',
    classifyAction: (params, targets) =>
      classifyFromMarkers({ parameters: params, targets }) ??
      engine.describeCall(mlTrialToProposal(withoutMarkers(params))).actionClass,
    extractParameters(raw) {
      const extracted: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(raw)) {
        const scalar = typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean';
        if (scalar || (isMarker(key) && (key === DELTA || key.startsWith(PREVIOUS)))) extracted[key] = value;
      }
      return extracted;
    },
    signaturePatterns: ML_TEXT_RULES.map((rule) => ({
      pattern: rule.pattern,
      signature: rule.signature === 'cuda_error' ? rule.signature : paperMlSignature(rule.signature, ''),
      typicallyHarness: rule.blame === 'harness_fault',
      description: `${rule.signature}: ${rule.blame.replace('_', ' ')}`,
    })),
  };
  return bind(adapter, {
    adapter: honouringActionClass(withPaperSignatures(engine), classifyFromMarkers),
    toProposal: engineProposal,
  });
}

/**
 * `next`, with what changed since `prev` marked: `_prev_<key>` holds the earlier value, and
 * `_delta[key]` says `increased`, `decreased` or (not numeric) `changed`.
 */
export function computeParameterDeltas(
  prev: Record<string, unknown>,
  next: Record<string, unknown>,
): Record<string, unknown> {
  const result: Record<string, unknown> = { ...next };
  const delta: Record<string, 'increased' | 'decreased' | 'changed'> = {};
  for (const key of Object.keys(next)) {
    if (isMarker(key)) continue;
    const before = prev[key];
    const after = next[key];
    if (before === undefined || Object.is(before, after)) continue;
    result[`${PREVIOUS}${key}`] = before;
    delta[key] =
      typeof before === 'number' && typeof after === 'number'
        ? after > before
          ? 'increased'
          : 'decreased'
        : 'changed';
  }
  if (Object.keys(delta).length > 0) result[DELTA] = delta;
  return result;
}
