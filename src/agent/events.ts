/**
 * What a run reports as it goes: every change of state, each model request and stream, retries,
 * tool calls with their verdicts, recoveries, compactions and budget warnings.
 */
import type { RecordedVerdict } from '../core/types.js';
import type { ReserveKind } from './budget.js';
import type { ContextStrategy } from './context.js';
import type { ProviderEvent } from './provider.js';
import type { StateChange } from './states.js';

export interface RunTotals {
  readonly steps: number;
  readonly tokens: number;
  readonly costUsd: number;
  readonly elapsedMs: number;
}

/**
 * `abandoned`: the tool was still running when the run was cancelled or ran out of time, and did not
 * stop when its signal was aborted; the run ended without it (what it does later is not learned).
 */
export type ToolResultStatus = 'ran' | 'failed' | 'refused' | 'coalesced' | 'not-run' | 'abandoned';

export type AgentEvent =
  | ({ readonly type: 'state' } & StateChange)
  | { readonly type: 'step'; readonly step: number }
  | ProviderEvent
  | {
      readonly type: 'usage';
      readonly inputTokens: number;
      readonly outputTokens: number;
      readonly costUsd: number;
      readonly totals: RunTotals;
    }
  | {
      readonly type: 'tool-call';
      readonly toolCallId: string;
      readonly toolName: string;
      readonly input: unknown;
      /** Undefined when the guard could not give one (it failed open) or the call could not be read. */
      readonly verdict: RecordedVerdict | undefined;
      readonly rule?: string;
    }
  | {
      readonly type: 'tool-result';
      readonly toolCallId: string;
      readonly toolName: string;
      readonly status: ToolResultStatus;
      /** What the model reads. */
      readonly output: string;
    }
  | { readonly type: 'recovery'; readonly count: number; readonly max: number }
  | { readonly type: 'compaction'; readonly strategy: ContextStrategy; readonly removed: number }
  | { readonly type: 'budget-warning'; readonly kind: ReserveKind; readonly text: string }
  | {
      readonly type: 'alternatives';
      readonly tool: string;
      readonly alternatives: readonly string[];
      readonly text: string;
    }
  | { readonly type: 'guard-fault'; readonly message: string };
