/**
 * A verdict whose reason (and, where quoting goes into it, evidence) is written when first read.
 * Most are never read (a warning a call goes ahead with, a verdict no face prints), and writing one
 * quotes a last error on one line. What the words say must be captured when the verdict is made:
 * the writers read nothing that changes after the check. The engine hands on a redacted copy of each
 * verdict (see `redactViolations`), never this object.
 */
import type { Constraint, Violation, ViolationEvidence } from './types.js';

export class ViolationWrittenOnRead implements Violation {
  // Private to the class, so that the verdict's own fields are its fields and nothing else.
  readonly #writeReason: () => string;
  #reason: string | undefined;
  readonly #writeEvidence: () => ViolationEvidence;
  #evidence: ViolationEvidence | undefined;

  constructor(
    readonly rule: string,
    readonly severity: Violation['severity'],
    writeReason: () => string,
    readonly suggestion: string,
    writeEvidence: () => ViolationEvidence,
    readonly constraint?: Constraint,
  ) {
    this.#writeReason = writeReason;
    this.#writeEvidence = writeEvidence;
  }

  get reason(): string {
    if (this.#reason === undefined) this.#reason = this.#writeReason();
    return this.#reason;
  }

  get evidence(): ViolationEvidence {
    if (this.#evidence === undefined) this.#evidence = this.#writeEvidence();
    return this.#evidence;
  }
}
