/** The free functions of `@sovereign-labs/narrowing` that ask an adapter about an error string. */
import type { DomainAdapter, FailureKind } from './types.js';

/** The adapter's signature for an error, or `undefined` when it recognises none. */
export function extractSignature(error: string, adapter: DomainAdapter): string | undefined {
  return adapter.extractSignature(error);
}

/** Whose fault an error is, by the adapter: only `agent_failure` ever narrows the agent. */
export function classifyBlame(error: string, adapter: DomainAdapter): FailureKind {
  return adapter.classifyBlame(error);
}
