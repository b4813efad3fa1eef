import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { SERVER_CRASH_EXCEPTION, toolCallToOutcome } from '../adapters/tool-call/index.js';
import type { Outcome, Proposal } from '../core/types.js';
import { CallCrashedServerError } from './crash-ledger.js';
import { describeError } from './log.js';
import { UpstreamDownError } from './upstream.js';

/** A result the upstream returned: `isError`, the text content, and `_meta` (with its non-advancing flag). */
export function callToolResultToOutcome(
  proposal: Proposal,
  result: CallToolResult,
  durationMs: number,
): Outcome {
  return { ...toolCallToOutcome(proposal.tool, proposal.args, result, { durationMs }), proposal };
}

/**
 * A call that did not come back with a result. A JSON-RPC error from the server (unknown tool,
 * invalid parameters) keeps its code and text, so that blame can tell bad arguments from a
 * broken server; transport faults (exit, hang) carry exception names that mark them as faults
 * of the harness, which never narrow the agent.
 */
export function callErrorToOutcome(proposal: Proposal, error: unknown, durationMs: number): Outcome {
  const base = { proposal, success: false, error: describeError(error), durationMs };
  if (error instanceof CallCrashedServerError) return { ...base, exceptionName: SERVER_CRASH_EXCEPTION };
  if (error instanceof ProtocolError) {
    return { ...base, errorCode: String(error.code), exceptionName: 'ProtocolError' };
  }
  if (error instanceof SdkError)
    return { ...base, errorCode: error.code, exceptionName: sdkExceptionName(error.code) };
  if (error instanceof UpstreamDownError) return { ...base, exceptionName: 'ConnectionError' };
  return { ...base, exceptionName: error instanceof Error ? error.name : 'Error' };
}

function sdkExceptionName(code: SdkErrorCode): string {
  if (code === SdkErrorCode.RequestTimeout) return 'TimeoutError';
  if (code === SdkErrorCode.ConnectionClosed || code === SdkErrorCode.NotConnected) return 'ConnectionError';
  return 'SdkError';
}
