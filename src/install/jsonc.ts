/**
 * A JSON-with-comments reader that remembers where every value sits in the text. Editing a client's
 * config through these offsets changes only the bytes that must change: comments, key order,
 * spacing and everything narrowing does not touch stay exactly as the user wrote them.
 */

export interface Span {
  /** Offset of the first character. */
  readonly start: number;
  /** Offset just past the last character. */
  readonly end: number;
}

export interface ObjectNode extends Span {
  readonly kind: 'object';
  readonly members: readonly Member[];
}

export interface Member {
  readonly key: string;
  /** The key's quoted text. */
  readonly keySpan: Span;
  readonly value: JsonNode;
}

export interface ArrayNode extends Span {
  readonly kind: 'array';
  readonly items: readonly JsonNode[];
}

export interface ScalarNode extends Span {
  readonly kind: 'string' | 'number' | 'boolean' | 'null';
  readonly value: string | number | boolean | null;
}

export type JsonNode = ObjectNode | ArrayNode | ScalarNode;

export interface ParsedJsonc {
  readonly root: JsonNode;
  /** Whether the text has `//` or `/* *\/` comments (plain JSON readers would reject it). */
  readonly hasComments: boolean;
}

export class JsoncSyntaxError extends Error {
  constructor(
    readonly problem: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${problem} at line ${line}, column ${column}`);
    this.name = 'JsoncSyntaxError';
  }
}

/** Parses JSON, allowing comments and trailing commas (the JSONC that VS Code accepts). */
export function parseJsonc(text: string): ParsedJsonc {
  const reader = new Reader(text);
  // A byte order mark is not part of the document.
  if (text.charCodeAt(0) === 0xfeff) reader.at = 1;
  reader.skipSpace();
  const root = reader.value();
  reader.skipSpace();
  if (reader.at < text.length) reader.fail('unexpected text after the end of the document');
  return { root, hasComments: reader.sawComment };
}

/** The plain value of a node, as `JSON.parse` would give it. */
export function nodeValue(node: JsonNode): unknown {
  switch (node.kind) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const member of node.members) {
        Object.defineProperty(out, member.key, {
          value: nodeValue(member.value),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    case 'array':
      return node.items.map(nodeValue);
    default:
      return node.value;
  }
}

/** The member a reader would use: the last one with the key, as `JSON.parse` keeps the last. */
export function memberOf(node: ObjectNode, key: string): Member | undefined {
  for (let index = node.members.length - 1; index >= 0; index--) {
    const member = node.members[index]!;
    if (member.key === key) return member;
  }
  return undefined;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

class Reader {
  at = 0;
  sawComment = false;

  constructor(private readonly text: string) {}

  fail(problem: string, offset = this.at): never {
    const before = this.text.slice(0, offset);
    const lineStart = before.lastIndexOf('\n') + 1;
    throw new JsoncSyntaxError(problem, before.split('\n').length, offset - lineStart + 1);
  }

  skipSpace(): void {
    const text = this.text;
    while (this.at < text.length) {
      const char = text[this.at]!;
      if (char === ' ' || char === '\t' || char === '\n' || char === '\r') {
        this.at++;
      } else if (char === '/' && text[this.at + 1] === '/') {
        this.sawComment = true;
        const newline = text.indexOf('\n', this.at);
        this.at = newline === -1 ? text.length : newline + 1;
      } else if (char === '/' && text[this.at + 1] === '*') {
        this.sawComment = true;
        const close = text.indexOf('*/', this.at + 2);
        if (close === -1) this.fail('a /* comment is never closed');
        this.at = close + 2;
      } else {
        return;
      }
    }
  }

  value(): JsonNode {
    const char = this.text[this.at];
    if (char === '{') return this.object();
    if (char === '[') return this.array();
    if (char === '"') return this.string();
    if (char === undefined) this.fail('the document ends where a value was expected');
    return this.literal();
  }

  private object(): ObjectNode {
    const start = this.at;
    this.at++;
    const members: Member[] = [];
    for (;;) {
      this.skipSpace();
      if (this.text[this.at] === '}') break;
      if (this.text[this.at] !== '"') this.fail('expected a quoted key or "}"');
      const key = this.string();
      this.skipSpace();
      if (this.text[this.at] !== ':') this.fail(`expected ":" after the key ${JSON.stringify(key.value)}`);
      this.at++;
      this.skipSpace();
      const value = this.value();
      members.push({ key: key.value as string, keySpan: { start: key.start, end: key.end }, value });
      this.skipSpace();
      if (this.text[this.at] === ',') {
        this.at++;
        continue;
      }
      if (this.text[this.at] !== '}') this.fail('expected "," or "}" after a value');
      break;
    }
    this.at++;
    return { kind: 'object', start, end: this.at, members };
  }

  private array(): ArrayNode {
    const start = this.at;
    this.at++;
    const items: JsonNode[] = [];
    for (;;) {
      this.skipSpace();
      if (this.text[this.at] === ']') break;
      items.push(this.value());
      this.skipSpace();
      if (this.text[this.at] === ',') {
        this.at++;
        continue;
      }
      if (this.text[this.at] !== ']') this.fail('expected "," or "]" after a value');
      break;
    }
    this.at++;
    return { kind: 'array', start, end: this.at, items };
  }

  private string(): ScalarNode {
    const start = this.at;
    let at = start + 1;
    const text = this.text;
    while (at < text.length && text[at] !== '"') {
      const char = text[at]!;
      if (char === '\\') at++;
      else if (char === '\n') this.fail('a string runs past the end of its line', start);
      at++;
    }
    if (at >= text.length) this.fail('a string is never closed', start);
    const end = at + 1;
    let value: string;
    try {
      value = JSON.parse(text.slice(start, end)) as string;
    } catch {
      this.fail('a string has an invalid escape or control character', start);
    }
    this.at = end;
    return { kind: 'string', start, end, value };
  }

  private literal(): ScalarNode {
    const start = this.at;
    for (const [word, value] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.text.startsWith(word, start)) {
        this.at = start + word.length;
        return { kind: value === null ? 'null' : 'boolean', start, end: this.at, value };
      }
    }
    NUMBER.lastIndex = start;
    const match = NUMBER.exec(this.text);
    if (match === null) this.fail('expected a value');
    this.at = start + match[0].length;
    return { kind: 'number', start, end: this.at, value: Number(match[0]) };
  }
}
