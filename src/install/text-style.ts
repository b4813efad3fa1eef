/**
 * How a config file is laid out, read from the file itself, so that text narrowing adds looks
 * like the text around it.
 */

export interface TextStyle {
  readonly eol: '\n' | '\r\n';
  /** One level of indentation: spaces or a tab. */
  readonly indentUnit: string;
  /** Arrays of strings are written one element per line. */
  readonly multilineArrays: boolean;
}

export function detectStyle(text: string): TextStyle {
  return {
    eol: text.includes('\r\n') ? '\r\n' : '\n',
    indentUnit: detectIndentUnit(text),
    multilineArrays: /\[[ \t]*\r?\n[ \t]*"/.test(text),
  };
}

/** The smallest indentation step between consecutive lines; two spaces when nothing is indented. */
function detectIndentUnit(text: string): string {
  let smallest: number | undefined;
  let previous = 0;
  for (const line of text.split('\n')) {
    if (line.trim().length === 0) continue;
    if (line.startsWith('\t')) return '\t';
    const width = line.length - line.trimStart().length;
    const step = width - previous;
    if (step > 0 && (smallest === undefined || step < smallest)) smallest = step;
    previous = width;
  }
  return ' '.repeat(smallest ?? 2);
}

/** The whitespace that starts the line holding `offset`. */
export function indentationAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const match = /^[ \t]*/.exec(text.slice(lineStart, offset));
  return match?.[0] ?? '';
}

/** Whether `offset` is the first non-blank character of its line. */
export function startsLine(text: string, offset: number): boolean {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return text.slice(lineStart, offset).trim().length === 0;
}
