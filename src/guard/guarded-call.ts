/**
 * check → run → record, with one policy for everything that can go wrong around a tool call:
 * - the guard itself fails (a bug, a hostile input): the call runs (fail open) unless the caller
 *   asked to fail closed, and the fault is reported;
 * - the call is refused: it does not run, and the refusal carries the words the model reads;
 * - the call is cancelled: a result that arrives is still learned from; a call abandoned before any
 *   result teaches nothing;
 * - the call is warned: it runs, and the warning travels with its result as data.
 */
import { toolCallToOutcome } from '../adapters/tool-call/index.js';
import { NarrowingError } from '../core/errors.js';
import type { CheckResult, Outcome, Proposal, RecordResult } from '../core/types.js';
import {
  answersDuplicate,
  type CallClaim,
  coalescedReason,
  inFlightCalls,
  type TwinAnswer,
  waitForTwin,
} from './in-flight.js';
import type { GuardSession } from './session.js';
import { verdictText } from './verdict.js';

export type FaultPolicy = 'open' | 'closed';

export interface GuardFaultOptions {
  /** `open` (default): a guard fault lets the call run. `closed`: it refuses the call. */
  readonly onFault?: FaultPolicy;
  /** Told about every guard fault. Default: nothing (the fault is also in the returned result). */
  readonly reportFault?: (fault: NarrowingError) => void;
}

/** The verdict for a proposal, or a fault when the guard could not give one. */
export type SafeCheck =
  | { readonly ok: true; readonly check: CheckResult }
  | { readonly ok: false; readonly fault: NarrowingError };

/** Checks a proposal; a throwing guard becomes a `GUARD_FAULT` instead of an exception. */
export function checkSafely(
  session: Pick<GuardSession, 'check'>,
  proposal: Proposal,
  options: GuardFaultOptions = {},
): SafeCheck {
  try {
    return { ok: true, check: session.check(proposal) };
  } catch (error) {
    const then = options.onFault === 'closed' ? 'refusing it' : 'letting it run';
    const fault = guardFault(`to check a call to ${proposal.tool}, ${then}`, error);
    options.reportFault?.(fault);
    return { ok: false, fault };
  }
}

/**
 * What the model reads instead of a result when a checked call must not run: a block or a halt, or
 * a guard fault under `onFault: 'closed'`. Undefined when the call may run.
 */
export function refusalText(
  verdict: SafeCheck,
  options: Pick<GuardFaultOptions, 'onFault'> = {},
): string | undefined {
  if (!verdict.ok) {
    return options.onFault === 'closed'
      ? `narrowing could not check this call and is set to refuse calls it cannot check: ${verdict.fault.message}`
      : undefined;
  }
  const { check } = verdict;
  return check.verdict === 'block' || check.verdict === 'halt' ? verdictText(check) : undefined;
}

/**
 * Records an outcome; a throwing guard is reported and returns undefined. Never throws. Give the
 * outcome as a function when building it reads what the tool returned (a getter that throws, a
 * revoked proxy): a fault there is reported the same way, and the tool's result is left as it was.
 */
export function recordSafely(
  session: Pick<GuardSession, 'record'>,
  outcome: Outcome | (() => Outcome),
  options: GuardFaultOptions = {},
): RecordResult | undefined {
  return recordOrFault(session, outcome, options).record;
}

/** What `recordSafely` does, with the fault it reported. */
function recordOrFault(
  session: Pick<GuardSession, 'record'>,
  outcome: Outcome | (() => Outcome),
  options: GuardFaultOptions,
): { readonly record?: RecordResult; readonly fault?: NarrowingError } {
  let built: Outcome | undefined;
  try {
    built = typeof outcome === 'function' ? outcome() : outcome;
    return { record: session.record(built) };
  } catch (error) {
    const tool = built === undefined ? 'a tool (reading what it returned)' : safeToolName(built);
    const fault = guardFault(`to record a call to ${tool}`, error);
    options.reportFault?.(fault);
    return { fault };
  }
}

function safeToolName(outcome: Outcome): string {
  try {
    return String(outcome.proposal.tool);
  } catch {
    return 'a tool';
  }
}

/** What became of a guarded call. */
export type GuardedCallResult<R> =
  /** Refused by the guard (or by a guard fault under `onFault: 'closed'`): it did not run. */
  | {
      readonly status: 'refused';
      readonly check: CheckResult | undefined;
      /** What the model should read instead of a result. */
      readonly message: string;
      readonly fault?: NarrowingError;
    }
  /** It ran and returned. */
  | {
      readonly status: 'ran';
      readonly value: R;
      readonly check: CheckResult | undefined;
      readonly record: RecordResult | undefined;
      /** The warning to show beside the result, when the verdict was `warn`. */
      readonly warning?: string;
      readonly fault?: NarrowingError;
    }
  /** It ran and threw: the error is learned from and handed back, never swallowed. */
  | {
      readonly status: 'threw';
      readonly error: unknown;
      readonly check: CheckResult | undefined;
      readonly record: RecordResult | undefined;
      readonly warning?: string;
      readonly fault?: NarrowingError;
    }
  /** Abandoned through the signal before a result arrived: nothing to learn. */
  | { readonly status: 'cancelled'; readonly check: CheckResult | undefined; readonly reason: unknown }
  /**
   * Issued together with an identical call and answered from it: it did not run, and it is recorded
   * as `coalesced`, never as a refusal. `twin` is what came of the first call; answer with it.
   */
  | {
      readonly status: 'coalesced';
      readonly check: undefined;
      readonly twin: TwinAnswer;
      /** The sentence the journal records. */
      readonly reason: string;
    };

/** How a call's return value or thrown error becomes an outcome the guard learns from. */
export interface OutcomeOf<R> {
  result(proposal: Proposal, value: R, durationMs: number): Outcome;
  error(proposal: Proposal, error: unknown, durationMs: number): Outcome;
}

/**
 * Outcomes of tool calls whatever they return: an MCP `CallToolResult`, a string, a value, or an
 * `{ error }`; a thrown error is a failure with its message.
 */
export const toolCallOutcomes: OutcomeOf<unknown> = {
  result: (proposal, value, durationMs) => ({
    ...toolCallToOutcome(proposal.tool, proposal.args, value, { durationMs }),
    proposal,
  }),
  error: (proposal, error, durationMs) => ({
    ...toolCallToOutcome(proposal.tool, proposal.args, error instanceof Error ? error : { error }, {
      durationMs,
    }),
    proposal,
  }),
};

export interface GuardedCallOptions extends GuardFaultOptions {
  /** A call abandoned through this signal before its result arrived is not learned from. */
  readonly signal?: AbortSignal;
  /** Milliseconds, for durations. Default `performance.now()`. */
  readonly now?: () => number;
  /**
   * Identical calls issued together run once (see `in-flight.ts`): how long a duplicate waits for
   * the first, in milliseconds, or `false` to run every call. Default `DEFAULT_COALESCE_WAIT_MS`.
   */
  readonly coalesce?: { readonly timeoutMs?: number } | false;
}

/** Checks `proposal`, runs it when allowed, and records what came of it. */
export async function guardedCall<R>(
  session: GuardSession,
  proposal: Proposal,
  run: () => Promise<R> | R,
  toOutcome: OutcomeOf<R> = toolCallOutcomes,
  options: GuardedCallOptions = {},
): Promise<GuardedCallResult<R>> {
  const claim = options.coalesce === false ? undefined : claimSafely(session, proposal);
  if (claim?.role === 'duplicate') {
    const answer =
      claim.settled ??
      (await waitForTwin(claim.twin, {
        ...(options.signal && { signal: options.signal }),
        ...(options.coalesce &&
          options.coalesce.timeoutMs !== undefined && { timeoutMs: options.coalesce.timeoutMs }),
      }));
    const coalesced = coalesceSafely(session, proposal, answer, options);
    if (coalesced) return coalesced;
    return runChecked(session, proposal, run, toOutcome, options, undefined);
  }
  return runChecked(session, proposal, run, toOutcome, options, claim);
}

/**
 * The result of a duplicate answered from its twin (journalled as `coalesced`), or undefined when it
 * must run on its own.
 */
export function coalesceSafely(
  session: GuardSession,
  proposal: Proposal,
  answer: TwinAnswer | undefined,
  options: GuardFaultOptions = {},
): Extract<GuardedCallResult<never>, { status: 'coalesced' }> | undefined {
  try {
    if (!answersDuplicate(session, proposal, answer)) return undefined;
    const reason = coalescedReason(proposal, answer);
    session.noteCoalesced(proposal, reason);
    return { status: 'coalesced', check: undefined, twin: answer, reason };
  } catch (error) {
    options.reportFault?.(guardFault(`to coalesce a call to ${proposal.tool}`, error));
    return undefined;
  }
}

/** The call's claim among identical calls of `session`; undefined when it cannot be given one. */
export function claimSafely(session: GuardSession, proposal: Proposal): CallClaim | undefined {
  try {
    return inFlightCalls(session).claim(proposal);
  } catch {
    return undefined;
  }
}

async function runChecked<R>(
  session: GuardSession,
  proposal: Proposal,
  run: () => Promise<R> | R,
  toOutcome: OutcomeOf<R>,
  options: GuardedCallOptions,
  claim: CallClaim | undefined,
): Promise<GuardedCallResult<R>> {
  const first = claim?.role === 'first' ? claim : undefined;
  const result = await checkRunRecord(session, proposal, run, toOutcome, options);
  first?.settle(twinAnswerOf(result));
  return result;
}

/** What a duplicate may be answered with: undefined for a cancelled call (its twins go on alone). */
export function twinAnswerOf(result: GuardedCallResult<unknown>): TwinAnswer | undefined {
  switch (result.status) {
    case 'refused':
      return { status: 'refused', message: result.message };
    case 'ran':
      return { status: 'ran', value: result.value, failed: result.record?.outcome.success === false };
    case 'threw':
      return { status: 'threw', error: result.error };
    case 'coalesced':
      return result.twin;
    case 'cancelled':
      return undefined;
  }
}

async function checkRunRecord<R>(
  session: GuardSession,
  proposal: Proposal,
  run: () => Promise<R> | R,
  toOutcome: OutcomeOf<R>,
  options: GuardedCallOptions,
): Promise<GuardedCallResult<R>> {
  const verdict = checkSafely(session, proposal, options);
  const check = verdict.ok ? verdict.check : undefined;
  const fault = verdict.ok ? undefined : { fault: verdict.fault };
  const refusal = refusalText(verdict, options);
  if (refusal !== undefined) return { status: 'refused', check, message: refusal, ...fault };
  const warning = check?.verdict === 'warn' ? { warning: verdictText(check) } : undefined;
  const now = options.now ?? (() => performance.now());
  const startedAt = now();
  if (options.signal?.aborted) return { status: 'cancelled', check, reason: options.signal.reason };
  let value: R;
  try {
    value = await run();
  } catch (error) {
    if (options.signal?.aborted) return { status: 'cancelled', check, reason: options.signal.reason };
    const durationMs = now() - startedAt;
    const noted = recordOrFault(session, () => toOutcome.error(proposal, error, durationMs), options);
    return { status: 'threw', error, check, record: noted.record, ...warning, ...faultOf(fault, noted) };
  }
  // Outside the call's own try: what the guard fails to read of a result never turns it into an error.
  const durationMs = now() - startedAt;
  const noted = recordOrFault(session, () => toOutcome.result(proposal, value, durationMs), options);
  return { status: 'ran', value, check, record: noted.record, ...warning, ...faultOf(fault, noted) };
}

/** The first fault of a call: the check's, else the record's. */
function faultOf(
  checkFault: { readonly fault: NarrowingError } | undefined,
  noted: { readonly fault?: NarrowingError },
): { readonly fault?: NarrowingError } {
  return checkFault ?? (noted.fault === undefined ? {} : { fault: noted.fault });
}

function guardFault(what: string, error: unknown): NarrowingError {
  const why = error instanceof Error ? error.message : String(error);
  return new NarrowingError('GUARD_FAULT', `the guard failed ${what}: ${why}`, { cause: error });
}
