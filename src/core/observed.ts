/**
 * What detectors are told of an executed call. One is made for every outcome, so it is a class:
 * an object literal with a getter is built property by property on every call, at about fifty
 * times the cost of constructing an instance.
 */
import type { ObservedOutcome } from './detectors/types.js';
import { EVIDENCE_CHARS, keptText, ownCopy } from './secrets.js';
import type { FailureFacts } from './types.js';

/** How much of an error text its shape is made from. */
const SHAPED_CHARS = 4_000;

export class Observed implements ObservedOutcome {
  private kept: string | undefined;
  private shaped: string | undefined;
  /** The one `deferredErrorShape` handed out: the detectors that ask share its copy of the head. */
  private deferred: (() => string) | undefined;

  constructor(
    readonly failure: FailureFacts | undefined,
    readonly resultDigest: string,
    readonly nonAdvancing: boolean,
    readonly empty: boolean,
    /** The whole result text. */
    readonly content: string,
    readonly score: number | undefined,
    readonly changedWorld: boolean,
    readonly changedService: boolean,
    readonly namesOwnTool: boolean,
    private readonly shapeError: (text: string) => string,
    /** Takes out of the text the credentials the call's arguments carried. */
    private readonly scrub?: (text: string) => string,
  ) {}

  get success(): boolean {
    return this.failure === undefined;
  }

  /**
   * Redacted and copied on first use: most results are never kept as evidence, and what a
   * detector keeps may be saved to disk.
   */
  /**
   * Shaped on first use, since only failures some detector compares are shaped, and from the head
   * of a long text: a whole test log is cut, its head deciding.
   */
  get errorShape(): string {
    this.shaped ??= this.deferred !== undefined ? this.deferred() : this.shapeError(this.shapedText());
    return this.shaped;
  }

  /**
   * `errorShape`, computed on the first call of the function returned: from a copy of the head it
   * reads, so that keeping the function does not keep a long result alive.
   */
  deferredErrorShape(): () => string {
    if (this.deferred !== undefined) return this.deferred;
    const known = this.shaped;
    if (known !== undefined) return () => known;
    const head = ownCopy(this.shapedText());
    const shapeError = this.shapeError;
    let shape: string | undefined;
    this.deferred = () => {
      shape ??= shapeError(head);
      return shape;
    };
    return this.deferred;
  }

  private shapedText(): string {
    return this.content.length > SHAPED_CHARS ? this.content.slice(0, SHAPED_CHARS) : this.content;
  }

  get text(): string {
    this.kept ??= keptText(
      this.scrub === undefined ? this.content : this.scrub(this.content),
      EVIDENCE_CHARS,
    );
    return this.kept;
  }
}
