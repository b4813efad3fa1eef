/**
 * Runs an adapter written to `@sovereign-labs/narrowing`'s `DomainAdapter` interface (regexes over
 * an error string, a classifier over parameters) as this engine's `DomainAdapter`.
 *
 * What that interface cannot say, the bridge does not guess: no failure is deterministic (every
 * signature needs the corroboration threshold), and a failure means only "this call fails".
 */
import { normalizeTarget } from '../adapters/tool-call/targets.js';
import type {
  ActionKind,
  CallFacts,
  DomainAdapter as EngineAdapter,
  Proposal as EngineProposal,
  FailureFacts,
} from '../core/types.js';
import { CompatError } from './errors.js';
import { argumentsOf, type PaperView, paperViewOf, rememberView, toolNamed } from './proposals.js';
import type { DomainAdapter } from './types.js';

/** The action class of a proposal the adapter cannot classify. */
export const UNCLASSIFIED = 'unclassified';
/** The signature of a failure the adapter does not recognise. */
export const UNRECOGNISED = 'unknown';

/** The action classes that package's tool-call adapter produces, and what each does to the world. */
const KNOWN_KINDS: Readonly<Record<string, ActionKind>> = {
  file_read: 'read',
  file_edit: 'mutate',
  file_create: 'create',
  delete: 'delete',
  shell_exec: 'exec',
  search: 'search',
  api_call: 'api',
};

const METHODS = ['extractSignature', 'classifyBlame', 'classifyAction', 'extractParameters'] as const;
const BLAMES: ReadonlySet<string> = new Set(['agent_failure', 'harness_fault', 'unknown']);

function assertAdapter(adapter: DomainAdapter): void {
  const missing = METHODS.filter(
    (method) => typeof (adapter as unknown as Record<string, unknown>)?.[method] !== 'function',
  );
  if (missing.length > 0) {
    throw new CompatError(
      'ADAPTER_INVALID',
      `The adapter lacks ${missing.join(', ')}: an adapter needs ${METHODS.join(', ')}.`,
      missing.map((method) => `${method} is not a function`),
    );
  }
}

function scalarsOf(parameters: Readonly<Record<string, unknown>>): Record<string, number | string | boolean> {
  const out: Record<string, number | string | boolean> = {};
  for (const [key, value] of Object.entries(parameters)) {
    if (key.startsWith('_')) continue;
    if (
      typeof value === 'string' ||
      typeof value === 'boolean' ||
      (typeof value === 'number' && Number.isFinite(value))
    )
      out[key] = value;
  }
  return out;
}

export function bridgeAdapter(adapter: DomainAdapter): EngineAdapter {
  assertAdapter(adapter);
  const signatures = [...new Set((adapter.signaturePatterns ?? []).map((pattern) => pattern.signature))];

  function describeCall(proposal: EngineProposal): CallFacts {
    const view = paperViewOf(proposal);
    const parameters = { ...view.parameters };
    const actionClass =
      view.actionClass ?? adapter.classifyAction(parameters, [...view.targets]) ?? UNCLASSIFIED;
    return {
      actionClass,
      kind: KNOWN_KINDS[actionClass] ?? 'other',
      targets: view.targets.map(normalizeTarget),
      parameters: scalarsOf(adapter.extractParameters(parameters) ?? {}),
    };
  }

  function describeFailure(
    outcome: Parameters<EngineAdapter['describeFailure']>[0],
  ): FailureFacts | undefined {
    if (outcome.success) return undefined;
    const text = outcome.error ?? outcome.content ?? '';
    const view = paperViewOf(outcome.proposal);
    const blame = adapter.classifyBlame(text, view.metadata ? { ...view.metadata } : undefined);
    return {
      signature: adapter.extractSignature(text) ?? UNRECOGNISED,
      blame: BLAMES.has(blame) ? blame : 'unknown',
      deterministic: false,
      meaning: 'call',
    };
  }

  return { name: adapter.name, signatures, actionClasses: [], describeCall, describeFailure };
}

/**
 * The engine proposal for a bridged adapter. The targets are part of the arguments, so that the
 * same parameters against other targets are another call.
 */
export function bridgedProposal(adapter: DomainAdapter, view: PaperView): EngineProposal {
  const args = argumentsOf(view.parameters);
  if (view.targets.length > 0) args.targets = [...view.targets];
  return rememberView({ tool: toolNamed(view.parameters) ?? adapter.name, args }, view);
}
