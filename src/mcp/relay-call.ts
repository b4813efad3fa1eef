import {
  type CallToolRequestParams,
  type Progress,
  SdkError,
  SdkErrorCode,
} from '@modelcontextprotocol/client';
import { type Deadline, Deadlines } from './deadlines.js';
import type { RelayOutcome, UpstreamClient } from './upstream-client.js';

export interface RelayCallOptions {
  /** How long the call may run without progress before it ends with a timeout. */
  readonly timeoutMs: number;
  /** Set when the client asked for progress: updates keep the call alive. */
  readonly onProgress?: (progress: Progress) => void;
}

/** A tool call on its way through the upstream. */
export interface PendingCall {
  /**
   * How the call ended. Undefined only for a call that was abandoned and never answered within the
   * timeout: there is nothing to learn from it.
   */
  readonly outcome: Promise<RelayOutcome | undefined>;
  /**
   * The client no longer wants the answer (it cancelled, or went away). With `tellServer`, the server
   * is sent `notifications/cancelled`; either way an answer that still comes is awaited, so that what
   * the call did is learned: cancelling a call does not dodge what its failure teaches.
   */
  abandon(reason: string, options?: { readonly tellServer?: boolean }): void;
}

/**
 * How long an abandoned call's answer is still awaited (at most the call timeout): long enough for a
 * server that does not stop on cancellation to finish, short enough that abandoned calls do not pile up.
 */
export const ABANDONED_ANSWER_WAIT_MS = 30_000;

/** The timeouts of every relayed call, on one timer. */
const timeouts = new Deadlines();

/** Relays one call with the proxy's timeout; the timeout tells the server the call is abandoned. */
export function relayCall(
  client: UpstreamClient,
  params: CallToolRequestParams,
  options: RelayCallOptions,
): PendingCall {
  let abandoned = false;
  let abandon: PendingCall['abandon'] = () => undefined;
  const outcome = new Promise<RelayOutcome | undefined>((resolve) => {
    let timeout: Deadline | undefined;
    /** How long progress keeps the call alive: the call timeout, then an abandoned call's wait. */
    let waitMs = options.timeoutMs;
    const { onProgress } = options;
    const relayed = client.relayToolCall(params, {
      settled: (ended) => {
        timeout?.clear();
        resolve(ended);
      },
      ...(onProgress && {
        progressed: (progress: Progress) => {
          timeout?.reset(waitMs);
          if (!abandoned) onProgress(progress);
        },
      }),
    });
    const expire = () => {
      if (abandoned) {
        relayed.forget();
        resolve(undefined);
        return;
      }
      const error = new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', {
        timeout: options.timeoutMs,
      });
      relayed.cancel(String(error));
      relayed.forget();
      resolve({ error });
    };
    timeout = timeouts.add(options.timeoutMs, expire);
    abandon = (reason, { tellServer = true } = {}) => {
      if (abandoned) return;
      abandoned = true;
      if (tellServer) relayed.cancel(reason);
      waitMs = Math.min(options.timeoutMs, ABANDONED_ANSWER_WAIT_MS);
      timeout?.reset(waitMs);
    };
  });
  return { outcome, abandon: (reason, how) => abandon(reason, how) };
}
