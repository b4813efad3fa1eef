/**
 * Lines of a stream, each bounded: a line longer than `maxLength` characters is reported by its
 * length and never held whole, so a hostile or corrupt file costs at most one bound of memory.
 * Lines are split on `\n`; a trailing `\r` is left to the reader.
 */

/** A line too long to be read. */
export interface LongLine {
  readonly tooLong: number;
}

export async function* boundedLines(
  chunks: AsyncIterable<string | Uint8Array>,
  maxLength: number,
): AsyncGenerator<string | LongLine, void, undefined> {
  const decoder = new TextDecoder('utf-8');
  // The pieces of the line being read, joined once when it ends: reading stays linear.
  let pieces: string[] = [];
  let length = 0;
  let dropped = false;
  const take = (piece: string) => {
    length += piece.length;
    if (dropped) return;
    if (length > maxLength) {
      dropped = true;
      pieces = [];
    } else if (piece !== '') pieces.push(piece);
  };
  const end = (): string | LongLine => {
    const line = dropped ? { tooLong: length } : pieces.join('');
    pieces = [];
    length = 0;
    dropped = false;
    return line;
  };
  for await (const chunk of chunks) {
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let start = 0;
    let newline = text.indexOf('\n');
    while (newline !== -1) {
      take(text.slice(start, newline));
      yield end();
      start = newline + 1;
      newline = text.indexOf('\n', start);
    }
    if (start < text.length) take(text.slice(start));
  }
  take(decoder.decode());
  if (length > 0) yield end();
}
