/**
 * How an adapter of `@sovereign-labs/narrowing`'s interface runs on this engine. The adapters this
 * package creates carry a binding to the engine's own adapter for their domain; any other adapter
 * is bridged (see `bridge.ts`).
 */

import { normalizeTarget } from '../adapters/tool-call/targets.js';
import type { DomainAdapter as EngineAdapter, Proposal as EngineProposal } from '../core/types.js';
import { bridgeAdapter, bridgedProposal } from './bridge.js';
import { type PaperView, paperViewOf } from './proposals.js';
import type { DomainAdapter } from './types.js';

export interface EngineBinding {
  readonly adapter: EngineAdapter;
  /** The engine proposal for a proposal in that package's shape. */
  toProposal(view: PaperView): EngineProposal;
}

const BINDING = Symbol.for('narrowing.compat.engine-binding');

type Bound = DomainAdapter & { readonly [BINDING]?: EngineBinding };

/** Attaches `binding` to `adapter`, out of sight of code that only knows that package's interface. */
export function bind<T extends DomainAdapter>(adapter: T, binding: EngineBinding): T {
  Object.defineProperty(adapter, BINDING, { value: binding, enumerable: false });
  return adapter;
}

export function bindingOf(adapter: DomainAdapter): EngineBinding {
  const own = (adapter as Bound)[BINDING];
  if (own) return own;
  return { adapter: bridgeAdapter(adapter), toProposal: (view) => bridgedProposal(adapter, view) };
}

/**
 * The engine's adapter, except that what the caller says about a proposal counts, as that package
 * lets it: an action class it names is kept, and the targets it lists are targets of the call too
 * (the radius limit counts them), beside those the engine finds in the arguments.
 */
export function honouringActionClass(
  adapter: EngineAdapter,
  classify?: (view: PaperView) => string | undefined,
): EngineAdapter {
  return {
    ...adapter,
    describeCall(proposal) {
      const facts = adapter.describeCall(proposal);
      const view = paperViewOf(proposal);
      const actionClass = view.actionClass ?? classify?.(view);
      const targets = withCallerTargets(facts.targets, view.targets);
      if ((actionClass === undefined || actionClass === facts.actionClass) && targets === facts.targets)
        return facts;
      return { ...facts, actionClass: actionClass ?? facts.actionClass, targets };
    },
  };
}

const MAX_CALLER_TARGETS = 64;

/** The engine's targets, then the caller's that are not among them (compared in canonical form). */
function withCallerTargets(found: readonly string[], listed: readonly string[]): readonly string[] {
  let merged: string[] | undefined;
  for (const target of listed.slice(0, MAX_CALLER_TARGETS)) {
    if (typeof target !== 'string' || target === '') continue;
    const canonical = normalizeTarget(target);
    if (found.includes(canonical) || merged?.includes(canonical)) continue;
    merged ??= [...found];
    merged.push(canonical);
  }
  return merged ?? found;
}
