/** A trace line that cannot be read. The message starts with `file:line:` (or `line N:`). */
export class TraceError extends Error {
  override readonly name = 'TraceError';

  constructor(
    readonly detail: string,
    readonly line: number,
    readonly source?: string,
  ) {
    super(source ? `${source}:${line}: ${detail}` : `line ${line}: ${detail}`);
  }
}
