/**
 * The part of a long output a reader looks at: its head and its tail, where a program says what it
 * was asked and how it ended, joined by a line's end; a text no longer than both is read whole.
 */
export function endsOf(text: string, chars: number): string {
  return text.length <= 2 * chars ? text : `${text.slice(0, chars)}\n${text.slice(-chars)}`;
}
