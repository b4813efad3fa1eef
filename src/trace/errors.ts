/** A trace line that cannot be read. The message starts with `file:line:` (or `line N:`). */
import { NarrowingError } from '../core/errors.js';
export class TraceError extends NarrowingError {
  override readonly name = 'TraceError';

  constructor(
    readonly detail: string,
    readonly line: number,
    readonly source?: string,
  ) {
    super('TRACE_INVALID', source ? `${source}:${line}: ${detail}` : `line ${line}: ${detail}`);
  }
}
