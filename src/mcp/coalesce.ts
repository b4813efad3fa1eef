/**
 * Identical `tools/call` requests a client has in flight at once (JSON-RPC lets it send several)
 * run once, with the rule every face follows (see `guard/in-flight.ts`): the first goes to the
 * server; a duplicate waits until it has been answered (see `IdenticalCalls.waitMs`), and then
 * - gets the first's answer, without reaching the server, when the first failed, was refused, or
 *   changed something (its result, with the verdict `coalesced` in `_meta` and a line saying so);
 * - goes to the server on its own when the first succeeded and the tool only reads.
 * Calls are matched within one client connection: two clients never answer each other's calls.
 */
import type { CallToolResult, JSONRPCErrorResponse, ProtocolError } from '@modelcontextprotocol/client';
import { createToolCallAdapter } from '../adapters/tool-call/index.js';
import type { Proposal } from '../core/types.js';
import {
  answersDuplicate,
  type CallClaim,
  COALESCED_RULE,
  coalescedReason,
  type InFlightCalls,
  type ToolKnowledge,
  type TwinAnswer,
  waitForTwin,
} from '../guard/in-flight.js';
import type { CallGuard, GuardSession } from '../guard/session.js';
import { VERDICT_META_KEY } from '../guard/verdict.js';

/** A guard that may also journal coalesced calls and describe tools (a full guard session does). */
export type CoalescingGuard = CallGuard & Partial<Pick<GuardSession, 'noteCoalesced' | 'engine' | 'policy'>>;

/** The server's JSON-RPC error a call ended with, as the SDK path throws it and as the fast path sends it. */
export interface ServerRpcError {
  readonly error: ProtocolError;
  readonly wire: JSONRPCErrorResponse['error'];
}

/** What a duplicate is answered with: a result, or the server's JSON-RPC error its twin ended with. */
export type CoalescedAnswer = { readonly result: CallToolResult } | { readonly rpcError: ServerRpcError };

/** The first of identical calls, and how to tell its twins what came of it. */
export type FirstClaim = Extract<CallClaim, { role: 'first' }>;
export type DuplicateClaim = Extract<CallClaim, { role: 'duplicate' }>;

/** How the tool-call adapter sees tools, for a guard that brings no engine of its own. */
let fallbackKnowledge: ToolKnowledge | undefined;

/** The identical calls of one client connection, put to the coalescing rule. */
export class IdenticalCalls {
  /**
   * How long a duplicate waits for its twin: twice the call timeout. The twin's own timeout starts
   * when it reaches the server, which may be after the server has started and listed its tools, so
   * a duplicate that gave up after one call timeout could reach the server while its twin still runs.
   */
  private readonly waitMs: number;

  constructor(
    private readonly calls: InFlightCalls,
    private readonly guard: CoalescingGuard,
    /** The proxy's timeout for a call. */
    callTimeoutMs: number,
  ) {
    this.waitMs = 2 * callTimeoutMs;
  }

  /** The call's claim; undefined when its arguments cannot be read (it then runs on its own). */
  claim(proposal: Proposal): CallClaim | undefined {
    try {
      return this.calls.claim(proposal);
    } catch {
      return undefined;
    }
  }

  /** What came of the twin, or undefined when it did not come in time or `cancelled` fired first. */
  twinAnswer(claim: DuplicateClaim, cancelled?: AbortSignal): Promise<TwinAnswer | undefined> {
    if (claim.settled !== undefined) return Promise.resolve(claim.settled);
    return waitForTwin(claim.twin, { timeoutMs: this.waitMs, ...(cancelled && { signal: cancelled }) });
  }

  /**
   * The duplicate's answer from its twin, journalled as `coalesced`; undefined when the duplicate
   * must run on its own (no answer, or a read that succeeded).
   */
  answer(proposal: Proposal, twin: TwinAnswer | undefined): CoalescedAnswer | undefined {
    try {
      if (!answersDuplicate(this.knowledge(), proposal, twin)) return undefined;
      const reason = coalescedReason(proposal, twin);
      this.guard.noteCoalesced?.(proposal, reason);
      if (twin.status === 'threw') return { rpcError: twin.error as ServerRpcError };
      const result: CallToolResult =
        twin.status === 'refused'
          ? { content: [{ type: 'text', text: twin.message }], isError: true }
          : (twin.value as CallToolResult);
      return { result: coalescedResult(result, reason) };
    } catch {
      // A fault of the guard never keeps a call from the server.
      return undefined;
    }
  }

  private knowledge(): ToolKnowledge {
    const { engine, policy } = this.guard;
    if (engine !== undefined && policy !== undefined) return { engine, policy };
    fallbackKnowledge ??= { engine: { adapter: createToolCallAdapter() }, policy: { tools: {} } };
    return fallbackKnowledge;
  }
}

/** What the twin's client was answered with, for its duplicates: a failure when `failed`. */
export function ranAnswer(result: CallToolResult, failed: boolean): TwinAnswer {
  return { status: 'ran', value: result, failed };
}

/** A twin that ended with the server's JSON-RPC error (unknown tool, invalid params). */
export function rpcErrorAnswer(error: ProtocolError, wire?: JSONRPCErrorResponse['error']): TwinAnswer {
  const rpcError: ServerRpcError = {
    error,
    wire: wire ?? {
      code: error.code,
      message: error.message,
      ...(error.data !== undefined && { data: error.data }),
    },
  };
  return { status: 'threw', error: rpcError };
}

/** A twin refused by the guard: the words its client read. */
export function refusedAnswer(result: CallToolResult): TwinAnswer {
  const first = result.content?.[0];
  return { status: 'refused', message: first?.type === 'text' ? first.text : '' };
}

/** The verdict a coalesced result carries in `_meta`, beside the words the model reads. */
export interface CoalescedMeta {
  readonly verdict: 'coalesced';
  readonly rule: string;
  readonly reason: string;
  readonly violations: readonly never[];
}

/** The twin's result as the duplicate's: its content and a line saying why, the verdict in `_meta`. */
function coalescedResult(result: CallToolResult, reason: string): CallToolResult {
  const meta: CoalescedMeta = { verdict: 'coalesced', rule: COALESCED_RULE, reason, violations: [] };
  return {
    ...result,
    content: [...(result.content ?? []), { type: 'text', text: `[narrowing coalesced this call] ${reason}` }],
    _meta: { ...result._meta, [VERDICT_META_KEY]: meta },
  };
}
