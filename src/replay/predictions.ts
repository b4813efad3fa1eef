/**
 * Checks a replay's blocks against what the recorded run did, without labels. A block is a
 * prediction: the call would tell the agent nothing new, because it would answer as an earlier
 * outcome did. The recording holds what the blocked call really answered, so each prediction can be
 * checked: the call's outcome is fingerprinted as the engine fingerprints outcomes (a success by its
 * masked result, a failure by its signature and the shape of its error, numbered listings of the
 * file left out) and compared with the
 * outcomes the block rests on: the earlier runs of the same call (the same arguments, or the same
 * attempt spelled otherwise) or, for a call never made before, the earlier failures of the same tool
 * or program. A blocked call that answered anything new (a success, another error shape) was a wrong
 * prediction, whatever any label says. A stop on empty answers (`non-advancing`) predicts that the
 * call finds nothing, whatever it asks: it held when the call found nothing too. A blocked call the
 * environment did not run (its sandbox gone, a timeout, a rate limit: a failure the adapter blames
 * on the harness) tested nothing: it is counted as not run, as a call the recording never answered
 * is.
 */
import { createToolCallAdapter } from '../adapters/tool-call/index.js';
import { withoutListings } from '../adapters/tool-call/source-listings.js';
import { digestResult, identifyCall, withoutFreeText } from '../core/identity/index.js';
import type { DomainAdapter } from '../core/types.js';
import type { TraceEvent } from '../trace/types.js';
import { recordedCalls } from './recorded-calls.js';
import type { ReplayStep } from './replay.js';

/**
 * What became of one block's prediction: `held` (the call answered as an outcome before it had),
 * `new-success` (it succeeded where the evidence was a failure, or with a result never seen),
 * `new-error` (it failed another way), `not-run` (the recording holds no answer, or only the
 * environment's: the call did not get to run).
 */
export type PredictionOutcome = 'held' | 'new-success' | 'new-error' | 'not-run';

export interface PredictionCheck {
  readonly step: number;
  readonly tool: string;
  readonly rule: string;
  readonly outcome: PredictionOutcome;
  /** Whether the evidence was earlier runs of the same call, or only the tool's earlier failures. */
  readonly evidence: 'same-call' | 'same-tool' | 'none';
}

interface Fingerprinted {
  readonly failed: boolean;
  /** The environment answered instead of the call (a failure blamed on the harness). */
  readonly unrun: boolean;
  /**
   * `ok <digest>`, or `fail <signature> <shape>` of the whole error and of the error without its
   * numbered listings: either matching an earlier one is the same outcome.
   */
  readonly fingerprints: readonly string[];
  readonly keys: readonly string[];
  /** The tool and, for a command, its program: what a guess repeats. */
  readonly family: string;
  /** An answer that found nothing, as the adapter reads it (`[]`, "No results", a query's blank). */
  readonly empty: boolean;
}

/** The rule whose blocks predict an empty answer, not an answer seen before. */
const NON_ADVANCING = 'non-advancing';

/** Each call of the recording, numbered as replay numbers steps, with its outcome's fingerprint. */
function fingerprintCalls(events: Iterable<TraceEvent>, adapter: DomainAdapter): Map<number, Fingerprinted> {
  const out = new Map<number, Fingerprinted>();
  for (const { step, proposal, facts, outcome, failure, text } of recordedCalls(events, adapter)) {
    const failed = failure !== undefined || !outcome.success;
    const shape = (error: string) =>
      `fail ${failure?.signature ?? 'unknown_error'} ${adapter.errorShape?.(error) ?? digestResult(error)}`;
    // A numbered listing of the file in a failure is the file's text, not the tool's verdict.
    const fingerprints = failed ? [shape(text), shape(withoutListings(text))] : [`ok ${digestResult(text)}`];
    const { callKey } = identifyCall(proposal.tool, withoutFreeText(proposal));
    const keys = facts.failureKey === undefined ? [callKey] : [callKey, facts.failureKey];
    const family = facts.program === undefined ? proposal.tool : `${proposal.tool} ${facts.program}`;
    const unrun = failure?.blame === 'harness_fault';
    const empty = adapter.answersNothing?.({ ...outcome, proposal }, facts, failure) ?? false;
    out.set(step, { failed, unrun, fingerprints, keys, family, empty });
  }
  return out;
}

/**
 * Checks each block (and halt) of `steps` against the recorded outcome of the call it stopped. The
 * evidence a block rests on is what the recording answered before it, as it really ran: the guard
 * may have blocked those calls too, but the agent saw their answers.
 */
export function checkPredictions(
  events: readonly TraceEvent[],
  steps: readonly ReplayStep[],
  adapter: DomainAdapter = createToolCallAdapter(),
): PredictionCheck[] {
  const calls = fingerprintCalls(events, adapter);
  const byKey = new Map<string, Set<string>>();
  const failuresByFamily = new Map<string, Set<string>>();
  const checks: PredictionCheck[] = [];
  const stopped = new Map<number, ReplayStep>();
  for (const step of steps)
    if (step.verdict === 'block' || step.verdict === 'halt') stopped.set(step.step, step);
  const last = Math.max(0, ...steps.map((step) => step.step));
  for (let at = 1; at <= last; at++) {
    const call = calls.get(at);
    const block = stopped.get(at);
    if (block !== undefined) checks.push(check(block, call, byKey, failuresByFamily));
    if (call === undefined) continue;
    for (const fingerprint of call.fingerprints) {
      for (const key of call.keys) addTo(byKey, key, fingerprint);
      if (call.failed) addTo(failuresByFamily, call.family, fingerprint);
    }
  }
  return checks;
}

function check(
  block: ReplayStep,
  call: Fingerprinted | undefined,
  byKey: ReadonlyMap<string, ReadonlySet<string>>,
  failuresByFamily: ReadonlyMap<string, ReadonlySet<string>>,
): PredictionCheck {
  const base = { step: block.step, tool: block.tool, rule: block.rule ?? 'unknown' };
  if (call === undefined || call.unrun) return { ...base, outcome: 'not-run', evidence: 'none' };
  // A stop on empty answers predicts that the call finds nothing too, whatever it asks.
  if (block.rule === NON_ADVANCING && call.empty) return { ...base, outcome: 'held', evidence: 'same-tool' };
  const sameCall = new Set<string>();
  for (const key of call.keys) for (const seen of byKey.get(key) ?? []) sameCall.add(seen);
  const evidence = sameCall.size > 0 ? sameCall : (failuresByFamily.get(call.family) ?? new Set<string>());
  const kind = sameCall.size > 0 ? 'same-call' : evidence.size > 0 ? 'same-tool' : 'none';
  if (call.fingerprints.some((fingerprint) => evidence.has(fingerprint)))
    return { ...base, outcome: 'held', evidence: kind };
  return { ...base, outcome: call.failed ? 'new-error' : 'new-success', evidence: kind };
}

function addTo(map: Map<string, Set<string>>, key: string, value: string): void {
  const set = map.get(key);
  if (set) set.add(value);
  else map.set(key, new Set([value]));
}
