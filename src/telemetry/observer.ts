/**
 * What a guard tells an observer (telemetry, say) about each check and record, after the fact. An
 * observer sees verdicts; it can never change one, and a throwing observer is ignored.
 */
import type { CheckResult, Outcome, Proposal, RecordResult } from '../core/types.js';
import type { ToolCallTracer } from './tool-spans.js';

export interface CheckedCall {
  readonly proposal: Proposal;
  readonly result: CheckResult;
  readonly sessionId: string;
  /** Milliseconds since the epoch, with sub-millisecond precision. */
  readonly startedAt: number;
  readonly endedAt: number;
}

export interface RecordedCall {
  readonly outcome: Outcome;
  readonly result: RecordResult;
  readonly sessionId: string;
  readonly startedAt: number;
  readonly endedAt: number;
}

export interface GuardObserver {
  checked?(call: CheckedCall): void;
  recorded?(call: RecordedCall): void;
  /**
   * Traces the tool calls a face runs itself (the MCP proxy, the agent loop); the checks and records
   * made during one are told as part of it.
   */
  readonly toolCalls?: ToolCallTracer;
  /** Hands on what is pending (spans to an exporter); awaited when the guard flushes or closes. */
  flush?(): Promise<void>;
}
