/**
 * How an adapter of `@sovereign-labs/narrowing`'s interface runs on this engine. The adapters this
 * package creates carry a binding to the engine's own adapter for their domain; any other adapter
 * is bridged (see `bridge.ts`).
 */
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
 * The engine's adapter, except that a proposal which names its action class keeps it, as that
 * package lets a caller do.
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
      return actionClass === undefined || actionClass === facts.actionClass
        ? facts
        : { ...facts, actionClass };
    },
  };
}
