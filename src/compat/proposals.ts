/**
 * Proposals of `@sovereign-labs/narrowing` (`parameters` + `targets`) as this engine's (`tool` +
 * `args`). The original is remembered next to the engine proposal made from it, so that an adapter
 * written to that package's interface is asked about exactly what the caller proposed.
 */
import type { Proposal as EngineProposal } from '../core/types.js';

/** A proposal as that package describes it: what an adapter written to its interface reads. */
export interface PaperView {
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly targets: readonly string[];
  readonly actionClass?: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

const views = new WeakMap<EngineProposal, PaperView>();

/** Remembers `view` as the original form of `proposal`; returns `proposal`. */
export function rememberView(proposal: EngineProposal, view: PaperView): EngineProposal {
  views.set(proposal, view);
  return proposal;
}

/** The original form of a proposal; for one made elsewhere, its arguments with the tool's name. */
export function paperViewOf(proposal: EngineProposal): PaperView {
  return views.get(proposal) ?? { parameters: { tool: proposal.tool, ...proposal.args }, targets: [] };
}

const TOOL_KEYS = ['tool', 'tool_name', 'name'] as const;

/** The tool a proposal names in its parameters, the way that package's tool-call adapter reads it. */
export function toolNamed(parameters: Readonly<Record<string, unknown>>): string | undefined {
  for (const key of TOOL_KEYS) {
    const value = parameters[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

/** The parameters without the one that named the tool. */
export function argumentsOf(parameters: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  let skipped = false;
  for (const key of Object.keys(parameters)) {
    if (
      !skipped &&
      (TOOL_KEYS as readonly string[]).includes(key) &&
      parameters[key] === toolNamed(parameters)
    ) {
      skipped = true;
      continue;
    }
    args[key] = parameters[key];
  }
  return args;
}

/** Markers that `computeParameterDeltas` adds (`_delta`, `_prev_depth`): not parameters themselves. */
export function isMarker(key: string): boolean {
  return key.startsWith('_');
}

export function withoutMarkers(parameters: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(parameters)) if (!isMarker(key)) out[key] = parameters[key];
  return out;
}
