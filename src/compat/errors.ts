/** Errors of the compatibility layer, each with a stable `code` to branch on. */
import { NarrowingError } from '../core/errors.js';

export type CompatErrorCode =
  /** A state file larger than the importer reads. */
  | 'STATE_TOO_LARGE'
  /** A state file that is not JSON. */
  | 'STATE_NOT_JSON'
  /** JSON that is not a state of `@sovereign-labs/narrowing`. */
  | 'STATE_INVALID'
  /** A state file that could not be read at all. */
  | 'STATE_UNREADABLE'
  /** An adapter that lacks a method of the adapter interface. */
  | 'ADAPTER_INVALID';

export class CompatError extends NarrowingError {
  override readonly name = 'CompatError';
  declare readonly code: CompatErrorCode;

  constructor(
    code: CompatErrorCode,
    message: string,
    /** One sentence per problem, each naming where it is (`constraints[3].type`). */
    readonly problems: readonly string[] = [],
  ) {
    super(code, message);
  }
}
