/**
 * How the middleware composes with a retry middleware (`toolRetryMiddleware`), in either order:
 * retries of environment faults (timeouts, rate limits, network, 5xx) happen inside, and the guard
 * judges what finally came of the call.
 *
 * - Guard first (outside the retries): the tool the call runs is handed down with its thrown errors
 *   marked retryable or not by narrowing's blame (LangChain's own `retryable` mark, which the retry
 *   middleware's default `retryOn` reads), so an agent's mistake (a missing file) is not retried; the
 *   last error the tool threw is kept, so the guard learns from it rather than from the retry
 *   middleware's summary.
 * - Guard last (inside the retries): an environment fault is recorded and passed on as a
 *   recoverable, retryable tool error, so the retry middleware retries it; without one, LangChain
 *   answers it with its text as the guard would have. Every other error is answered by the guard.
 */
import type { ToolCallRequest } from 'langchain';
import type { Proposal } from '../../core/types.js';
import type { GuardSession } from '../../guard/index.js';
import { toolCallOutcomes } from '../tool-call-outcomes.js';

/** LangChain's mark of whether retrying an error may succeed (`@langchain/core/errors`). */
const RETRYABLE = Symbol.for('langchain.errors.retryable');

/** The brand by which LangChain's tool node answers a tool error instead of ending the run. */
const RECOVERABLE_BRAND = 'ToolInvocationError';

/** True when narrowing blames the environment for `error`: retrying the same call may succeed. */
export function isEnvironmentFault(session: GuardSession, proposal: Proposal, error: unknown): boolean {
  try {
    const { adapter } = session.engine;
    const outcome = toolCallOutcomes.error(proposal, error, 0);
    return adapter.describeFailure(outcome, adapter.describeCall(proposal))?.blame === 'harness_fault';
  } catch {
    return false;
  }
}

/** Marks `error` retryable or not, unless the tool marked it itself. */
export function markRetryable(error: unknown, retryable: boolean): void {
  if (typeof error !== 'object' || error === null || Object.hasOwn(error, RETRYABLE)) return;
  try {
    Object.defineProperty(error, RETRYABLE, { value: retryable, configurable: true });
  } catch {
    // A frozen error keeps no mark: the retry middleware decides by its own default.
  }
}

/** What the tool threw last during one call, over all the attempts made inside the guard. */
export interface Attempts {
  lastError?: { readonly error: unknown };
}

/**
 * The request with its tool replaced by one whose thrown errors are marked retryable by blame and
 * kept in `attempts`. A request without a tool (one registered dynamically) is left as it is.
 */
export function markingRequest(
  request: ToolCallRequest,
  isRetryable: (error: unknown) => boolean,
  attempts: Attempts,
): ToolCallRequest {
  const tool = request.tool as { invoke?: unknown } | undefined;
  if (tool === undefined || tool === null || typeof tool.invoke !== 'function') return request;
  const invoke = tool.invoke as (...args: unknown[]) => Promise<unknown>;
  const marking = Object.create(tool, {
    invoke: {
      value: async (...args: unknown[]) => {
        try {
          const value = await invoke.apply(tool, args);
          attempts.lastError = undefined;
          return value;
        } catch (error) {
          attempts.lastError = { error };
          markRetryable(error, isRetryable(error));
          throw error;
        }
      },
    },
  });
  return { ...request, tool: marking } as ToolCallRequest;
}

/**
 * An environment fault passed on for a retry middleware outside the guard: its text is the tool's
 * error as the model would read it, and LangChain answers it with that text when nothing retries it.
 */
export class TransientToolError extends Error {
  override readonly name = 'TransientToolError';
  readonly '~brand' = RECOVERABLE_BRAND;

  constructor(text: string, cause: unknown) {
    super(text, { cause });
    markRetryable(this, true);
  }
}
