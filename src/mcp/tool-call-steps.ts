import { type CallToolResult, type RequestId, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { CheckResult, Outcome, Proposal, RecordResult } from '../core/types.js';
import { checkSafely, type GuardFaultOptions, recordSafely } from '../guard/guarded-call.js';
import type { InFlightCalls } from '../guard/in-flight.js';
import type { CallGuard } from '../guard/session.js';
import { VERDICT_META_KEY } from '../guard/verdict.js';
import { IdenticalCalls } from './coalesce.js';
import { CallCrashedServerError } from './crash-ledger.js';
import { describeError, type Log } from './log.js';
import { callErrorToOutcome, callToolResultToOutcome } from './outcome.js';
import type { ToolCatalog, ToolDescription } from './tool-catalog.js';
import type { UpstreamLink } from './upstream-link.js';
import { warnedResult } from './verdict-result.js';

/**
 * A call on its way to the server, as the crash ledger watches it: ended once, with whether the
 * server answered. Undefined when nothing watches the upstream for crashes.
 */
export type DispatchedCall = ((completed: boolean) => void) | undefined;

export interface ToolCallStepsOptions {
  readonly guard: CallGuard;
  readonly catalog: ToolCatalog;
  readonly upstream: UpstreamLink;
  /** How long a call may run without progress; after a timeout, a ping gets as long (10 s at most). */
  readonly callTimeoutMs: number;
  readonly log: Log;
  /**
   * The calls of this client connection in flight, shared by the ways a call travels through the
   * proxy: identical calls run once (see `coalesce.ts`). Without it every call runs.
   */
  readonly inFlight?: InFlightCalls;
}

const MAX_LISTING_PAGES = 64;

/**
 * The steps every guarded tool call takes, whichever way it travels through the proxy: the proposal
 * (with the tool's annotations), the verdict, and what the outcome teaches. A fault in the guard
 * never takes a call away from the user: it is logged and the call goes through.
 */
export class ToolCallSteps {
  private readonly faults: GuardFaultOptions;
  /** Identical calls in flight on this connection, when the proxy coalesces them. */
  readonly identical: IdenticalCalls | undefined;

  constructor(private readonly options: ToolCallStepsOptions) {
    this.faults = { reportFault: (fault) => options.log(fault.message) };
    this.identical =
      options.inFlight && new IdenticalCalls(options.inFlight, options.guard, options.callTimeoutMs);
  }

  /**
   * The proposal for a call; a tool the catalog does not know yet has the tool list fetched first.
   * A proposal, not a promise, when the catalog knows the tool: the usual case skips a turn of the
   * event loop's microtask queue.
   */
  propose(
    name: string,
    args: Record<string, unknown> | undefined,
    callId: RequestId,
  ): Proposal | Promise<Proposal> {
    const known = this.options.catalog.describe(name);
    if (known) return proposalOf(name, args, known, callId);
    return this.proposeAfterListing(name, args, callId);
  }

  private async proposeAfterListing(
    name: string,
    args: Record<string, unknown> | undefined,
    callId: RequestId,
  ): Promise<Proposal> {
    const { catalog } = this.options;
    await catalog.fill(() => this.listTools());
    return proposalOf(name, args, catalog.describe(name), callId);
  }

  /** The guard's verdict, or undefined when the guard failed (and the call goes through). */
  check(proposal: Proposal): CheckResult | undefined {
    const verdict = checkSafely(this.options.guard, proposal, this.faults);
    return verdict.ok ? verdict.check : undefined;
  }

  /**
   * The call is about to reach the server: it is in flight should the server go down. The caller
   * keeps what this returns and hands it to `received` or `failed` when the call ends (a table of
   * watches keyed by proposal cost every call a weak map's insert and removal).
   */
  dispatched(proposal: Proposal): DispatchedCall {
    return this.options.upstream.crashes?.begin(proposal);
  }

  /**
   * Records a result; returns what the client receives (with the warning of a warned call), and
   * whether the call failed as the guard reads it (an error, or an empty answer).
   */
  answered(
    proposal: Proposal,
    verdict: CheckResult | undefined,
    result: CallToolResult,
    startedAt: number,
    dispatch: DispatchedCall,
  ): { readonly result: CallToolResult; readonly failed: boolean } {
    const durationMs = this.received(startedAt, dispatch);
    const failed = this.learn(proposal, result, durationMs);
    return { result: this.relayed(verdict, result), failed };
  }

  /** The server's answer has arrived: the call is no longer in flight. Returns how long it took, ms. */
  received(startedAt: number, dispatch: DispatchedCall): number {
    dispatch?.(true);
    return performance.now() - startedAt;
  }

  /** What the client receives for the server's result: the warning of a warned call, no claimed verdict. */
  relayed(verdict: CheckResult | undefined, result: CallToolResult): CallToolResult {
    const relayed = withoutClaimedVerdict(result);
    return verdict?.verdict === 'warn' ? warnedResult(relayed, verdict) : relayed;
  }

  /**
   * Records a result that took `durationMs`; returns whether the call failed as the guard reads it
   * (an error, or an empty answer).
   */
  learn(proposal: Proposal, result: CallToolResult, durationMs: number): boolean {
    const recorded = this.record(callToolResultToOutcome(proposal, result, durationMs));
    return result.isError === true || recorded?.outcome.success === false;
  }

  /**
   * Records a call that came back without a result, and returns the error it ended with: the one
   * given, or, when the server went down with the call in flight for the second time in a row,
   * a `CallCrashedServerError` that holds the call responsible. The client then receives the
   * server's own JSON-RPC error unchanged (unknown tool, invalid params), or `faultResult`.
   */
  failed(proposal: Proposal, error: unknown, startedAt: number, dispatch?: DispatchedCall): unknown {
    dispatch?.(false);
    const crash = isConnectionLoss(error) ? this.options.upstream.crashes?.culprit(proposal) : undefined;
    const ended = crash ? new CallCrashedServerError(proposal.tool, crash) : error;
    this.record(callErrorToOutcome(proposal, ended, performance.now() - startedAt));
    if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
      void this.options.upstream.suspectHang?.(Math.min(10_000, this.options.callTimeoutMs));
    }
    return ended;
  }

  private record(outcome: Outcome): RecordResult | undefined {
    return recordSafely(this.options.guard, outcome, this.faults);
  }

  /** Every page of the tool list, so that a client that calls without listing still gets annotations. */
  private async listTools(): Promise<void> {
    const { catalog, upstream, log } = this.options;
    try {
      const client = await upstream.client();
      let cursor: string | undefined;
      for (let page = 0; page < MAX_LISTING_PAGES; page += 1) {
        const result = await client.request(
          { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
          { timeout: 10_000 },
        );
        cursor = result.nextCursor;
        catalog.remember(result.tools, { lastPage: cursor === undefined });
        if (cursor === undefined) return;
      }
    } catch (error) {
      log(`could not list the tools of the MCP server: ${describeError(error)}`);
      // Proposals go without annotations rather than every call paying for another failed listing.
      catalog.remember([], { lastPage: true });
    }
  }
}

function proposalOf(
  name: string,
  args: Record<string, unknown> | undefined,
  known: ToolDescription | undefined,
  callId: RequestId,
): Proposal {
  return { tool: name, args: args ?? {}, ...known, callId: String(callId) };
}

/**
 * The result without a verdict the server put in it itself: only narrowing gives verdicts, and a
 * client that trusts `_meta["dev.narrowing/verdict"]` must not be told "allowed" by the server.
 */
function withoutClaimedVerdict(result: CallToolResult): CallToolResult {
  const meta = result._meta;
  if (meta === undefined || !Object.hasOwn(meta, VERDICT_META_KEY)) return result;
  const { [VERDICT_META_KEY]: _claimed, ...kept } = meta;
  if (Object.keys(kept).length > 0) return { ...result, _meta: kept };
  const { _meta: _dropped, ...rest } = result;
  return rest as CallToolResult;
}

/** The answer to a call that the upstream could not give: the model learns it was not its fault. */
export function faultResult(tool: string, error: unknown): CallToolResult {
  return {
    content: [{ type: 'text', text: `The MCP server could not complete ${tool}: ${faultText(error)}` }],
    isError: true,
  };
}

function isConnectionLoss(error: unknown): boolean {
  return error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed;
}

function faultText(error: unknown): string {
  if (error instanceof SdkError) {
    if (error.code === SdkErrorCode.RequestTimeout)
      return 'it did not answer in time. This is not a problem with the call.';
    if (error.code === SdkErrorCode.ConnectionClosed || error.code === SdkErrorCode.NotConnected) {
      return 'the server exited while the call was running. This is not a problem with the call.';
    }
  }
  return `${describeError(error)}.`;
}
