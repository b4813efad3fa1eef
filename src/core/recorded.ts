/**
 * What `recordOutcome` returns and writes to the journal: the outcome, the bans it added and
 * lifted, and the receipt of the last journal entry it wrote.
 */
import type { Entry } from './constraints.js';
import type { CallContext } from './detectors/types.js';
import { keptText } from './secrets.js';
import type { Lifted } from './success-lifting.js';
import type {
  AuditSink,
  Constraint,
  ConvergenceReport,
  FailureFacts,
  RecordResult,
  Violation,
} from './types.js';

/**
 * What `recordOutcome` returns. The receipt hash is worked out in batches off the hot path, so it
 * is read through the journal when asked for (which forces it), and written into JSON then too.
 */
export class Recorded implements RecordResult {
  readonly #receipt: { readonly audit: AuditSink; readonly sequence: number } | undefined;

  constructor(
    readonly outcome: RecordResult['outcome'],
    readonly newConstraints: readonly Constraint[],
    readonly liftedConstraints: readonly Constraint[],
    readonly activeConstraints: number,
    readonly radiusLimit: number,
    readonly convergence: ConvergenceReport,
    receipt: { readonly audit: AuditSink; readonly sequence: number } | undefined,
  ) {
    this.#receipt = receipt;
  }

  get receiptHash(): string | undefined {
    const receipt = this.#receipt;
    return receipt?.audit.receiptHash?.(receipt.sequence);
  }

  toJSON(): RecordResult {
    const receiptHash = this.receiptHash;
    return { ...this, ...(receiptHash !== undefined && { receiptHash }) };
  }
}

/** Journals an outcome and the constraint changes it caused; returns the last sequence number. */
export function journalOutcome(
  audit: AuditSink,
  call: CallContext,
  facts: FailureFacts | undefined,
  resultDigest: string,
  text: string,
  added: readonly Entry[],
  lifted: readonly Lifted[],
): number | undefined {
  let last = audit.record({
    type: 'outcome',
    at: call.now,
    tool: call.tool,
    callKey: call.identity.callKey,
    success: !facts,
    signature: facts?.signature,
    blame: facts?.blame ?? 'none',
    resultDigest,
    error: facts ? keptText(text, 500) : undefined,
  });
  for (const entry of added) {
    last =
      audit.record({ type: 'constraint_added', at: call.now, constraint: { ...entry.constraint } }) ?? last;
  }
  for (const { entry, why } of lifted) {
    last =
      audit.record({ type: 'constraint_lifted', at: call.now, constraint: { ...entry.constraint }, why }) ??
      last;
  }
  return last;
}

/** The ids of the learned constraints among `violations`, or undefined when none rests on one. */
export function constraintIdsOf(violations: readonly Violation[]): readonly string[] | undefined {
  const ids: string[] = [];
  for (const violation of violations) {
    const id = violation.constraint?.id;
    if (id !== undefined && !ids.includes(id)) ids.push(id);
  }
  return ids.length > 0 ? ids : undefined;
}
