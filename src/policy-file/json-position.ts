/**
 * Where a JSON text stops being valid. `JSON.parse` says what is wrong but, depending on the
 * Node version, not where; a policy error without a line number sends people hunting.
 */
export interface TextPosition {
  readonly line: number;
  readonly column: number;
}

/** The 1-based line and column of the first syntax error, or `undefined` when the text is valid. */
export function jsonErrorPosition(text: string): TextPosition | undefined {
  const offset = firstErrorOffset(text);
  if (offset === undefined) return undefined;
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: offset - lineStart + 1 };
}

class Stop {
  constructor(readonly offset: number) {}
}

function firstErrorOffset(text: string): number | undefined {
  let at = 0;
  const fail = (): never => {
    throw new Stop(at);
  };
  const space = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at]!)) at++;
  };
  const literal = (word: string) => {
    for (const char of word) {
      if (text[at] !== char) fail();
      at++;
    }
  };
  const string = () => {
    at++;
    while (at < text.length && text[at] !== '"') {
      const char = text[at]!;
      if (char < ' ') fail();
      if (char === '\\') {
        at++;
        const escaped = text[at];
        if (escaped === 'u') {
          for (let i = 1; i <= 4; i++) if (!/[0-9a-fA-F]/.test(text[at + i] ?? '')) fail();
          at += 4;
        } else if (escaped === undefined || !'"\\/bfnrt'.includes(escaped)) fail();
      }
      at++;
    }
    if (at >= text.length) fail();
    at++;
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at, at + 400));
    if (!match || match[0] === '' || match[0] === '-') fail();
    at += match![0].length;
  };
  const members = (close: '}' | ']', member: () => void) => {
    at++;
    space();
    if (text[at] === close) {
      at++;
      return;
    }
    for (;;) {
      member();
      space();
      if (text[at] === close) break;
      if (text[at] !== ',') fail();
      at++;
    }
    at++;
  };
  const value = (): void => {
    space();
    const char = text[at];
    if (char === '{') {
      members('}', () => {
        space();
        if (text[at] !== '"') fail();
        string();
        space();
        if (text[at] !== ':') fail();
        at++;
        value();
      });
    } else if (char === '[') members(']', value);
    else if (char === '"') string();
    else if (char === 't') literal('true');
    else if (char === 'f') literal('false');
    else if (char === 'n') literal('null');
    else number();
  };
  try {
    value();
    space();
    return at < text.length ? at : undefined;
  } catch (stop) {
    if (stop instanceof Stop) return stop.offset;
    throw stop;
  }
}
